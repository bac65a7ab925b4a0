// Package ask is askuser ask: it asks an AskUserQuestion question set
// without a model, through the frontend the flags choose, and prints the
// tool result the model would get (or one JSON line). Its question file is
// JSON, read within bounds (a pipe or /dev/zero never hangs it or fills
// memory), and a file that is not JSON is told what one looks like.
//
// (The package shares its name with the question core it imports,
// github.com/askuser/askuser/ask: here "ask." is always the core.)
package ask

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/fileread"
)

// Options are askuser ask's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context

	Asking    chooser.Flags
	Store     cmdutil.StoreFlags
	JSON      bool
	Timeout   time.Duration
	OnTimeout string
	ID        string
	// Args are the arguments: the question file, or "-".
	Args []string
}

// NewCmdAsk is askuser ask. runF, when not nil, is called with the options
// instead of asking (a test's).
func NewCmdAsk(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "ask",
		Usage:     "ask an AskUserQuestion question set without a model, print the tool result",
		ArgsUsage: "[FILE|-]",
		Description: `Reads AskUserQuestion input ({"questions":[...]}) from FILE, or from standard input
with "-" (answer lines may follow it on the same stream), asks through the chosen frontend,
and prints the tool result the model would get (or, with --json, one JSON line).

How it asks: --frontend wins; else --answers FILE selects the answers file; else a terminal
on stdin selects the prompt; else a pipe on stdin selects JSON lines (docs/protocol.md).

Standard output holds the result alone. The JSON-lines question and error lines go to
standard error when a pipe on stdin chose that frontend, to standard output (before the
result) when --frontend stdio names it, and to descriptor N with --protocol-fd N.`,
		Flags: append(chooser.FrontendFlags(chooser.AskAsking),
			&cli.BoolFlag{Name: "json", Category: cmdutil.CatOutput, Usage: "print the answers as one JSON line instead of the tool result text"},
			&cli.DurationFlag{Name: "timeout", Category: cmdutil.CatTimeouts, Usage: "give up waiting after `DURATION` (e.g. 30s, 5m)"},
			cmdutil.OnTimeoutFlag("after --timeout: error (exit 7) or auto (take the recommended options, marked as such)", ask.PolicyError, ask.PolicyAuto),
			&cli.StringFlag{Name: "id", Category: cmdutil.CatAsking, Usage: "question set `ID` used on JSON lines (default: generated)"},
			chooser.ProtocolFDFlag(false),
			cmdutil.StateDirFlag(), cmdutil.StoreFlag(),
		),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Asking: chooser.ReadFlags(c), Store: cmdutil.ReadStoreFlags(c),
				JSON: c.Bool("json"), Timeout: c.Duration("timeout"), OnTimeout: c.String("on-timeout"), ID: c.String("id"),
				Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return askRun(opts)
		},
	}
}

func askRun(opts *Options) error {
	f, ios := opts.Factory, opts.Factory.IOStreams
	if len(opts.Args) > 1 {
		return cmdutil.UsageErrorf("ask takes one question file (or -), got %d arguments", len(opts.Args))
	}
	spec, err := chooser.ReadSpec(f, opts.Asking, opts.Store)
	if err != nil {
		return err
	}
	if spec.Unanswered == ask.PolicySuspend {
		return cmdutil.UsageErrorf("--on-unanswered suspend (or ASKUSER_ON_UNANSWERED=suspend) needs a session to come back to; use it with askuser run, or use error or auto")
	}
	onTimeout, err := ask.ParsePolicy("--on-timeout", opts.OnTimeout)
	if err != nil || onTimeout == ask.PolicySuspend {
		return cmdutil.UsageErrorf("--on-timeout: %s is not valid for ask; use error or auto", ask.Excerpt(opts.OnTimeout))
	}
	path := ""
	if len(opts.Args) > 0 {
		path = opts.Args[0]
	}
	if path == "" {
		if ios.CanPrompt() {
			return cmdutil.UsageErrorf("ask needs a question file: askuser ask FILE, or askuser ask - to read it from standard input")
		}
		path = "-"
	}
	if path == "-" && spec.AnswersIn {
		return spec.StdinTaken("the question set cannot come from standard input too", "give the question file as an argument")
	}
	fd, err := chooser.ProtocolFD(opts.Asking)
	if err != nil {
		return err
	}
	lines, err := chooser.QuestionLines(spec, fd, ios.Out, ios.ErrOut, false, false)
	if err != nil {
		return err
	}
	ctx := opts.Context
	// Standard input (or a named pipe) may never end: a signal still does.
	q, err := cmdutil.UntilDone(ctx, func() (questionsRead, error) {
		in, rest, err := readQuestions(path, ios.In)
		return questionsRead{in, rest}, err
	})
	if err != nil {
		return err
	}
	in, rest := q.in, q.rest
	spec.Place.Title = "askuser ask"
	ch, err := chooser.Choose(ctx, spec, ios, frontend.StdioConfig{In: rest, Out: lines, Via: "stdin"})
	if err != nil {
		return err
	}
	defer ch.Close()
	if f, ok := ch.FE.(*frontend.File); ok && f.Unanswered() == ask.PolicySuspend {
		// ask has no session to come back to: waiting would end in exit 6
		// with nothing to resume.
		return cmdutil.UsageErrorf("answers file %s says unanswered: suspend, which needs a session to come back to (askuser run); askuser ask cannot wait: add --on-unanswered error or --on-unanswered auto",
			ask.Display(f.Path()))
	}
	if spec.Verbose {
		fmt.Fprintf(ios.ErrOut, "askuser: asking through %s: %s\n", ch.Name, ch.Why)
	}
	id := opts.ID
	if id == "" {
		id = ask.NewID("ask")
	}
	req := ask.Request{ID: id, Questions: in.Questions}
	answers, err := askWithTimeout(ctx, ch.FE, req, opts.Timeout, onTimeout)
	if err != nil {
		return err
	}
	if n := cmdutil.TimeoutNote(opts.Timeout, answers); n != "" {
		fmt.Fprintln(ios.ErrOut, n)
	}
	if opts.JSON {
		_, err = ios.Out.Write(wire.Encode(wire.NewAnswers(req, "", answers)))
	} else {
		_, err = fmt.Fprintln(ios.Out, ask.FormatResult(answers))
	}
	return err
}

