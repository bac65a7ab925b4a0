package hostflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/hook"
	"github.com/askuser/askuser/internal/hostrun"
)

// The agent's askuser hook and askuser mcp, run while askuser run --agent
// (or a resume) holds the session: hostrun.EnvSocket names its socket,
// and they hand over.

// HookChild hands a hook event to the askuser at socket and returns its
// decision. When that askuser was killed (its socket is left behind and
// refuses), before or after it took the event, a PreToolUse call is
// deferred: it waits, the session or the host's transcript holds it, and
// askuser resume continues it; it is never let through. When no askuser
// was ever there (a stale variable: the socket is gone), the call is
// blocked, saying so.
func HookChild(ctx context.Context, socket string, input []byte) hook.Reply {
	r, ok, err := hostrun.ProxyHook(ctx, socket, input)
	if ok {
		return hook.Reply{Stdout: r.Stdout, Stderr: r.Stderr, Exit: r.Exit}
	}
	call, perr := agenthost.ParseHookCall(input)
	killed := !errors.Is(err, hostrun.ErrUnreachable) || errors.Is(err, syscall.ECONNREFUSED)
	if perr != nil || !killed {
		return hook.Reply{Exit: 2, Stderr: fmt.Sprintf("askuser hook: %v (%s names askuser's socket for the agent it runs; unset it to run askuser hook on its own); the call is blocked", err, hostrun.EnvSocket)}
	}
	d := hook.Defer(fmt.Sprintf("the askuser that runs this agent went away (%v); the call waits for askuser resume", err))
	d.Stderr = fmt.Sprintf("askuser hook: %v; call %s of session %s waits: askuser resume continues it", err, call.ToolUseID, call.SessionID)
	return d
}

// MCPChild carries the agent's MCP session to the askuser at socket.
func MCPChild(ctx context.Context, socket string, in io.Reader, out io.Writer) error {
	return hostrun.ProxyMCP(ctx, socket, in, out)
}
