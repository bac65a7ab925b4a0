package hostrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// Recover brings up to date a host session whose holder died while its
// agent ran (askuser killed, the machine restarted): nothing recorded that
// the agent stopped, so where it stopped is read from the host's own
// files, as Start would have, once the agent has ended. An agent that
// still runs past agentEndWait (its host lock is held) is an error
// wrapping ErrAgentRuns. A
// continue cut short is left to Continue, which reads whether the call ran
// (Claude Code) or the prompt was taken (the others), so nothing runs
// twice. The caller holds the session. An agent that still runs (its
// askuser was killed; without it, it soon ends its turn) is waited for,
// up to agentEndWait, saying so on say once.
func Recover(ctx context.Context, st *session.Store, sess *session.Session, env []string, say io.Writer) error {
	rec := sess.Host
	if rec == nil {
		return fmt.Errorf("session %s is not a session of an agent askuser runs", sess.Meta.ID)
	}
	switch rec.State {
	case session.HostRunning, session.HostSuspending, session.HostContinuing:
	default:
		return nil
	}
	lock, err := waitHostLock(ctx, st.Dir, string(sess.Meta.ID), say)
	if errors.Is(err, errAgentRuns) {
		return fmt.Errorf("session %s: %w (started by an askuser that has ended) after %s; wait for it to end, then resume again",
			sess.Meta.ID, err, agentEndWait)
	}
	if err != nil {
		return err
	}
	defer lock.release()
	if rec.State == session.HostContinuing {
		if c, _, _ := sess.HostPending(); c == nil {
			// The call had its answer and the agent went on; the record of
			// how it ended was cut short.
			return errors.Join(sess.SetHost(session.HostRecord{State: session.HostContinued, Call: rec.Call}),
				sess.SetStatus(string(agentloop.StatusSuccess), "", 0, agentloop.Usage{}))
		}
		return nil
	}
	s, h, err := hostSession(sess)
	if err != nil {
		return err
	}
	run := &agenthost.Run{Kind: s.Host, Bin: s.Bin, Dir: s.Dir, Args: s.Args, Env: env, SessionID: rec.ID, Started: rec.Started}
	if run.SessionID == "" {
		run.SessionID = s.ID
	}
	stop, serr := h.Stopped(ctx, run, nil)
	holder := &Holder{Store: st, Sess: sess}
	if c, r, _ := sess.HostPending(); c != nil && r != nil {
		holder.waiting = &waitingCall{id: c.ID}
	}
	out := stopped(ctx, st, holder, h, stop, serr, ran{}, env)
	return out.Err
}

// agentEndWait bounds how long a resume waits for the agent of a session
// whose askuser ended while it ran.
var agentEndWait = 2 * time.Minute

// waitHostLock takes session id's host lock, waiting while the agent that
// holds it runs, up to agentEndWait or ctx's end (then errAgentRuns).
func waitHostLock(ctx context.Context, dir, id string, say io.Writer) (*hostLock, error) {
	lock, err := takeHostLock(dir, id)
	if !errors.Is(err, errAgentRuns) {
		return lock, err
	}
	if say != nil {
		fmt.Fprintf(say, "askuser: the agent of session %s still runs (started by an askuser that has ended); waiting up to %s for it to end\n", id, agentEndWait)
	}
	deadline := time.NewTimer(agentEndWait)
	defer deadline.Stop()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, errAgentRuns
		case <-deadline.C:
			return nil, errAgentRuns
		case <-tick.C:
		}
		if lock, err = takeHostLock(dir, id); !errors.Is(err, errAgentRuns) {
			return lock, err
		}
	}
}
