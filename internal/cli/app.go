// Package cli is askuser's command line: the urfave/cli application, the
// wiring of frontends and providers, and the one mapping from errors to
// exit codes. main.go only calls Run.
//
// Invariants: a flag that takes one of a few values carries them
// (choiceFlag), so its parser, its help and its completion offer the same
// list, and a command offers nothing it refuses; help is askuser's own
// printer (help.go), wrapped to the terminal at word boundaries, and lists
// only the exit codes its command can return (commandExits), which the
// end-to-end scripts check against the binary.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/session"
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
	// stores are the command's session stores, by state directory and
	// team store (sessionStore), closed when it ends.
	stores map[string]*session.Store
}

// Run runs askuser with args and returns the process exit code. No os.Exit
// happens outside main.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{ios: iostreams.New(stdin, stdout, stderr), getenv: os.Getenv}
	defer e.closeStores()
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
		msg := shortenLongPaths(err)
		if !strings.HasSuffix(msg, "\n") {
			msg += "\n"
		}
		fmt.Fprint(e.ios.ErrOut, "askuser: "+msg)
	}
	return exitCode(err)
}

// shortenLongPaths is err's message with every path the system refused as
// too long (ENAMETOOLONG) quoted by ask.Excerpt: such a path is a value a
// person passed (--state-dir, --script, a question file), of any length,
// and the messages that wrap the system's error may name it again.
func shortenLongPaths(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.ENAMETOOLONG) && utf8.RuneCountInString(pe.Path) > ask.ExcerptChars {
		msg = strings.ReplaceAll(msg, pe.Path, ask.Excerpt(pe.Path))
	}
	return msg
}

func newApp(e *env) *cli.App {
	app := &cli.App{
		Name:            "askuser",
		Usage:           "let an AI agent stop, ask its human a structured question, and carry on",
		Version:         version(),
		Reader:          e.ios.In,
		Writer:          &helpOut{Writer: e.ios.Out, width: helpWidth(e.ios)},
		ErrWriter:       e.ios.ErrOut,
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		// --mcp-config takes inline JSON and --allowedTools rules such as
		// Bash(npm run test, lint): a comma is not a separator (rules are
		// split by approval.ParseRules, which knows parentheses).
		DisableSliceFlagSeparator: true,
		// urfave/cli adds --help only when it adds its own help command;
		// ours replaces that command (an unknown topic is a usage error).
		// Its version flag is --version and -v; -v is --verbose in every
		// command that has one, so the version is --version alone, as gh
		// has it.
		HideVersion:          true,
		Flags:                []cli.Flag{cli.HelpFlag, &cli.BoolFlag{Name: "version", Usage: "print the version"}},
		EnableBashCompletion: false,
		OnUsageError:         onUsageError,
		Commands: []*cli.Command{
			askCommand(e),
			runCommand(e),
			resumeCommand(e),
			sessionsCommand(e),
			cancelCommand(e),
			serveCommand(e),
			channelsCommand(e),
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
			if c.Bool("version") {
				_, err := fmt.Fprintf(c.App.Writer, "askuser version %s\n", c.App.Version)
				return err
			}
			if c.NArg() > 0 {
				return unknownCommand(c.App.Commands, c.Args().First(), "askuser --help")
			}
			return cli.ShowAppHelp(c)
		},
	}
	setupCommands(app.Commands)
	return app
}

// setupCommands gives every command and subcommand the same usage-error
// wording and the duration checks. (Help pages, with their exit codes and
// examples, are printHelp's.)
func setupCommands(cmds []*cli.Command) {
	for _, cmd := range cmds {
		cmd.OnUsageError = onUsageError
		cmd.Before = checkDurations
		setupCommands(cmd.Subcommands)
	}
}

// helpCommand is "askuser help [COMMAND]".
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:      "help",
		Usage:     "show the commands, or one command's help (or a subcommand's)",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Action: func(c *cli.Context) error {
			words := c.Args().Slice()
			if len(words) == 0 {
				return cli.ShowAppHelp(c)
			}
			if err := checkHelpTopic(c.App, words); err != nil {
				return err
			}
			if len(words) == 1 {
				// The app's context knows the commands; this one only its own.
				return cli.ShowCommandHelp(c.Lineage()[1], words[0])
			}
			// A subcommand's page names it after its parent, which only
			// running the parent sets up: run the command line the page
			// describes, as "askuser sessions rm --help".
			return c.App.RunContext(c.Context, append(append([]string{c.App.Name}, words...), "--help"))
		},
	}
}

// checkHelpTopic checks that words name a visible command and, after it,
// its subcommands ("sessions rm"), saying the nearest when one does not.
func checkHelpTopic(app *cli.App, words []string) error {
	cmd := app.Command(words[0])
	if cmd == nil || cmd.Hidden {
		return unknownCommand(app.Commands, words[0], "askuser help")
	}
	for i, w := range words[1:] {
		parent := strings.Join(words[:i+1], " ")
		topic := ask.Excerpt(strings.Join(words, " "))
		var subs []string
		for _, s := range cmd.Subcommands {
			if !s.Hidden {
				subs = append(subs, s.Name)
			}
		}
		if len(subs) == 0 {
			return usageErrorf("unknown command %s: askuser %s has no subcommands (run askuser help %s)", topic, parent, parent)
		}
		if cmd = cmd.Command(w); cmd == nil || cmd.Hidden {
			var near []string
			for _, n := range nearest(w, subs) {
				near = append(near, parent+" "+n)
			}
			if s := didYouMean(near); s != "" {
				return usageErrorf("unknown command %s; %s (run askuser help %s to see its subcommands)", topic, s, parent)
			}
			return usageErrorf("unknown command %s; run askuser help %s to see its subcommands", topic, parent)
		}
	}
	return nil
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
		"askuser serve --new-token                      # a new token: URLs and bookmarks from before stop working",
	},
	"channels": {
		"askuser channels                               # which chat channels are built in and set up",
		"askuser channels test slack                    # check Slack's settings, send a sample question",
	},
	"channels test": {
		"askuser channels test slack",
		"ASKUSER_TELEGRAM_CHAT=-1001234 askuser channels test telegram",
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
		"askuser help sessions rm",
	},
}

func onUsageError(c *cli.Context, err error, _ bool) error {
	if msg, ok := badValueUsage(c, err); ok {
		return usageErrorf("%s", msg)
	}
	if name, ok := undefinedFlag(err); ok {
		return unknownFlag(c.App, c.Command, name)
	}
	return usageErrorf("%s; run %s --help for usage", flagParseError(err), c.Command.HelpName)
}

// flagParseError is the flag parser's error with the value it quotes cut
// to ask.Excerpt: the parser quotes it whole.
func flagParseError(err error) string {
	if m := badFlagValue().FindStringSubmatch(err.Error()); m != nil {
		return fmt.Sprintf("invalid value %s for flag -%s: %s", ask.Excerpt(flagValue(m[1])), m[2], m[3])
	}
	return err.Error()
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
