package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/hook"
)

// defaultHookTimeout is a little under Claude Code's own default hook
// timeout (10 minutes), so askuser answers before Claude Code kills it.
const defaultHookTimeout = 9*time.Minute + 30*time.Second

// maxHookInput bounds what is read from standard input.
const maxHookInput = 16 << 20

func hookCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "answer a Claude Code hook event read on stdin (PreToolUse, PermissionRequest, Elicitation)",
		ArgsUsage: " ",
		Description: `Reads one hook event (JSON) on standard input and prints Claude Code's decision:
  PreToolUse / PermissionRequest on AskUserQuestion   asks the questions, allows with the answers
                                                      (who answered, when not a person, goes in
                                                      additionalContext)
  PreToolUse / PermissionRequest on another tool      approves or denies: the answers file's
                                                      approvals: rules, else the person
  Elicitation                                         asks the MCP server's form, accepts with the
                                                      exact values its schema allows, else
                                                      declines or cancels

It never fails open: any failure prints a denial (or a decline) and exits 0, or exits 2 (the
code Claude Code treats as blocking) when the event itself cannot be read. It answers within
--timeout: keep that below the hook's "timeout" in settings.json (default 10 minutes), by more
than 5 seconds with a chat channel, whose widget it updates before it exits.
A person is asked on the terminal claude runs in (Claude Code gives hooks none of their own);
--answers FILE answers from a file (CI).`,
		Flags: append(bridgeFlags(hookAsking, false),
			&cli.DurationFlag{Name: "timeout", Category: catTimeouts, Value: defaultHookTimeout, Usage: "answer within `DURATION`, whatever happens; keep it below the hook's timeout in settings.json"},
		),
		Action: func(c *cli.Context) error { return runHook(c, e) },
	}
}

func runHook(c *cli.Context, e *env) (err error) {
	defer func() {
		// cli.Run would exit 1 on a panic, and Claude Code runs the tool
		// when a hook exits 1: block instead.
		if r := recover(); r != nil {
			err = withCode(ExitUsage, fmt.Errorf("hook failed, so the call is blocked: %v", r))
		}
	}()
	if c.NArg() > 0 {
		return usageErrorf("hook takes no arguments; it reads the event on standard input")
	}
	timeout := c.Duration("timeout")
	if timeout <= 0 {
		return usageErrorf("--timeout must be positive, e.g. --timeout 55s")
	}
	// A hook always answers: SIGQUIT (Ctrl+\) too ends it with a
	// decision, where Go would die with a stack dump and print none.
	// (SIGINT, SIGTERM and SIGHUP end every command: SignalContext.)
	sctx, stop := signalContext(c.Context, syscall.SIGQUIT)
	defer stop()
	ctx, cancel := context.WithTimeoutCause(sctx, timeout, fmt.Errorf("the hook's --timeout of %s passed", timeout))
	defer cancel()
	asker, rules, err := newBridgeAsker(ctx, c, e)
	if err != nil && (ctx.Err() != nil || exitCode(err) != ExitUsage) {
		// Never fail open: an answers file whose reading a signal cut
		// short, or a team store not reached within --timeout, blocks the
		// call as a bad flag does (exit 2); any other code lets it run.
		return withCode(ExitUsage, fmt.Errorf("hook: %w; the call is blocked", err))
	}
	if err != nil {
		return err
	}
	defer asker.close()
	// A host that never closes standard input does not keep the hook
	// from answering within --timeout, or at a signal.
	input, err := untilDone(ctx, func() ([]byte, error) { return io.ReadAll(io.LimitReader(e.ios.In, maxHookInput)) })
	if err != nil {
		return withCode(ExitUsage, fmt.Errorf("hook: read the event on standard input: %w; the call is blocked", err))
	}
	reply := hook.Run(ctx, input, hook.Config{
		Ask:       func(ctx context.Context, req ask.Request) ([]ask.Answer, error) { return asker.Ask(ctx, req, nil) },
		Approvals: rules,
		SelfTool:  "mcp__" + c.String("name") + "__" + ask.ToolName,
	})
	if reply.Stderr != "" {
		fmt.Fprintln(e.ios.ErrOut, reply.Stderr)
	}
	if reply.Exit != 0 {
		return withCode(ExitUsage, quiet{errors.New(reply.Stderr)})
	}
	if _, err := e.ios.Out.Write(reply.Stdout); err != nil {
		return withCode(ExitUsage, fmt.Errorf("hook: write the decision: %w", err))
	}
	return nil
}
