package runflow

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
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
)

// DefaultSystemPrompt tells the model when to ask, as Claude Code's tool
// description does.
const DefaultSystemPrompt = `You are a capable software engineering agent working for the user in their project.

When you need the user's preference or decision to do the task well, call the AskUserQuestion tool instead of guessing: when an instruction is ambiguous, when several approaches are valid and the trade-off is the user's to make, or when only the user can know the answer. Ask everything you need in one call (up to four questions), recommend an option when you have a view, and then continue with the answers. Do not ask about things you can decide yourself, and do not ask for permission to proceed.

Answers may come from an answers file or a default policy rather than a person; the tool result says so. Treat those as defaults the user has not confirmed, and mention the assumption in your reply.`

// RunFlags are the flags of a run, in one place: askuser run's, which
// askuser resume (without --input-format) and askuser demo (without the
// provider's) share.
func RunFlags() []cli.Flag {
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "print", Aliases: []string{"p"}, Category: cmdutil.CatOutput, Usage: "headless: print the result and exit (see --output-format)"},
		&cmdutil.ChoiceFlag{Placeholder: "FORMAT", StringFlag: &cli.StringFlag{Name: "output-format", Value: outText, Category: cmdutil.CatOutput, Usage: "with --print: text (final assistant text), json (one result object) or stream-json (one JSON line per event)"},
			Choices: []string{outText, outJSON, outStreamJSON}},
		&cmdutil.ChoiceFlag{Placeholder: "FORMAT", StringFlag: &cli.StringFlag{Name: "input-format", Value: "text", Category: cmdutil.CatOutput, Usage: "text (the prompt is the argument or standard input) or stream-json (user-message lines on standard input, answers on the same stream)"},
			Choices: []string{"text", outStreamJSON}},
		&cli.StringFlag{Name: "system-prompt", Category: cmdutil.CatModel, Usage: "replace the default system prompt with `TEXT`"},
		&cli.StringFlag{Name: "append-system-prompt", Category: cmdutil.CatModel, Usage: "append `TEXT` to the system prompt"},
		&cli.IntFlag{Name: "max-turns", Value: agentloop.DefaultMaxTurns, Category: cmdutil.CatModel, Usage: "stop after `N` model calls (exit 5)"},
		&cli.DurationFlag{Name: "ask-timeout", Category: cmdutil.CatTimeouts, Usage: "bound each question set to `DURATION` (e.g. 10m); see --on-timeout"},
		cmdutil.OnTimeoutFlag("when --ask-timeout passes: suspend (stop and wait for askuser resume, exit 6), auto (take the recommended options, marked as such) or error (stop, exit 7; the question stays pending)",
			ask.PolicySuspend, ask.PolicyAuto, ask.PolicyError),
		&cli.StringFlag{Name: "notify-cmd", Category: cmdutil.CatTimeouts, Usage: "run shell `CMD` with the question as JSON on stdin whenever a question starts waiting (env ASKUSER_NOTIFY_CMD)"},
		&cmdutil.ChoiceFlag{Placeholder: "WHEN", StringFlag: &cli.StringFlag{Name: "bell", Value: "auto", Category: cmdutil.CatTimeouts, Usage: "ring the terminal bell when a question appears: auto (after the agent worked 5s or more), always, never (env ASKUSER_BELL)"},
			Choices: []string{"auto", "always", "never"}},
		&cli.StringFlag{Name: "state-dir", Category: cmdutil.CatSession, Usage: "keep sessions under `DIR` (env ASKUSER_STATE_DIR; default $XDG_STATE_HOME/askuser)"},
		cmdutil.StoreFlag(cmdutil.CatSession),
		&cli.StringFlag{Name: "subagent-model", Category: cmdutil.CatModel, Usage: "run sub-agents (the Task tool) on model `NAME` of the same provider (default: the run's model)"},
		&cli.IntFlag{Name: "subagent-depth", Value: 1, Category: cmdutil.CatModel, Usage: "how deep sub-agents (the Task tool) may nest: 1 lets the agent start sub-agents that cannot start their own"},
	}
	flags = append(flags, ProviderFlags()...)
	flags = append(flags, toolFlags()...)
	return append(append(flags, chooser.FrontendFlags(chooser.RunAsking)...), chooser.ProtocolFDFlag(true))
}

// Flags are a run's flags (RunFlags), as given.
type Flags struct {
	Print              bool
	OutputFormat       string
	InputFormat        string
	InputFormatSet     bool
	SystemPrompt       string
	AppendSystemPrompt string
	// SystemSet says --system-prompt or --append-system-prompt was given.
	SystemSet     bool
	MaxTurns      int
	AskTimeout    time.Duration
	OnTimeout     string
	NotifyCmd     string
	Bell          string
	BellSet       bool
	Store         cmdutil.StoreFlags
	SubagentModel string
	SubagentDepth int
	Provider      ProviderSettings
	Tools         ToolSettings
	Asking        chooser.Flags
}

