package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
)

// DefaultSystemPrompt tells the model when to ask, as Claude Code's tool
// description does.
const DefaultSystemPrompt = `You are a capable software engineering agent working for the user in their project.

When you need the user's preference or decision to do the task well, call the AskUserQuestion tool instead of guessing: when an instruction is ambiguous, when several approaches are valid and the trade-off is the user's to make, or when only the user can know the answer. Ask everything you need in one call (up to four questions), recommend an option when you have a view, and then continue with the answers. Do not ask about things you can decide yourself, and do not ask for permission to proceed.

Answers may come from an answers file or a default policy rather than a person; the tool result says so. Treat those as defaults the user has not confirmed, and mention the assumption in your reply.`

func runFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "print", Aliases: []string{"p"}, Category: catOutput, Usage: "headless: print the result and exit (see --output-format)"},
		&choiceFlag{"FORMAT", &cli.StringFlag{Name: "output-format", Value: outText, Category: catOutput, Usage: "with --print: text (final assistant text), json (one result object) or stream-json (one JSON line per event)"},
			[]string{outText, outJSON, outStreamJSON}},
		&choiceFlag{"FORMAT", &cli.StringFlag{Name: "input-format", Value: "text", Category: catOutput, Usage: "text (the prompt is the argument or standard input) or stream-json (user-message lines on standard input, answers on the same stream)"},
			[]string{"text", outStreamJSON}},
		&cli.StringFlag{Name: "system-prompt", Category: catModel, Usage: "replace the default system prompt with `TEXT`"},
		&cli.StringFlag{Name: "append-system-prompt", Category: catModel, Usage: "append `TEXT` to the system prompt"},
		&cli.IntFlag{Name: "max-turns", Value: agentloop.DefaultMaxTurns, Category: catModel, Usage: "stop after `N` model calls (exit 5)"},
		&cli.DurationFlag{Name: "ask-timeout", Category: catTimeouts, Usage: "bound each question set to `DURATION` (e.g. 10m); see --on-timeout"},
		onTimeoutFlag("when --ask-timeout passes: suspend (stop and wait for askuser resume, exit 6), auto (take the recommended options, marked as such) or error (stop, exit 7; the question stays pending)",
			ask.PolicySuspend, ask.PolicyAuto, ask.PolicyError),
		&cli.StringFlag{Name: "notify-cmd", Category: catTimeouts, Usage: "run shell `CMD` with the question as JSON on stdin whenever a question starts waiting (env ASKUSER_NOTIFY_CMD)"},
		&choiceFlag{"WHEN", &cli.StringFlag{Name: "bell", Value: "auto", Category: catTimeouts, Usage: "ring the terminal bell when a question appears: auto (after the agent worked 5s or more), always, never (env ASKUSER_BELL)"},
			[]string{"auto", "always", "never"}},
		&cli.StringFlag{Name: "state-dir", Category: catSession, Usage: "keep sessions under `DIR` (env ASKUSER_STATE_DIR; default $XDG_STATE_HOME/askuser)"},
		storeFlag(catSession),
		&cli.StringFlag{Name: "subagent-model", Category: catModel, Usage: "run sub-agents (the Task tool) on model `NAME` of the same provider (default: the run's model)"},
		&cli.IntFlag{Name: "subagent-depth", Value: 1, Category: catModel, Usage: "how deep sub-agents (the Task tool) may nest: 1 lets the agent start sub-agents that cannot start their own"},
	}
	flags = append(flags, providerFlags()...)
	flags = append(flags, toolFlags()...)
	return append(append(flags, frontendFlags(runAsking)...), protocolFDFlag(true))
}

func runCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run an agent; when its model calls AskUserQuestion, ask and continue with the answers",
		ArgsUsage: "[PROMPT]",
		Description: `Runs an agent loop against a model provider. The prompt is the argument, or standard
input when there is none. At a terminal the assistant text streams and questions are asked
with a prompt; with -p the run is headless. Every run is a session on disk: --resume ID or
--continue adds a prompt to one, and askuser resume ID answers a question it stopped on.

Without a key: askuser demo (a scripted model built into askuser).`,
		Flags: append(runFlags(),
			&cli.StringFlag{Name: "resume", Aliases: []string{"r"}, Category: catSession, Usage: "continue session `ID` with a new prompt"},
			&cli.BoolFlag{Name: "continue", Aliases: []string{"c"}, Category: catSession, Usage: "continue the most recent session of this directory with a new prompt (it says which)"},
		),
		Action: func(c *cli.Context) error { return runRun(c, e) },
	}
}

// runOptions are the flags that shape a run, checked once.
type runOptions struct {
	print        bool
	format       string
	streamInput  bool
	maxTurns     int
	askTimeout   time.Duration
	onTimeout    ask.Policy
	notifyCmd    string
	bell         string
	system       string
	frontendSpec frontendSpec
	// subagentDepth bounds nested sub-agents.
	subagentDepth int
	// protocolOut is where the JSON-lines frontend writes its lines
	// (--protocol-fd), nil for standard output.
	protocolOut io.Writer
}

func readRunOptions(c *cli.Context, e *env) (runOptions, error) {
	o := runOptions{print: c.Bool("print"), format: c.String("output-format"), maxTurns: c.Int("max-turns"),
		askTimeout: c.Duration("ask-timeout")}
	switch o.format {
	case outText, outJSON, outStreamJSON:
	default:
		return o, usageErrorf("--output-format: %s is not a format; use text, json or stream-json", ask.Excerpt(o.format))
	}
	if o.format != outText && !o.print {
		o.print = true // a machine format is headless by nature
	}
	in := "text" // resume has no --input-format
	if c.IsSet("input-format") {
		in = c.String("input-format")
	}
	switch in {
	case "text":
	case "stream-json":
		if o.format != outStreamJSON {
			return o, usageErrorf("--input-format stream-json needs --output-format stream-json")
		}
		o.streamInput = true
	default:
		return o, usageErrorf("--input-format: %s is not a format; use text or stream-json", ask.Excerpt(in))
	}
	if o.subagentDepth = c.Int("subagent-depth"); o.subagentDepth < 1 {
		return o, usageErrorf("--subagent-depth must be at least 1, got %d", o.subagentDepth)
	}
	if o.maxTurns <= 0 {
		return o, usageErrorf("--max-turns must be at least 1, got %d", o.maxTurns)
	}
	p, err := ask.ParsePolicy("--on-timeout", c.String("on-timeout"))
	if err != nil {
		return o, withCode(ExitUsage, err)
	}
	o.onTimeout = p
	o.notifyCmd, _ = flagOrEnv(c, e, "notify-cmd", "ASKUSER_NOTIFY_CMD")
	o.bell = c.String("bell")
	if v := e.getenv("ASKUSER_BELL"); v != "" && !c.IsSet("bell") {
		o.bell = v
	}
	switch o.bell {
	case "auto", "always", "never":
	default:
		return o, usageErrorf("--bell: %s is not a setting; use auto, always or never", ask.Excerpt(o.bell))
	}
	o.system = DefaultSystemPrompt
	if s := c.String("system-prompt"); s != "" {
		o.system = s
	}
	if s := c.String("append-system-prompt"); s != "" {
		o.system += "\n\n" + s
	}
	if o.frontendSpec, err = readFrontendSpec(c, e); err != nil {
		return o, err
	}
	o.protocolOut, err = protocolFD(c)
	return o, err
}

// stdinFree refuses a run that would read standard input (for the prompt,
// or stream-json lines) when the answers file is standard input.
func (o runOptions) stdinFree(c *cli.Context) error {
	switch {
	case !o.frontendSpec.answersIn:
		return nil
	case o.streamInput:
		return o.frontendSpec.stdinTaken("--input-format stream-json cannot read standard input too",
			"give the answers file another way (a path, or <(…))")
	case c.NArg() == 0:
		return o.frontendSpec.stdinTaken("the prompt cannot come from standard input too", "give the prompt as an argument")
	}
	return nil
}

