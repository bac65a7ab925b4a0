package hostrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// ErrNothingWaits: the host session has no call waiting for an answer.
var ErrNothingWaits = errors.New("no call of the agent waits for an answer")

// Continue continues the host session sess, which the caller holds, with
// the answers to the call that waits: those recorded already (given
// elsewhere and taken, or declined by askuser cancel), else asked now with
// ask (an error wrapping ask.ErrDeferred leaves it waiting). It brings the
// host's transcript here when a team store keeps one, records that the
// continue begins, runs the host's continue (Claude Code: the same call,
// answered by the hook; the others: the continuation prompt), and records
// what it came to. A session whose holder died is first brought up to
// date (Recover). extra are host flags for this continue only.
func Continue(ctx context.Context, st *session.Store, sess *session.Session, a Agent, extra []string, ask Asker, serve Serve) Outcome {
	out := Outcome{Session: sess.Meta.ID}
	if err := Recover(ctx, st, sess, a.agentEnv(), a.Stderr); err != nil {
		out.Err = err
		return out
	}
	call, req, answers := sess.HostPending()
	if call == nil || req == nil {
		out.Err = fmt.Errorf("session %s: %w (%s)", sess.Meta.ID, ErrNothingWaits, sess.Summary().Status)
		return out
	}
	for _, q := range req.Questions {
		out.Headers = append(out.Headers, q.Header)
	}
	if answers == nil {
		var err error
		if answers, err = askPending(ctx, sess, *req, ask); err != nil {
			out.Err, out.Waiting = err, errors.Is(err, errDeferred)
			return out
		}
	}
	s, h, err := hostSession(sess)
	if err != nil {
		out.Err = err
		return out
	}
	env := a.agentEnv()
	if err := bringTranscript(ctx, st, sess, h, s, env); err != nil {
		out.Err = err
		return out
	}
	return continueWith(ctx, st, sess, h, s, a, extra, answers, *req, ask, serve)
}

// errDeferred is ask.ErrDeferred, named where ask is a parameter.
var errDeferred = ask.ErrDeferred

// askPending asks the set that waits, as first asked (its mailbox key),
// and records the answers.
func askPending(ctx context.Context, sess *session.Session, req ask.Request, asker Asker) ([]ask.Answer, error) {
	answers, err := asker(ask.WithAskedAt(ctx, sess.State.AskedAt[req.ID]), req)
	if err != nil {
		return nil, err
	}
	if err := sess.HostReplied(req.ID, answers); err != nil {
		return nil, fmt.Errorf("record the answers in session %s: %w", sess.Meta.ID, err)
	}
	crashAt(stepAnswered)
	return answers, nil
}

// hostSession is what the session keeps of the host's session, and its
// host.
func hostSession(sess *session.Session) (agenthost.Session, agenthost.Host, error) {
	var s agenthost.Session
	if sess.Host == nil || len(sess.Host.Session) == 0 {
		return s, nil, fmt.Errorf("session %s records no session of its agent to continue", sess.Meta.ID)
	}
	if err := json.Unmarshal(sess.Host.Session, &s); err != nil {
		return s, nil, fmt.Errorf("session %s: read its agent's session: %w", sess.Meta.ID, err)
	}
	h, err := agenthost.For(s.Host)
	return s, h, err
}

// bringTranscript puts the host's transcript kept in the team store where
// the host looks for it on this machine (a copy already here is kept when
// it is as new), and checks the session's folder is here.
func bringTranscript(ctx context.Context, st *session.Store, sess *session.Session, h agenthost.Host, s agenthost.Session, env []string) error {
	if fi, err := os.Stat(s.Dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("session %s continues in %s on %s, and this machine has no such folder: run askuser resume %s there (or where the project is checked out at that path)",
			sess.Meta.ID, s.Dir, orMachine(sess.Meta.Machine), sess.Meta.ID)
	}
	data, ok, err := st.HostTranscript(sess.Meta.ID)
	if err != nil || !ok {
		return err
	}
	t, err := unpackTranscript(data, 4*session.MaxHostTranscriptBytes)
	if err != nil {
		return err
	}
	return h.Import(ctx, s, t, env)
}

func orMachine(m string) string {
	if m == "" {
		return "the machine it ran on"
	}
	return m
}