// ReadFlags reads a run's flags from c.
func ReadFlags(c *cli.Context) Flags {
	return Flags{
		Print: c.Bool("print"), OutputFormat: c.String("output-format"),
		InputFormat: c.String("input-format"), InputFormatSet: c.IsSet("input-format"),
		SystemPrompt: c.String("system-prompt"), AppendSystemPrompt: c.String("append-system-prompt"),
		SystemSet: c.IsSet("system-prompt") || c.IsSet("append-system-prompt"),
		MaxTurns:  c.Int("max-turns"), AskTimeout: c.Duration("ask-timeout"), OnTimeout: c.String("on-timeout"),
		NotifyCmd: c.String("notify-cmd"), Bell: c.String("bell"), BellSet: c.IsSet("bell"),
		Store:         cmdutil.ReadStoreFlags(c),
		SubagentModel: c.String("subagent-model"), SubagentDepth: c.Int("subagent-depth"),
		Provider: readProviderSettings(c), Tools: readToolSettings(c), Asking: chooser.ReadFlags(c),
	}
}

// Options are the flags that shape a run, checked once (Check).
type Options struct {
	print        bool
	format       string
	streamInput  bool
	maxTurns     int
	askTimeout   time.Duration
	onTimeout    ask.Policy
	notifyCmd    string
	bell         string
	system       string
	frontendSpec chooser.Spec
	// subagentDepth bounds nested sub-agents.
	subagentDepth int
	// protocolOut is where the JSON-lines frontend writes its lines
	// (--protocol-fd), nil for standard output.
	protocolOut io.Writer
}

// StreamInput says the run reads user-message lines (--input-format
// stream-json).
func (o Options) StreamInput() bool { return o.streamInput }

// Check checks a run's flags fl, with the environment.
func Check(f *cmdutil.Factory, fl Flags) (Options, error) {
	o := Options{print: fl.Print, format: fl.OutputFormat, maxTurns: fl.MaxTurns, askTimeout: fl.AskTimeout}
	switch o.format {
	case outText, outJSON, outStreamJSON:
	default:
		return o, cmdutil.UsageErrorf("--output-format: %s is not a format; use text, json or stream-json", ask.Excerpt(o.format))
	}
	if o.format != outText && !o.print {
		o.print = true // a machine format is headless by nature
	}
	in := "text" // resume has no --input-format
	if fl.InputFormatSet {
		in = fl.InputFormat
	}
	switch in {
	case "text":
	case "stream-json":
		if o.format != outStreamJSON {
			return o, cmdutil.UsageErrorf("--input-format stream-json needs --output-format stream-json")
		}
		o.streamInput = true
	default:
		return o, cmdutil.UsageErrorf("--input-format: %s is not a format; use text or stream-json", ask.Excerpt(in))
	}
	if o.subagentDepth = fl.SubagentDepth; o.subagentDepth < 1 {
		return o, cmdutil.UsageErrorf("--subagent-depth must be at least 1, got %d", o.subagentDepth)
	}
	if o.maxTurns <= 0 {
		return o, cmdutil.UsageErrorf("--max-turns must be at least 1, got %d", o.maxTurns)
	}
	p, err := ask.ParsePolicy("--on-timeout", fl.OnTimeout)
	if err != nil {
		return o, cmdutil.WithCode(cmdutil.ExitUsage, err)
	}
	o.onTimeout = p
	o.notifyCmd, _ = f.FlagOrEnv(fl.NotifyCmd, "notify-cmd", "ASKUSER_NOTIFY_CMD")
	o.bell = fl.Bell
	if v := f.Getenv("ASKUSER_BELL"); v != "" && !fl.BellSet {
		o.bell = v
	}
	switch o.bell {
	case "auto", "always", "never":
	default:
		return o, cmdutil.UsageErrorf("--bell: %s is not a setting; use auto, always or never", ask.Excerpt(o.bell))
	}
	o.system = DefaultSystemPrompt
	if s := fl.SystemPrompt; s != "" {
		o.system = s
	}
	if s := fl.AppendSystemPrompt; s != "" {
		o.system += "\n\n" + s
	}
	if o.frontendSpec, err = chooser.ReadSpec(f, fl.Asking, fl.Store); err != nil {
		return o, err
	}
	o.protocolOut, err = chooser.ProtocolFD(fl.Asking)
	return o, err
}

