// Package hostflow is the command line's wiring of the host runs
// (internal/hostrun): what askuser run --agent, askuser resume of a host
// session, askuser hook and askuser mcp put together from the rooms only
// the wiring may join: internal/hook decides the agent's Claude Code hook
// events, internal/mcp serves its MCP sessions, and a frontend the
// command chose asks, bounded by --ask-timeout.
package hostflow

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/hook"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/session"
)

// Config is how the holder of a host run decides the calls its agent
// hands over.
type Config struct {
	Store *session.Store
	// Rules are the approval rules: the answers file's, and Claude Code's
	// own --allowedTools, --disallowedTools and bypass flags.
	Rules *approval.Policy
	// Version is askuser's, for the MCP server's initialize.
	Version string
	// Timeout is --ask-timeout (0: none), so the MCP server's own bound on
	// a call without progress is left to it.
	Timeout time.Duration
	// Log receives the MCP server's lines (standard error).
	Log io.Writer
}

// LedgerDir is where askuser keeps the Claude Code calls its hooks
// deferred (agenthost.Ledger), in state directory dir.
func LedgerDir(dir string) string { return filepath.Join(dir, "hosts", "claude") }

// Serve is the holder's handlers: the Claude Code hook decided as askuser
// hook decides (with Suspend: a call nobody answered in time waits), and
// askuser mcp's server on the agent's MCP session.
func Serve(cfg Config) hostrun.Serve {
	return func(h *hostrun.Holder) hostrun.Handlers {
		return hostrun.Handlers{
			Hook: func(ctx context.Context, input []byte) hostrun.HookReply {
				call, err := agenthost.ParseHookCall(input)
				if err != nil {
					// Not a PreToolUse call: decided as askuser hook does,
					// with nothing to wait.
					r := hook.Run(ctx, input, hook.Config{Ask: approval.Asker(h.Ask), Approvals: cfg.Rules, SelfTool: selfTool})
					return hostrun.HookReply{Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}
				}
				return HookReply(ctx, input, h.ForHook(call), cfg.Rules, LedgerDir(cfg.Store.Dir))
			},
			MCP: func(ctx context.Context, rw io.ReadWriteCloser) error {
				unwatched := mcp.DefaultUnwatched
				if cfg.Timeout > 0 {
					unwatched = 0
				}
				srv := mcp.NewServer(mcp.ServeConfig{Version: cfg.Version, Name: "askuser", Approvals: cfg.Rules, Log: cfg.Log, Unwatched: unwatched,
					Ask: func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
						return h.AskMCP(ctx, req)
					}})
				return srv.Run(ctx, rw, rw)
			},
		}
	}
}

// selfTool is askuser's own MCP AskUserQuestion as a host names it.
const selfTool = "mcp__askuser__" + ask.ToolName

// HookReply decides one Claude Code PreToolUse call with hc, the rules
// and the ledger of ledgerDir: a call nobody answered in time waits.
func HookReply(ctx context.Context, input []byte, hc hostrun.HookCall, rules *approval.Policy, ledgerDir string) hostrun.HookReply {
	r := hook.Run(ctx, input, hook.Config{Ask: hc.Ask, Approvals: rules, SelfTool: selfTool, Suspend: &hook.Suspend{
		Ledger: agenthost.Ledger{Dir: ledgerDir}, Deferred: hc.Deferred, Settled: hc.Settled}})
	return hostrun.HookReply{Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}
}

// Asker asks with fe, bounded by timeout and policy (fallback answers for
// --on-timeout auto): a set nobody answered in time under suspend waits.
func Asker(fe, fallback ask.Frontend, timeout time.Duration, policy ask.Policy) hostrun.Asker {
	return func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		return ask.AskWithin(ctx, fe, req, timeout, policy, fallback)
	}
}

// Rules are the approval rules of a host run: the answers file's (nil:
// none), with a Claude Code run's own permission flags added.
func Rules(file *approval.Policy, kind agenthost.Kind, args []string) (*approval.Policy, error) {
	p := &approval.Policy{}
	if file != nil {
		*p = *file
	}
	if kind != agenthost.Claude {
		return p, nil
	}
	allow, deny, bypass := agenthost.ClaudePermissions(args)
	for _, list := range allow {
		rs, err := approval.ParseRules(list, "claude --allowedTools")
		if err != nil {
			return nil, fmt.Errorf("read the agent's arguments: %w", err)
		}
		p.Allow = append(p.Allow, rs...)
	}
	for _, list := range deny {
		rs, err := approval.ParseRules(list, "claude --disallowedTools")
		if err != nil {
			return nil, fmt.Errorf("read the agent's arguments: %w", err)
		}
		p.Deny = append(p.Deny, rs...)
	}
	if bypass {
		p.Mode = approval.ModeBypass
	}
	return p, nil
}