// continueWith records the continue, runs it and records its outcome.
func continueWith(ctx context.Context, st *session.Store, sess *session.Session, h agenthost.Host, s agenthost.Session, a Agent,
	extra []string, answers []ask.Answer, req ask.Request, asker Asker, serve Serve) Outcome {
	env := a.agentEnv()
	out := Outcome{Session: sess.Meta.ID}
	in := ask.Input{Questions: req.Questions}
	callID := sess.Host.Call
	if c, _, _ := sess.HostPending(); c != nil {
		callID = c.ID
	}
	prompt := ""
	if h.Kind() != agenthost.Claude {
		prompt = agenthost.Prompt(in, answers)
		if sess.Host.State == session.HostContinuing && sess.Host.Prompt == prompt {
			if took, err := agenthost.PromptTaken(ctx, h, s, prompt, env); err == nil && took {
				// A continue cut short had sent it: never twice.
				return finish(ctx, st, sess, h, s, callID, ran{}, agenthost.Outcome{State: agenthost.Done, Session: s}, &Holder{Sess: sess}, env)
			}
		}
	}
	if err := sess.SetHost(session.HostRecord{State: session.HostContinuing, Call: callID, Prompt: prompt}); err != nil {
		out.Err = err
		return out
	}
	crashAt(stepContinuing)
	holder := &Holder{Store: st, Sess: sess, Ask: asker, Log: a.Stderr, Continues: true}
	a.Dir, a.Kind = s.Dir, h.Kind()
	var contErr error
	r, err := runAgent(ctx, st, holder, a, serve, func(w agenthost.Wiring) (*exec.Cmd, error) {
		cmd, err := h.Continue(ctx, s, agenthost.Continuation{Answers: answers, Question: &in, Env: env, Extra: extra}, w)
		contErr = err
		return cmd, err
	})
	switch {
	case errors.Is(contErr, agenthost.ErrAlreadyRan):
		// The call has its result: it is not run again.
		return finish(ctx, st, sess, h, s, callID, ran{}, agenthost.Outcome{State: agenthost.Done, Session: s}, holder, env)
	case err != nil:
		lost := errors.Is(err, agenthost.ErrCallLost)
		_ = sess.SetHost(session.HostRecord{State: session.HostFailed, Call: callID, Lost: lost, Detail: err.Error()})
		_ = sess.SetStatus(string(agentloop.StatusError), err.Error(), 0, agentloop.Usage{})
		out.Err = err
		return out
	}
	o := h.Outcome(s, env, agenthost.Result{ExitCode: r.exit, Stdout: r.stdout.Bytes(), Stderr: r.stderr.Bytes()})
	return finish(ctx, st, sess, h, s, callID, r, o, holder, env)
}

// finish records what a continue came to.
func finish(ctx context.Context, st *session.Store, sess *session.Session, h agenthost.Host, s agenthost.Session, callID string,
	r ran, o agenthost.Outcome, holder *Holder, env []string) Outcome {
	out := Outcome{Session: sess.Meta.ID, ExitCode: r.exit, Signaled: r.signaled, Final: agenthost.FinalText(h.Kind(), r.stdout.Bytes())}
	switch o.State {
	case agenthost.Failed:
		lost := errors.Is(o.Err, agenthost.ErrCallLost)
		_ = sess.SetHost(session.HostRecord{State: session.HostFailed, Call: callID, Lost: lost, Detail: o.Err.Error()})
		_ = sess.SetStatus(string(agentloop.StatusError), o.Err.Error(), 0, agentloop.Usage{})
		out.Err = o.Err
		keepTranscript(ctx, st, sess, h, s, env)
		return out
	case agenthost.Waiting:
		if o.Session.Pending != nil && o.Session.Pending.ID == callID {
			out.Waiting = true
			_ = sess.SetHost(session.HostRecord{State: session.HostWaiting, Call: callID, Session: mustJSON(o.Session)})
			_ = sess.SetStatus(string(agentloop.StatusWaiting), "waiting for an answer", 0, agentloop.Usage{})
			keepTranscript(ctx, st, sess, h, s, env)
			return out
		}
	}
	// The call has its answer: settled, unless a later call settled it.
	if c, _, _ := sess.HostPending(); c != nil && c.ID == callID {
		_ = sess.HostSettled(callID, "continued with the answer", false)
	}
	_ = sess.SetHost(session.HostRecord{State: session.HostContinued, Call: callID})
	if out.Final != "" && holder.Waiting() == "" && o.Session.Pending == nil {
		_ = sess.HostMessage(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: out.Final}}})
	}
	next := stopped(ctx, st, holder, h, o.Session, nil, r, env)
	next.Final = out.Final
	return next
}