// stdinFree refuses a run that would read standard input (for the prompt,
// or stream-json lines) when the answers file is standard input.
func (o Options) stdinFree(args []string) error {
	switch {
	case !o.frontendSpec.AnswersIn:
		return nil
	case o.streamInput:
		return o.frontendSpec.StdinTaken("--input-format stream-json cannot read standard input too",
			"give the answers file another way (a path, or <(…))")
	case len(args) == 0:
		return o.frontendSpec.StdinTaken("the prompt cannot come from standard input too", "give the prompt as an argument")
	}
	return nil
}

// readPrompt returns the prompt: the arguments joined, else all of stdin.
// fromStdin says stdin was used up by it.
func readPrompt(f *cmdutil.Factory, args []string) (prompt string, fromStdin bool, err error) {
	if len(args) > 0 {
		return strings.Join(args, " "), false, nil // Run checked it is not blank
	}
	if f.IOStreams.CanPrompt() {
		return "", false, cmdutil.UsageErrorf("give a prompt: askuser run \"Add authentication to my app\" (or pipe it on standard input)")
	}
	data, err := io.ReadAll(f.IOStreams.In)
	if err != nil {
		return "", true, fmt.Errorf("read prompt from standard input: %w", err)
	}
	prompt = strings.TrimSpace(string(data))
	if prompt == "" {
		return "", true, cmdutil.UsageErrorf("no prompt: the argument is missing and standard input was empty (or only white space)")
	}
	return prompt, true, nil
}

// blankPrompt refuses a prompt argument that is only white space: the
// model would be sent nothing to do.
func blankPrompt(args []string) error {
	if len(args) > 0 && strings.TrimSpace(strings.Join(args, " ")) == "" {
		return cmdutil.UsageErrorf("the prompt is empty (only white space); give the task, e.g. askuser run \"Add authentication to my app\"")
	}
	return nil
}

// runFrontend chooses the frontend of a run. When standard input carried
// the prompt it cannot carry answers too: unless another frontend was
// chosen, questions are then kept for askuser resume. When nothing can
// answer at all, likewise.
func runFrontend(ctx context.Context, o Options, f *cmdutil.Factory, stdinUsed bool, stdio frontend.StdioConfig) (*chooser.Chosen, error) {
	spec := o.frontendSpec
	if stdinUsed && spec.Name == chooser.Stdio {
		return nil, cmdutil.UsageErrorf("--frontend stdio reads answers from standard input, but standard input carried the prompt; pass the prompt as an argument, or use --input-format stream-json")
	}
	if err := protocolLines(o, f, &stdio); err != nil {
		return nil, err
	}
	if stdinUsed && spec.Name == "" && spec.Answers == "" {
		return promptOnTTY(ctx, f, stdio)
	}
	ch, err := chooser.Choose(ctx, spec, f.IOStreams, stdio)
	if err != nil {
		if cmdutil.ExitCode(err) != cmdutil.ExitNoAnswer {
			return nil, err
		}
		return &chooser.Chosen{Name: "none", Why: err.Error(), Close: func() {}, FE: frontend.Deferred{Reason: "nothing can answer here: " + err.Error()}}, nil
	}
	return ch, nil
}

// promptOnTTY chooses the frontend of a run whose prompt came on standard
// input: a person at the terminal (standard error is one) is asked there,
// on /dev/tty; otherwise the questions wait for askuser resume.
func promptOnTTY(ctx context.Context, f *cmdutil.Factory, stdio frontend.StdioConfig) (*chooser.Chosen, error) {
	why := "standard input carried the prompt, so it cannot also carry answers"
	if f.IOStreams.CanPromptOnTTY() {
		ch, err := chooser.Choose(ctx, chooser.Spec{Name: chooser.Survey, Names: []string{chooser.Survey}, NameFrom: "the terminal"}, f.IOStreams, stdio)
		if err == nil {
			ch.Why = why + "; asking at the terminal (/dev/tty)"
			return ch, nil
		}
		why += "; the terminal could not be opened (" + err.Error() + ")"
	} else {
		why += ", and no terminal is there to ask at"
	}
	return &chooser.Chosen{Name: "none", Why: why, Close: func() {},
		FE: frontend.Deferred{Reason: why + "; next time give --answers FILE, --frontend auto or --input-format stream-json, or run it at a terminal (askuser asks there, on /dev/tty)"}}, nil
}

// protocolLines sends a run's JSON-lines lines where QuestionLines says,
// stdout being the protocol's own stream under stream-json and one JSON
// document under json.
func protocolLines(o Options, f *cmdutil.Factory, stdio *frontend.StdioConfig) error {
	out, err := chooser.QuestionLines(o.frontendSpec, o.protocolOut, stdio.Out, f.IOStreams.ErrOut, o.format == outStreamJSON, o.format == outJSON)
	stdio.Out = out
	return err
}
