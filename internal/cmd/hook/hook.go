// Package hook is askuser hook: it answers one Claude Code hook event
// read on standard input (PreToolUse, PermissionRequest, Elicitation) and
// prints Claude Code's decision. The decision is internal/hook's; the
// asking is internal/bridge's, which picks a frontend for each set.
//
// It never fails open: any failure prints a denial (or a decline) and
// exits 0, or exits 2, the code Claude Code treats as blocking; never 1,
// which would let the call run.
//
// (The package shares its name with the decisions it prints,
// github.com/askuser/askuser/internal/hook: here "hook." is always that.)
package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/bridge"
	"github.com/askuser/askuser/internal/chooser"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/hook"
	"github.com/askuser/askuser/internal/hostflow"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/session"
)

// defaultHookTimeout is a little under Claude Code's own default hook
// timeout (10 minutes), so askuser answers before Claude Code kills it.
const defaultHookTimeout = 9*time.Minute + 30*time.Second

// maxHookInput bounds what is read from standard input.
const maxHookInput = 16 << 20

// Options are askuser hook's flags and arguments.
type Options struct {
	Factory *cmdutil.Factory
	Context context.Context
	Bridge  bridge.Flags
	// Timeout is --timeout: the hook answers within it.
	Timeout time.Duration
	Args    []string
}

// NewCmdHook is askuser hook. runF, when not nil, is called with the
// options instead of answering (a test's).
func NewCmdHook(f *cmdutil.Factory, runF func(*Options) error) *cli.Command {
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
		Flags: append(bridge.FlagsFor(chooser.HookAsking, false),
			&cli.DurationFlag{Name: "timeout", Category: cmdutil.CatTimeouts, Value: defaultHookTimeout, Usage: "answer within `DURATION`, whatever happens; keep it below the hook's timeout in settings.json"},
		),
		Action: func(c *cli.Context) error {
			opts := &Options{Factory: f, Context: c.Context, Bridge: bridge.ReadFlags(c), Timeout: c.Duration("timeout"), Args: c.Args().Slice()}
			if runF != nil {
				return runF(opts)
			}
			return hookRun(opts)
		},
	}
}

func hookRun(opts *Options) (err error) {
	defer func() {
		// A panic would exit 1 (Execute's internal error), and Claude Code
		// runs the tool when a hook exits 1: block instead.
		if r := recover(); r != nil {
			err = cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook failed, so the call is blocked: %v", r))
		}
	}()
	ios := opts.Factory.IOStreams
	if len(opts.Args) > 0 {
		return cmdutil.UsageErrorf("hook takes no arguments; it reads the event on standard input")
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		return cmdutil.UsageErrorf("--timeout must be positive, e.g. --timeout 55s")
	}
	// A hook always answers: SIGQUIT (Ctrl+\) too ends it with a
	// decision, where Go would die with a stack dump and print none.
	// (SIGINT, SIGTERM and SIGHUP end every command: cmdutil.SignalContext.)
	sctx, stop := cmdutil.NotifyContext(opts.Context, syscall.SIGQUIT)
	defer stop()
	ctx, cancel := context.WithTimeoutCause(sctx, timeout, fmt.Errorf("the hook's --timeout of %s passed", timeout))
	defer cancel()
	if socket := opts.Factory.Getenv(hostrun.EnvSocket); socket != "" {
		// The agent askuser run --agent (or a resume) runs: that askuser
		// decides; this hook hands the event over.
		return handOver(ctx, ios, socket)
	}
	asker, rules, err := bridge.New(ctx, opts.Factory, opts.Bridge, "hook")
	if err != nil && (ctx.Err() != nil || cmdutil.ExitCode(err) != cmdutil.ExitUsage) {
		// Never fail open: an answers file whose reading a signal cut
		// short, or a team store not reached within --timeout, blocks the
		// call as a bad flag does (exit 2); any other code lets it run.
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: %w; the call is blocked", err))
	}
	if err != nil {
		return err
	}
	defer asker.Close()
	// A host that never closes standard input does not keep the hook
	// from answering within --timeout, or at a signal.
	input, err := cmdutil.UntilDone(ctx, func() ([]byte, error) { return io.ReadAll(io.LimitReader(ios.In, maxHookInput)) })
	if err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: read the event on standard input: %w; the call is blocked", err))
	}
	reply, ok := hook.Reply{}, false
	if asker.Suspends() {
		// --on-timeout suspend: a call nobody answered in time waits in the
		// askuser session of its Claude Code session (Claude Code defers it).
		if reply, ok, err = standalone(ctx, opts, asker, rules, input); err != nil {
			return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: %w; the call is blocked", err))
		}
	}
	if !ok {
		reply = hook.Run(ctx, input, hook.Config{
			Ask:       func(ctx context.Context, req ask.Request) ([]ask.Answer, error) { return asker.AskNow(ctx, req, nil) },
			Approvals: rules,
			SelfTool:  "mcp__" + opts.Bridge.Name + "__" + ask.ToolName,
		})
	}
	return printReply(ios, reply)
}

// standalone decides a PreToolUse event inside the askuser session of its
// Claude Code session (hostflow.HookStandalone); ok is false for another
// event.
func standalone(ctx context.Context, opts *Options, asker *bridge.Asker, rules *approval.Policy, input []byte) (hook.Reply, bool, error) {
	f := opts.Factory
	st, err := f.Store(opts.Bridge.Store)
	if err != nil {
		return hook.Reply{}, false, err
	}
	sa := &hostrun.Standalone{Store: st, Machine: f.Machine(),
		AskIn: func(id session.ID) hostrun.Asker { return asker.AskIn(st, id) }}
	reply, ok := hostflow.HookStandalone(ctx, input, sa, rules)
	return reply, ok, nil
}

// handOver gives the event on standard input to the askuser at socket
// (hostflow.HookChild) and prints its decision.
func handOver(ctx context.Context, ios *iostreams.IOStreams, socket string) error {
	input, err := cmdutil.UntilDone(ctx, func() ([]byte, error) { return io.ReadAll(io.LimitReader(ios.In, maxHookInput)) })
	if err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: read the event on standard input: %w; the call is blocked", err))
	}
	path, err := hostrun.SocketFrom(socket)
	if err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: %w; the call is blocked", err))
	}
	return printReply(ios, hostflow.HookChild(ctx, path, input))
}

// printReply prints a decision: its stdout, its stderr, and its exit.
func printReply(ios *iostreams.IOStreams, reply hook.Reply) error {
	if reply.Stderr != "" {
		fmt.Fprintln(ios.ErrOut, reply.Stderr)
	}
	if reply.Exit != 0 {
		return cmdutil.WithCode(cmdutil.ExitUsage, cmdutil.Quiet{Err: errors.New(reply.Stderr)})
	}
	if _, err := ios.Out.Write(reply.Stdout); err != nil {
		return cmdutil.WithCode(cmdutil.ExitUsage, fmt.Errorf("hook: write the decision: %w", err))
	}
	return nil
}
