// Package app is askuser's command line put together: it assembles the
// commands (internal/cmd/...), each built with the one Factory of the
// process, adds help and the version, and runs them (Run). It holds no
// command's work: help renders every command's flags from the commands
// themselves (help.go, helpflags.go), as completion does, so what a page
// offers is what the command accepts. main.go only calls Main.
//
// Invariants: help is askuser's own printer, wrapped to the terminal at
// word boundaries, and lists only the exit codes its command can return
// (cmdutil.ExitsOf), which the end-to-end scripts check against the
// binary; the reference pages in docs/cli are rendered by the same
// printer (Reference, which scripts/gendocs writes). Nothing imports this
// package but main and the scripts that render the reference or measure
// start-up (internal/archtest holds that).
package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/build"
	askcmd "github.com/askuser/askuser/internal/cmd/ask"
	"github.com/askuser/askuser/internal/cmd/cancel"
	"github.com/askuser/askuser/internal/cmd/channels"
	"github.com/askuser/askuser/internal/cmd/completion"
	"github.com/askuser/askuser/internal/cmd/demo"
	hookcmd "github.com/askuser/askuser/internal/cmd/hook"
	mcpcmd "github.com/askuser/askuser/internal/cmd/mcp"
	"github.com/askuser/askuser/internal/cmd/resume"
	"github.com/askuser/askuser/internal/cmd/run"
	"github.com/askuser/askuser/internal/cmd/schema"
	"github.com/askuser/askuser/internal/cmd/serve"
	"github.com/askuser/askuser/internal/cmd/sessions"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// Main runs askuser as a process does: until its work ends or the first
// SIGINT, SIGTERM or SIGHUP (cmdutil.SignalContext). It returns the exit
// code; no os.Exit happens outside main.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := cmdutil.SignalContext()
	defer stop()
	return Run(ctx, args, stdin, stdout, stderr)
}

// Run runs askuser with args and returns the process exit code.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := cmdutil.NewFactory(iostreams.New(stdin, stdout, stderr), os.Getenv)
	defer f.Close()
	return cmdutil.Execute(ctx, f, New, args)
}

// New is the askuser application, its commands built with f.
func New(f *cmdutil.Factory) *cli.App {
	app := cmdutil.NewApp(f,
		askcmd.NewCmdAsk(f, nil),
		run.NewCmdRun(f, nil),
		resume.NewCmdResume(f, nil),
		sessions.NewCmdSessions(f, nil),
		cancel.NewCmdCancel(f, nil),
		serve.NewCmdServe(f, nil),
		channels.NewCmdChannels(f, nil),
		schema.NewCmdSchema(f, nil),
		mcpcmd.NewCmdMCP(f, nil),
		hookcmd.NewCmdHook(f, nil),
		demo.NewCmdDemo(f, nil),
		demo.NewCmdFiles(f, nil),
		completion.NewCmdCompletion(f, nil),
		helpCommand(),
		completion.NewCmdComplete(f, nil),
	)
	app.Usage = "let an AI agent stop, ask its human a structured question, and carry on"
	app.Version = build.Current()
	app.Writer = &helpOut{Writer: f.IOStreams.Out, width: helpWidth(f.IOStreams)}
	// urfave/cli adds --help only when it adds its own help command;
	// ours replaces that command (an unknown topic is a usage error).
	// Its version flag is --version and -v; -v is --verbose in every
	// command that has one, so the version is --version alone, as gh
	// has it.
	app.Flags = []cli.Flag{cli.HelpFlag, &cli.BoolFlag{Name: "version", Usage: "print the version"}}
	app.Action = func(c *cli.Context) error {
		if c.Bool("version") {
			_, err := fmt.Fprintf(c.App.Writer, "askuser version %s\n", c.App.Version)
			return err
		}
		if c.NArg() > 0 {
			return cmdutil.UnknownCommand(c.App.Commands, c.Args().First(), "askuser --help")
		}
		return cli.ShowAppHelp(c)
	}
	return app
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
		return cmdutil.UnknownCommand(app.Commands, words[0], "askuser help")
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
			return cmdutil.UsageErrorf("unknown command %s: askuser %s has no subcommands (run askuser help %s)", topic, parent, parent)
		}
		if cmd = cmd.Command(w); cmd == nil || cmd.Hidden {
			var near []string
			for _, n := range cmdutil.Nearest(w, subs) {
				near = append(near, parent+" "+n)
			}
			if s := cmdutil.DidYouMean(near); s != "" {
				return cmdutil.UsageErrorf("unknown command %s; %s (run askuser help %s to see its subcommands)", topic, s, parent)
			}
			return cmdutil.UsageErrorf("unknown command %s; run askuser help %s to see its subcommands", topic, parent)
		}
	}
	return nil
}
