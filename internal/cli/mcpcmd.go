package cli

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/mcp"
)

func mcpCommand(e *env) *cli.Command {
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
		Flags:  bridgeFlags(mcpAsking, true),
		Action: func(c *cli.Context) error { return runMCP(c, e) },
	}
}

func runMCP(c *cli.Context, e *env) error {
	if c.NArg() > 0 {
		return usageErrorf("mcp takes no arguments; configure it with flags, e.g. askuser mcp --answers ci.yaml")
	}
	asker, rules, err := newBridgeAsker(c.Context, c, e)
	if err != nil {
		return err
	}
	defer asker.close()
	// An explicit --ask-timeout bounds every call; otherwise a call the
	// host cannot be heard from is bounded by the server.
	unwatched := mcp.DefaultUnwatched
	if c.IsSet("ask-timeout") {
		unwatched = 0
	}
	srv := mcp.NewServer(mcp.ServeConfig{
		Version: version(), Ask: asker.Ask, Approvals: rules, Name: c.String("name"),
		Unwatched: unwatched, Log: e.ios.ErrOut, Verbose: c.Bool("verbose"), Instant: asker.instant(),
	})
	return srv.Run(c.Context, io.NopCloser(e.ios.In), nopWriteCloser{e.ios.Out})
}

// nopWriteCloser keeps the server from closing standard output.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