// readPrompt returns the prompt: the arguments joined, else all of stdin.
// fromStdin says stdin was used up by it.
func readPrompt(c *cli.Context, e *env) (prompt string, fromStdin bool, err error) {
	if c.NArg() > 0 {
		return strings.Join(c.Args().Slice(), " "), false, nil // runRun checked it is not blank
	}
	if e.ios.CanPrompt() {
		return "", false, usageErrorf("give a prompt: askuser run \"Add authentication to my app\" (or pipe it on standard input)")
	}
	data, err := io.ReadAll(e.ios.In)
	if err != nil {
		return "", true, fmt.Errorf("read prompt from standard input: %w", err)
	}
	prompt = strings.TrimSpace(string(data))
	if prompt == "" {
		return "", true, usageErrorf("no prompt: the argument is missing and standard input was empty (or only white space)")
	}
	return prompt, true, nil
}

// blankPrompt refuses a prompt argument that is only white space: the
// model would be sent nothing to do.
func blankPrompt(c *cli.Context) error {
	if c.NArg() > 0 && strings.TrimSpace(strings.Join(c.Args().Slice(), " ")) == "" {
		return usageErrorf("the prompt is empty (only white space); give the task, e.g. askuser run \"Add authentication to my app\"")
	}
	return nil
}

// runFrontend chooses the frontend of a run. When standard input carried
// the prompt it cannot carry answers too: unless another frontend was
// chosen, questions are then kept for askuser resume. When nothing can
// answer at all, likewise.
func runFrontend(ctx context.Context, o runOptions, e *env, stdinUsed bool, stdio frontend.StdioConfig) (*chosen, error) {
	spec := o.frontendSpec
	if stdinUsed && spec.name == feStdio {
		return nil, usageErrorf("--frontend stdio reads answers from standard input, but standard input carried the prompt; pass the prompt as an argument, or use --input-format stream-json")
	}
	if err := protocolLines(o, e, &stdio); err != nil {
		return nil, err
	}
	if stdinUsed && spec.name == "" && spec.answers == "" {
		return promptOnTTY(ctx, e, stdio)
	}
	ch, err := chooseFrontend(ctx, spec, e.ios, stdio)
	if err != nil {
		if exitCode(err) != ExitNoAnswer {
			return nil, err
		}
		return &chosen{name: "none", why: err.Error(), close: func() {}, fe: frontend.Deferred{Reason: "nothing can answer here: " + err.Error()}}, nil
	}
	return ch, nil
}

// promptOnTTY chooses the frontend of a run whose prompt came on standard
// input: a person at the terminal (standard error is one) is asked there,
// on /dev/tty; otherwise the questions wait for askuser resume.
func promptOnTTY(ctx context.Context, e *env, stdio frontend.StdioConfig) (*chosen, error) {
	why := "standard input carried the prompt, so it cannot also carry answers"
	if e.ios.CanPromptOnTTY() {
		ch, err := chooseFrontend(ctx, frontendSpec{name: feSurvey, names: []string{feSurvey}, nameFrom: "the terminal"}, e.ios, stdio)
		if err == nil {
			ch.why = why + "; asking at the terminal (/dev/tty)"
			return ch, nil
		}
		why += "; the terminal could not be opened (" + err.Error() + ")"
	} else {
		why += ", and no terminal is there to ask at"
	}
	return &chosen{name: "none", why: why, close: func() {},
		fe: frontend.Deferred{Reason: why + "; next time give --answers FILE, --frontend auto or --input-format stream-json, or run it at a terminal (askuser asks there, on /dev/tty)"}}, nil
}

// protocolLines sends a run's JSON-lines lines where questionLines says,
// stdout being the protocol's own stream under stream-json and one JSON
// document under json.
func protocolLines(o runOptions, e *env, stdio *frontend.StdioConfig) error {
	out, err := questionLines(o.frontendSpec, o.protocolOut, stdio.Out, e.ios.ErrOut, o.format == outStreamJSON, o.format == outJSON)
	stdio.Out = out
	return err
}
