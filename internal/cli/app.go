// Package cli is askuser's command line: the urfave/cli application, the
// wiring of frontends and providers, and the one mapping from errors to
// exit codes. main.go only calls Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/iostreams"
)

// Version is set at build time with -ldflags "-X ...cli.Version=...".
var Version = "dev"

// env holds what a command reads from its environment, so tests can
// replace it.
type env struct {
	ios    *iostreams.IOStreams
	getenv func(string) string
}

// Run runs askuser with args and returns the process exit code. No os.Exit
// happens outside main.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{ios: iostreams.New(stdin, stdout, stderr), getenv: os.Getenv}
	defer func() {
		// A bug must not exit 2 (Go's code for a panic), which the table
		// gives to usage errors: it is an unexpected failure.
		if r := recover(); r != nil {
			fmt.Fprintf(e.ios.ErrOut, "askuser: internal error: %v\n%s", r, debug.Stack())
			code = ExitError
		}
	}()
	app := newApp(e)
	err := app.RunContext(ctx, interspersed(app, args))
	var q quiet
	if err != nil && !errors.As(err, &q) {
		msg := err.Error()
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprint(e.ios.ErrOut, "askuser: "+msg)
	}
	return exitCode(err)
}

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:                 "askuser",
		Usage:                "let an AI agent stop, ask its human a structured question, and carry on",
		Version:              Version,
		Reader:               e.ios.In,
		Writer:               e.ios.Out,
		ErrWriter:            e.ios.ErrOut,
		ExitErrHandler:       func(*cli.Context, error) {},
		HideHelpCommand:      true,
		EnableBashCompletion: false,
		OnUsageError:         onUsageError,
		Commands: []*cli.Command{
			askCommand(e),
			runCommand(e),
			resumeCommand(e),
			sessionsCommand(e),
			cancelCommand(e),
			serveCommand(e),
			schemaCommand(e),
			mcpCommand(e),
			hookCommand(e),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageErrorf("unknown command %q; run askuser --help to see the commands", c.Args().First())
			}
			return cli.ShowAppHelp(c)
		},
	}
	// The exit-code table ends every help page. The app's and the
	// commands' own templates carry it: urfave/cli's package-level
	// templates are shared by every App, so appending there would grow
	// them with each Run.
	app.CustomAppHelpTemplate = cli.AppHelpTemplate + "\n" + ExitCodesHelp()
	setupCommands(app.Commands)
	return app
}

// setupCommands gives every command and subcommand the same usage-error
// wording, the exit-code table in its help, and the duration checks.
func setupCommands(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = onUsageError
		cmd.CustomHelpTemplate = cli.CommandHelpTemplate + "\n" + ExitCodesHelp()
		cmd.Before = checkDurations
		setupCommands(cmd.Subcommands)
	}
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	if msg, ok := durationUsage(c, err); ok {
		return usageErrorf("%s", msg)
	}
	return usageErrorf("%v; run %s --help for usage", err, c.Command.HelpName)
}

// SignalContext returns a context cancelled by the first SIGINT or SIGTERM.
// A second signal is not caught, so it stops the process at once. stop
// releases the signal handler.
func SignalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			name := "SIGTERM"
			if sig == os.Interrupt {
				name = "SIGINT"
			}
			cancel(errors.New("interrupted by " + name))
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}
