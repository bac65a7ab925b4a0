package hostrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// Standalone keeps host sessions for askuser hook and askuser mcp run
// from the person's own configuration, with no askuser run --agent above
// them: with --on-timeout suspend, each call asks inside the askuser
// session of its host session (session.HostSessionID), held only while it
// asks, and a call nobody answered in time is recorded as waiting, ready
// for askuser resume. Claude Code's hook and Codex's MCP calls name their
// session; Gemini CLI's and OpenCode's do not, so their question waits in
// askuser but the agent cannot be continued automatically (the model is
// told so).
type Standalone struct {
	Store   *session.Store
	Machine string
	// AskIn is the asker of a set asked in session id (its mailbox and
	// the channels' keys name the session).
	AskIn func(id session.ID) Asker
}

// openHeld opens (or creates) session id, waiting while another askuser
// hook or mcp of the same host session holds it, until ctx ends.
func (sa *Standalone) openHeld(ctx context.Context, id session.ID, meta session.Meta) (*session.Session, error) {
	for {
		s, err := sa.Store.Open(string(id))
		if errors.Is(err, session.ErrNotFound) {
			meta.ID = id
			s, err = sa.Store.Create(meta)
			if errors.Is(err, session.ErrExists) {
				continue
			}
		}
		if !errors.Is(err, session.ErrInUse) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("session %s stays held by another process: %w", id, ask.CtxErr(ctx))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Hook decides one Claude Code PreToolUse call with decide, which is given
// what to ask and record with (hook.Run with hook.Suspend), inside the
// askuser session of the call's Claude Code session.
func (sa *Standalone) Hook(ctx context.Context, call agenthost.HookCall, decide func(HookCall) HookReply) HookReply {
	id := session.HostSessionID(string(agenthost.Claude), call.SessionID)
	sess, err := sa.openHeld(ctx, id, session.Meta{Host: string(agenthost.Claude), Cwd: call.Cwd, Machine: sa.Machine,
		FirstPrompt: "Claude Code session " + call.SessionID})
	if err != nil {
		return HookReply{Exit: 2, Stderr: "askuser hook: " + err.Error() + "; the call is blocked"}
	}
	defer sess.Close()
	if sess.Host == nil {
		_ = sess.SetHost(session.HostRecord{State: session.HostRunning, ID: call.SessionID,
			Session: mustJSON(agenthost.Session{Host: agenthost.Claude, ID: call.SessionID, Dir: call.Cwd})})
	}
	h := &Holder{Store: sa.Store, Sess: sess, Ask: sa.AskIn(id), Continues: true}
	hc := h.ForHook(call)
	hc.Deferred = func(c agenthost.HookCall) (string, error) {
		s := agenthost.Session{Host: agenthost.Claude, ID: c.SessionID, Dir: c.Cwd, Transcript: c.TranscriptPath,
			Pending: &agenthost.Call{ID: c.ToolUseID, Name: c.ToolName, Input: c.ToolInput}}
		err := errors.Join(sess.SetHost(session.HostRecord{State: session.HostWaiting, ID: c.SessionID, Session: mustJSON(s), Call: c.ToolUseID}),
			sess.SetStatus(string(agentloop.StatusWaiting), "waiting for an answer", 0, agentloop.Usage{}))
		if err != nil {
			return "", fmt.Errorf("record the waiting call in session %s: %w", id, err)
		}
		return "waiting for the person's answer: askuser resume " + string(id), nil
	}
	return decide(hc)
}

// MCP asks an AskUserQuestion call of askuser mcp (client is the host's
// kind, as its name says; thread its own session id, when the call's
// _meta names it) inside the askuser session of that host session, or of
// this server (one per process, made at its first call) when the host
// names none. A call nobody answered in time is recorded as waiting.
func (sa *Standalone) MCP(ctx context.Context, kind agenthost.Kind, thread, dir string, own *session.ID, req ask.Request) ([]ask.Answer, error) {
	id := *own
	continues := thread != "" && kind == agenthost.Codex
	if continues {
		id = session.HostSessionID(string(kind), thread)
	} else if id == "" {
		id = session.NewID()
		*own = id
	}
	sess, err := sa.openHeld(ctx, id, session.Meta{Host: string(kind), Cwd: dir, Machine: sa.Machine,
		FirstPrompt: string(kind) + " session " + thread})
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	if sess.Host == nil {
		rec := session.HostRecord{State: session.HostRunning}
		if continues {
			rec.ID, rec.Session = thread, mustJSON(agenthost.Session{Host: kind, ID: thread, Dir: dir, Args: []string{"exec"}})
		}
		_ = sess.SetHost(rec)
	}
	h := &Holder{Store: sa.Store, Sess: sess, Ask: sa.AskIn(id), Continues: continues}
	if c, r, _ := sess.HostPending(); c != nil && r != nil && c.ID != req.ID && sess.Host != nil &&
		(sess.Host.State == session.HostWaiting || sess.Host.State == session.HostSuspending) {
		h.waiting = &waitingCall{id: c.ID, headers: headersOfRequest(*r)} // only one question waits
	}
	answers, err := h.AskMCP(ctx, req)
	var waits *agenthost.Suspension
	if !errors.As(err, &waits) || waits.Busy {
		return answers, err
	}
	rec := session.HostRecord{State: session.HostWaiting, Call: req.ID}
	if continues {
		s := agenthost.Session{Host: kind, ID: thread, Dir: dir, Args: []string{"exec"}, Pending: &agenthost.Call{ID: req.ID, Name: ask.ToolName}}
		rec.ID, rec.Session = thread, mustJSON(s)
	}
	if rerr := errors.Join(sess.SetHost(rec), sess.SetStatus(string(agentloop.StatusWaiting), "waiting for an answer", 0, agentloop.Usage{})); rerr != nil {
		return nil, fmt.Errorf("record the waiting question in session %s: %w", id, rerr)
	}
	return nil, err
}
