package hostflow

import (
	"context"
	"strings"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/hook"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/mcp"
	"github.com/askuser/askuser/internal/session"
)

// askuser hook and askuser mcp from the person's own configuration, with
// --on-timeout suspend (or an answers file's "unanswered: suspend") and no
// askuser run --agent above them: each call asks inside the askuser
// session of its host session (hostrun.Standalone).

// HookStandalone decides a PreToolUse event with sa: a call nobody
// answered in time waits in the askuser session of its Claude Code
// session, ready for askuser resume. ok is false for another event, which
// the caller decides as askuser hook always has.
func HookStandalone(ctx context.Context, input []byte, sa *hostrun.Standalone, rules *approval.Policy) (hook.Reply, bool) {
	call, err := agenthost.ParseHookCall(input)
	if err != nil {
		return hook.Reply{}, false
	}
	r := sa.Hook(ctx, call, func(hc hostrun.HookCall) hostrun.HookReply {
		return HookReply(ctx, input, hc, rules, LedgerDir(sa.Store.Dir))
	})
	return hook.Reply{Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}, true
}

// MCPStandalone is askuser mcp's asker with sa: each call asks inside the
// askuser session of the host's session when the call names it (Codex's
// thread), else of this server; dir is the server's folder (the
// project's, as the host starts it there).
func MCPStandalone(sa *hostrun.Standalone, dir string) mcp.Asker {
	var mu sync.Mutex // one question at a time; own is made once
	var own session.ID
	return func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		kind := ClientKind(mcp.ClientName(ctx))
		if kind == "" {
			kind = "mcp"
		}
		return sa.MCP(ctx, kind, mcp.ThreadID(ctx), dir, &own, req)
	}
}

// ClientKind is the host an MCP client's name says it is ("codex-mcp-
// client", "gemini-cli-mcp-client", "opencode", "claude-code"); "" when
// it says none of them.
func ClientKind(name string) agenthost.Kind {
	name = strings.ToLower(name)
	for _, k := range agenthost.Kinds {
		if strings.Contains(name, string(k)) {
			return k
		}
	}
	return ""
}
