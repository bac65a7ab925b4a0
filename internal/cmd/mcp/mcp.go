// Package mcp is askuser mcp: an MCP server on standard input and output
// with two tools, AskUserQuestion and approve (Claude Code's permission
// prompt). The server is internal/mcp's; the asking is internal/bridge's,
// which picks a frontend for each question set.
//
// (The package shares its name with the server it runs,
// github.com/askuser/askuser/internal/mcp: here "mcp." is always that.)
package mcp

import (
	"context"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/bridge"
	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/hostflow"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/session"
)

// Options are askuser mcp's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context
	Bridge  bridge.Flags
	Args    []string
}

// NewCmdMCP is askuser mcp. runF, when not nil, is called with the options
// instead of serving (a test's).
func NewCmdMCP(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve AskUserQuestion to an MCP host (Claude Code, Codex, Gemini CLI) on stdin/stdout",
		ArgsUsage: " ",
		Description: `An MCP server on standard input and output, with two tools:
  AskUserQuestion  asks the questions and returns askuser's standard result text
  approve          Claude Code's permission prompt: --permission-prompt-tool mcp__askuser__approve
                   answers the built-in AskUserQuestion and approves or denies other tools
                   (rules from the answers file's approvals: section, else the person)

Standard input and output carry MCP, so a person is asked on the terminal (/dev/tty) the
host was started from; --answers FILE answers from a file (CI); --frontend elicit asks
through the host's own form; --frontend web serves each question as a card on a page
(the URL, with its token, on standard error). When nobody can answer, the result says so and names the
questions; nothing is guessed. A waiting call reports progress every minute.

  claude mcp add --scope user askuser -- askuser mcp`,
		Flags: bridge.FlagsFor(chooser.MCPAsking, true),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Bridge: bridge.ReadFlags(c), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return mcpRun(opts)
		},
	}
}

func mcpRun(opts *Options) error {
	ios := opts.Factory.IOStreams
	if len(opts.Args) > 0 {
		return cmdutil.UsageErrorf("mcp takes no arguments; configure it with flags, e.g. askuser mcp --answers ci.yaml")
	}
	if socket := opts.Factory.Getenv(hostrun.EnvSocket); socket != "" {
		// The agent askuser run --agent (or a resume) runs: that askuser
		// serves; this server carries the session to it.
		path, err := hostrun.SocketFrom(socket)
		if err != nil {
			return err
		}
		return hostflow.MCPChild(opts.Context, path, ios.In, ios.Out)
	}
	asker, rules, err := bridge.New(opts.Context, opts.Factory, opts.Bridge, "mcp")
	if err != nil {
		return err
	}
	defer asker.Close()
	askFn := asker.Ask
	if asker.Suspends() {
		// --on-timeout suspend: a question nobody answered in time waits
		// in an askuser session (of the host's session, when the call
		// names it), for askuser resume.
		st, err := opts.Factory.Store(opts.Bridge.Store)
		if err != nil {
			return err
		}
		dir, err := os.Getwd()
		if err != nil {
			return err
		}
		standalone := hostflow.MCPStandalone(&hostrun.Standalone{Store: st, Machine: opts.Factory.Machine(),
			AskIn: func(id session.ID) hostrun.Asker { return asker.AskIn(st, id) }}, dir)
		askFn = func(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error) {
			if req.Kind == ask.KindApproval {
				// Claude Code's permission prompt cannot wait for a late
				// answer: denied when the bound passes, nothing left waiting.
				return asker.AskNow(ctx, req, host)
			}
			return standalone(ctx, req, host)
		}
	}
	// An explicit --ask-timeout bounds every call; otherwise a call the
	// host cannot be heard from is bounded by the server.
	unwatched := mcp.DefaultUnwatched
	if opts.Bridge.AskTimeoutSet {
		unwatched = 0
	}
	srv := mcp.NewServer(mcp.ServeConfig{
		Version: build.Current(), Ask: askFn, Approvals: rules, Name: opts.Bridge.Name,
		Unwatched: unwatched, Log: ios.ErrOut, Verbose: opts.Bridge.Asking.Verbose, Instant: asker.Instant(),
	})
	return srv.Run(opts.Context, io.NopCloser(ios.In), cmdutil.NopWriteCloser{Writer: ios.Out})
}