// askWithTimeout asks, bounding the wait by d (0: no bound). When the time
// runs out, policy auto answers with the recommended options, marked as
// answered by the policy because nobody answered; policy error returns an
// error wrapping ask.ErrTimeout, worded for the ask command's flags.
func askWithTimeout(ctx context.Context, fe ask.Frontend, req ask.Request, d time.Duration, policy ask.Policy) ([]ask.Answer, error) {
	answers, err := ask.AskWithin(ctx, fe, req, d, policy, frontend.Auto{Reason: ask.TimeoutReason(d)})
	if err != nil && ctx.Err() == nil && errors.Is(err, ask.ErrTimeout) {
		return nil, fmt.Errorf("nobody answered within %s; raise --timeout, or use --on-timeout auto to take the recommended options%w", d, errorMark{ask.ErrTimeout})
	}
	return answers, err
}

// questionsRead is what readQuestions returns.
type questionsRead struct {
	in   ask.Input
	rest io.Reader
}

// readQuestions reads and validates the question set from path, or from
// stdin for "-"; rest is where answer lines are read from afterwards.
func readQuestions(path string, stdin io.Reader) (ask.Input, io.Reader, error) {
	var data []byte
	var err error
	name := path
	rest := stdin
	if path == "-" {
		name = "standard input"
		data, rest, err = frontend.SplitFirstJSON(stdin)
		if err != nil && len(data) == 0 {
			return ask.Input{}, nil, cmdutil.WithCode(cmdutil.ExitInvalid, fmt.Errorf("read question set from standard input: %w", err))
		}
	} else if data, err = readQuestionFile(path); err != nil {
		return ask.Input{}, nil, err
	}
	in, err := ask.Parse(data)
	if err != nil {
		err = describeInvalid(name, err)
		if !json.Valid(data) {
			err = fmt.Errorf("%w\n%s", err, notJSONHint(data))
		}
		return in, nil, cmdutil.WithCode(cmdutil.ExitInvalid, err)
	}
	return in, rest, nil
}

// smallestQuestionSet is the smallest valid question file, shown when a
// file is not JSON at all.
const smallestQuestionSet = `{"questions":[{"question":"Which database?","header":"Database","options":["PostgreSQL","SQLite"]}]}`

// notJSONHint tells a person whose question file is not JSON what one
// looks like. A file in YAML (the answers file's format, so an easy
// mistake) is named as such.
func notJSONHint(data []byte) string {
	what := "A question file is JSON"
	if looksLikeYAML(data) {
		what = "This looks like YAML, but a question file is JSON (only the answers file, --answers, is YAML)"
	}
	return what + ": the AskUserQuestion tool's input, as `askuser schema` describes it. The smallest valid one:\n  " + smallestQuestionSet
}

// looksLikeYAML reports whether data opens like a YAML mapping or list
// (after blank lines, comments and a "---"): "questions:" or "- ".
func looksLikeYAML(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line == "---" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "- "):
			return true
		default:
			key, _, ok := strings.Cut(line, ":")
			return ok && key != "" && !strings.ContainsAny(key, "{}[]\"' ")
		}
	}
	return false
}

// maxQuestionFile bounds a question file. A question set is a few KB, but
// a file may hold what a broken model sent (a megabyte of header, which
// is then refused with a short quote), so the bound is generous: it stops
// /dev/zero, not a model's worst.
const maxQuestionFile = 8 << 20

// readQuestionFile reads a question file, which may be a pipe, within
// maxQuestionFile and fileread.PipeTimeout: /dev/zero or a FIFO nobody
// writes to must not exhaust memory or hang.
func readQuestionFile(path string) ([]byte, error) {
	const limit = maxQuestionFile
	data, _, err := fileread.Read(path, limit, fileread.PipeTimeout)
	switch {
	case err != nil:
		return nil, cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("read question file: %w", err))
	case len(data) > limit:
		return nil, cmdutil.WithCode(cmdutil.ExitInvalid, fmt.Errorf("question file %s passes %d MiB; a question set is a few KB of JSON: is this the right file?",
			ask.Display(path), limit>>20))
	}
	return data, nil
}

// describeInvalid words a validation error for a person: the file, then
// one problem per line.
func describeInvalid(name string, err error) error {
	var ve *ask.ValidationError
	if !errors.As(err, &ve) {
		return fmt.Errorf("%s: %w", name, err)
	}
	var b strings.Builder
	n := len(ve.Problems) + ve.Omitted
	fmt.Fprintf(&b, "%s: invalid %s input (%d problem", name, ask.ToolName, n)
	if n != 1 {
		b.WriteString("s")
	}
	b.WriteString("):")
	for _, p := range ve.Problems {
		b.WriteString("\n  " + p.String())
	}
	if more := ve.More(); more != "" {
		b.WriteString("\n  " + more)
	}
	return fmt.Errorf("%s%w", b.String(), errorMark{ve})
}

// errorMark keeps the wrapped error for errors.As without adding text.
type errorMark struct{ err error }

func (m errorMark) Error() string { return "" }
func (m errorMark) Unwrap() error { return m.err }
