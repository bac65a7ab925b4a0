package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
)

// NewApp is an urfave/cli application of askuser's commands cmds, as every
// one of them runs: on f's streams, with no os.Exit (main alone exits),
// every usage error worded alike (OnUsageError) and every duration flag
// checked (CheckDurations). internal/app adds help, the version and the
// command list to it; a command's test runs its command alone in one.
func NewApp(f *Factory, cmds ...*cli.Command) *cli.App {
	app := &cli.App{
		Name:            "askuser",
		Reader:          f.IOStreams.In,
		Writer:          f.IOStreams.Out,
		ErrWriter:       f.IOStreams.ErrOut,
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --mcp-config takes inline JSON and --allowedTools rules such as
		// Bash(npm run test, lint): a comma is not a separator (rules are
		// split by approval.ParseRules, which knows parentheses).
		DisableSliceFlagSeparator: true,
		HideVersion:               true,
		EnableBashCompletion:      false,
		OnUsageError:              OnUsageError,
		Commands:                  cmds,
	}
	Setup(app.Commands)
	return app
}

// Setup gives every command and subcommand of cmds the same usage-error
// wording and the duration checks. (Help pages, with their exit codes and
// examples, are internal/app's.)
func Setup(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = OnUsageError
		cmd.Before = CheckDurations
		Setup(cmd.Subcommands)
	}
}

// Execute runs the application build makes, with args, and returns the
// process exit code: the one place an error is said ("askuser: …" on
// standard error, unless it was said already: Quiet) and mapped to the
// table (ExitCode). A panic is said as an internal error, exit 1.
func Execute(ctx context.Context, f *Factory, build func(*Factory) *cli.App, args []string) (code int) {
	defer func() {
		// A bug must not exit 2 (Go's code for a panic), which the table
		// gives to usage errors: it is an unexpected failure.
		if r := recover(); r != nil {
			fmt.Fprintf(f.IOStreams.ErrOut, "askuser: internal error: %v\n%s", r, debug.Stack())
			code = ExitError
		}
	}()
	app := build(f)
	err := app.RunContext(ctx, Interspersed(app, args))
	var q Quiet
	if err != nil && !errors.As(err, &q) {
		msg := ShortenLongPaths(err)
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprint(f.IOStreams.ErrOut, "askuser: "+msg)
	}
	return ExitCode(err)
}

// ShortenLongPaths is err's message with every path the system refused as
// too long (ENAMETOOLONG) quoted by ask.Excerpt: such a path is a value a
// person passed (--state-dir, --script, a question file), of any length,
// and the messages that wrap the system's error may name it again.
func ShortenLongPaths(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.ENAMETOOLONG) && utf8.RuneCountInString(pe.Path) > ask.ExcerptChars {
		msg = strings.ReplaceAll(msg, pe.Path, ask.Excerpt(pe.Path))
	}
	return msg
}

// NopWriteCloser is standard output for a server that closes its output
// when it stops (askuser mcp, the demo's file server): standard output
// stays open.
type NopWriteCloser struct{ io.Writer }

// Close does nothing.
func (NopWriteCloser) Close() error { return nil }
