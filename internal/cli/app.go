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

// Version is set at build time with
// -ldflags "-X github.com/askuser/askuser/internal/cli.Version=v1.2.3".
// Left empty, the version Go recorded in the build is used (the module
// version under go install), and "dev" only when there is none.
var Version = ""

// version is askuser's version, from the build.
func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

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
		Name:            "askuser",
		Usage:           "let an AI agent stop, ask its human a structured question, and carry on",
		Version:         version(),
		Reader:          e.ios.In,
		Writer:          e.ios.Out,
		ErrWriter:       e.ios.ErrOut,
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --mcp-config takes inline JSON and --allowedTools rules such as
		// Bash(npm run test, lint): a comma is not a separator (rules are
		// split by approval.ParseRules, which knows parentheses).
		DisableSliceFlagSeparator: true,
		// urfave/cli adds --help only when it adds its own help command;
		// ours replaces that command (an unknown topic is a usage error).
		Flags:                []cli.Flag{cli.HelpFlag},
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
			demoCommand(e),
			demoFilesCmd(e),
			completionCommand(),
			helpCommand(),
			completeCmd(e),
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
	// Every help page then ends with examples a person can copy.
	exits := ExitCodesHelp()
	app.CustomAppHelpTemplate = cli.AppHelpTemplate + "\n" + exits + examplesHelp("")
	setupCommands(app.Commands, "", exits)
	return app
}

// setupCommands gives every command and subcommand the same usage-error
// wording, the exit-code table and examples in its help, and the duration
// checks. exits is ExitCodesHelp(), made once.
func setupCommands(cmds []*cli.Command, parent, exits string) {
	for _, cmd := range cmds {
		name := strings.TrimSpace(parent + " " + cmd.Name)
		cmd.OnUsageError = onUsageError
		cmd.CustomHelpTemplate = cli.CommandHelpTemplate + "\n" + exits + examplesHelp(name)
		cmd.Before = checkDurations
		setupCommands(cmd.Subcommands, name, exits)
	}
}

// helpCommand is "askuser help [COMMAND]".
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the commands, or one command's help",
		ArgsUsage: "[COMMAND]",
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return usageErrorf("help takes one command, got %d arguments", c.NArg())
			}
			name := c.Args().First()
			if name == "" {
				return cli.ShowAppHelp(c)
			}
			if cmd := c.App.Command(name); cmd == nil || cmd.Hidden {
				return usageErrorf("unknown command %q; run askuser help to see the commands", name)
			}
			// The app's context knows the commands; this one only its own.
			return cli.ShowCommandHelp(c.Lineage()[1], name)
		},
	}
}

// examples are the commands each help page ends with, by command name
// ("" is the app's own page): two or three that work as shown.
var examples = map[string][]string{
	"": {
		"askuser demo                                   # try it: an agent asks you two questions, no API key",
		"askuser run \"Add authentication to my app\"     # with ANTHROPIC_API_KEY or OPENAI_API_KEY set",
		"askuser help run",
	},
	"ask": {
		"askuser ask questions.json > result.txt        # asked at the terminal, the tool result in the file",
		"askuser ask --answers answers.yaml questions.json",
		"echo '{\"answers\":{\"Database\":\"PostgreSQL\"}}' | askuser ask questions.json",
	},
	"run": {
		"askuser run \"Add authentication to my app\"",
		"askuser run -p --answers ci/answers.yaml \"Add authentication\"",
		"askuser run --ask-timeout 10m --on-timeout auto \"Set up CI\"",
	},
	"resume": {
		"askuser resume                                 # the most recent session",
		"askuser resume 3f2a --answers answers.yaml     # a session by the start of its id",
		"askuser resume 3f2a --frontend auto            # take the recommended options",
	},
	"sessions": {
		"askuser sessions --waiting                     # what waits, in every directory",
		"askuser sessions --dir . --json",
		"askuser sessions prune --older-than 7d --finished",
	},
	"sessions rm": {
		"askuser sessions rm 3f2a9c1e",
	},
	"sessions prune": {
		"askuser sessions prune --older-than 7d --finished",
		"askuser sessions prune --older-than 30d --dry-run",
	},
	"cancel": {
		"askuser cancel 3f2a9c1e --reason \"no longer needed\"",
		"askuser cancel 3f2a9c1e",
	},
	"serve": {
		"askuser serve                                  # the inbox of waiting questions, on 127.0.0.1",
		"askuser serve --listen 0.0.0.0:8080            # reachable from a phone; the token is still needed",
	},
	"mcp": {
		"claude mcp add --scope user askuser -- askuser mcp",
		"askuser mcp --answers ci/answers.yaml          # as an MCP server for CI",
	},
	"hook": {
		"askuser hook < event.json                      # one Claude Code hook event",
		"askuser hook --answers ci/answers.yaml --timeout 5m",
	},
	"schema": {
		"askuser schema",
		"askuser schema > askuserquestion.schema.json",
	},
	"demo": {
		"askuser demo",
		"askuser demo --plain                           # numbered lines, no escape sequences",
		"askuser demo --frontend auto                   # the recommended options, no prompt",
	},
	"completion": {
		"source <(askuser completion bash)              # add this line to ~/.bashrc to keep it",
		"askuser completion zsh > \"${fpath[1]}/_askuser\"",
		"askuser completion fish > ~/.config/fish/completions/askuser.fish",
	},
	"help": {
		"askuser help",
		"askuser help run",
	},
}

// examplesHelp is the EXAMPLES section of a help page.
func examplesHelp(cmd string) string {
	ex := examples[cmd]
	if len(ex) == 0 {
		return ""
	}
	return "\nEXAMPLES:\n   " + strings.Join(ex, "\n   ") + "\n"
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	if msg, ok := durationUsage(c, err); ok {
		return usageErrorf("%s", msg)
	}
	return usageErrorf("%v; run %s --help for usage", err, c.Command.HelpName)
}

// SignalContext returns a context cancelled by the first SIGINT, SIGTERM
// or SIGHUP: a terminal that hangs up ends every command as SIGTERM does
// (a run records how it stopped, a hook prints its deny), rather than
// killing it with nothing said. SIGHUP is left alone when it is ignored
// (nohup askuser serve): catching it would undo that. A second signal is
// not caught, so it stops the process at once. stop releases the signal
// handler.
func SignalContext() (context.Context, func()) {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return signalContext(context.Background(), sigs...)
}

// signalContext is ctx, also cancelled by the first of sigs, with a cause
// naming it. A second signal is not caught.
func signalContext(ctx context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(sigs...)
			cancel(errors.New("interrupted by " + signalName(sig)))
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// signalName is a signal's conventional name, as people write it.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}
