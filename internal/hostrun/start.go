package hostrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

// errAgentRuns: the agent of a host session still runs (its host lock is
// held), so where it stopped cannot be read yet.
var errAgentRuns = errors.New("the agent of this session still runs")

// ErrAgentRuns is errAgentRuns, for callers.
var ErrAgentRuns = errAgentRuns

// Agent is an agent program and how askuser wires itself in.
type Agent struct {
	Kind agenthost.Kind
	// Bin is the program (a name on PATH or a path); "" is Kind's own.
	Bin string
	// Dir is the folder it runs in.
	Dir string
	// Env is its environment; nil is askuser's own.
	Env []string
	// Askuser is the askuser binary the agent runs as its hook or MCP
	// server.
	Askuser string
	// Matcher is Claude Code's PreToolUse matcher.
	Matcher string
	// Timeout bounds one askuser call as the host counts it.
	Timeout time.Duration
	// Stdin, Stdout and Stderr are the agent's; its standard output is
	// the caller's to pass on unchanged.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// Serve builds the handlers of the agent's askuser hook and askuser mcp
// over a Holder (the command line's wiring: internal/hook and internal/mcp
// are its to put together).
type Serve func(h *Holder) Handlers

// Outcome is how a run or a continue of a host session ended.
type Outcome struct {
	Session session.ID
	// Waiting: a call waits for a late answer; the session is recorded.
	Waiting bool
	// Headers are the headers of the questions that wait.
	Headers []string
	// ExitCode is the agent's; Signaled says a signal ended it.
	ExitCode int
	Signaled bool
	// Final is what the agent said last, when its output says.
	Final string
	// Err says why the run or the continue failed.
	Err error
}

// wiring is how one run of the agent reaches its holder.
func (a Agent) wiring(socket, scratch string) agenthost.Wiring {
	return agenthost.Wiring{Askuser: a.Askuser, Env: []string{EnvSocket + "=" + socket}, Matcher: a.Matcher,
		Timeout: a.Timeout, Scratch: scratch}
}

// scratch is the state directory's folder of host runs (0700).
func scratch(st *session.Store) (string, error) {
	dir := filepath.Join(st.Dir, "hosts")
	return dir, os.MkdirAll(dir, 0o700)
}

// Start runs the agent with args (what follows the program's name) as the
// host session sess, which the caller created and holds: it records that
// the agent runs, serves its askuser hook or mcp, waits for it to end, and
// records where it stopped (Stopped): a call waiting for a late answer, or
// the run finished or failed. It never returns before the agent ended.
func Start(ctx context.Context, st *session.Store, sess *session.Session, a Agent, args []string, ask Asker, serve Serve) Outcome {
	h := agenthost.Host(nil)
	out := Outcome{Session: sess.Meta.ID}
	host, err := agenthost.For(a.Kind)
	if err != nil {
		out.Err = err
		return out
	}
	h = host
	holder := &Holder{Store: st, Sess: sess, Ask: ask, Log: a.Stderr, Continues: true}
	run := &agenthost.Run{Kind: a.Kind, Bin: a.Bin, Dir: a.Dir, Args: args, Env: a.agentEnv()}
	res, err := runAgent(ctx, st, holder, a, serve, func(w agenthost.Wiring) (*exec.Cmd, error) {
		cmd, err := h.Start(run, w)
		if err == nil {
			err = sess.SetHost(session.HostRecord{State: session.HostRunning, ID: run.SessionID,
				Session: mustJSON(agenthost.Session{Host: a.Kind, ID: run.SessionID, Dir: a.Dir, Bin: a.Bin, Args: args}),
				Started: run.Started})
		}
		return cmd, err
	})
	if err != nil {
		out.Err = err
		_ = sess.SetHost(session.HostRecord{State: session.HostFailed, Detail: err.Error()})
		_ = sess.SetStatus(string(agentloop.StatusError), err.Error(), 0, agentloop.Usage{})
		return out
	}
	s, serr := h.Stopped(ctx, run, nil)
	return stopped(ctx, st, holder, h, s, serr, res, a.agentEnv())
}

// agentEnv is the agent's environment with the holder's socket named, so
// the person's own askuser hook or mcp, if the agent runs one, hands over
// to this run too.
func (a Agent) agentEnv() []string {
	env := a.Env
	if env == nil {
		env = os.Environ()
	}
	return env
}

// ran is how the agent's process ended, and the end of what it printed.
type ran struct {
	exit           int
	signaled       bool
	stdout, stderr *tailBuffer
}

// runAgent serves the holder on a socket of its own, starts the command
// made by start with the wiring that reaches it, holding the host lock,
// and waits for it to end.
func runAgent(ctx context.Context, st *session.Store, holder *Holder, a Agent, serve Serve, start func(agenthost.Wiring) (*exec.Cmd, error)) (ran, error) {
	lock, err := takeHostLock(st.Dir, string(holder.Sess.Meta.ID))
	if err != nil {
		return ran{}, fmt.Errorf("session %s: %w", holder.Sess.Meta.ID, err)
	}
	defer lock.release()
	l, err := listen(context.WithoutCancel(ctx), serve(holder))
	if err != nil {
		return ran{}, err
	}
	defer l.close()
	dir, err := scratch(st)
	if err != nil {
		return ran{}, err
	}
	cmd, err := start(a.wiring(l.path, dir))
	if err != nil {
		return ran{}, err
	}
	cmd.Env = append(cmd.Env, EnvSocket+"="+l.path)
	if cmd.Stdin == nil {
		cmd.Stdin = a.Stdin
	}
	r := ran{stdout: &tailBuffer{max: tailMax}, stderr: &tailBuffer{max: tailMax}}
	cmd.Stdout, cmd.Stderr = teeTo(a.Stdout, r.stdout), teeTo(a.Stderr, r.stderr)
	if f := lock.file(); f != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	}
	detachSignals(cmd)
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return r, fmt.Errorf("cannot find %s's program %q on PATH: install it (npm install -g %s) or put the folder that holds it on PATH",
				a.Kind, cmd.Path, agenthost.NpmPackage(a.Kind))
		}
		return r, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	if holder.Sess.Host != nil && holder.Sess.Host.State == session.HostContinuing {
		crashAt(stepStarted)
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			interrupt(cmd)
		case <-done:
		}
	}()
	err = cmd.Wait()
	close(done)
	crashAt(stepExited)
	r.exit, r.signaled = cmd.ProcessState.ExitCode(), signaled(cmd.ProcessState)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return r, err
	}
	return r, nil
}

// stopped records where the agent stopped: the call that waits (Claude
// Code's deferred call; for the others, the call askuser told to wait),
// or that the run ended without one.
func stopped(ctx context.Context, st *session.Store, holder *Holder, h agenthost.Host, s agenthost.Session, serr error, r ran, env []string) Outcome {
	sess := holder.Sess
	out := Outcome{Session: sess.Meta.ID, ExitCode: r.exit, Signaled: r.signaled, Final: agenthost.FinalText(h.Kind(), r.stdout.Bytes())}
	waiting := holder.Waiting()
	if h.Kind() == agenthost.Claude && serr == nil {
		waiting = ""
		if s.Pending != nil {
			waiting = s.Pending.ID
		}
	}
	if serr != nil && waiting == "" {
		out.Err = serr
	}
	if waiting != "" {
		if err := reconcile(sess, waiting, s); err != nil {
			out.Err = err
			return out
		}
		if c, r, _ := sess.HostPending(); c != nil && r != nil {
			s.Pending = &agenthost.Call{ID: c.ID, Name: c.Name, Input: c.Input}
			for _, q := range r.Questions {
				out.Headers = append(out.Headers, q.Header)
			}
		}
		out.Waiting = true
		rec := session.HostRecord{State: session.HostWaiting, ID: s.ID, Session: mustJSON(s), Call: waiting}
		if err := errors.Join(sess.SetHost(rec), sess.SetStatus(string(agentloop.StatusWaiting), "waiting for an answer", 0, agentloop.Usage{})); err != nil {
			out.Err = err
		}
		keepTranscript(ctx, st, sess, h, s, env)
		return out
	}
	state, status, detail := session.HostFinished, agentloop.StatusSuccess, ""
	switch {
	case out.Err != nil:
		state, status, detail = session.HostFailed, agentloop.StatusError, out.Err.Error()
	case r.signaled:
		state, status, detail = session.HostFailed, agentloop.StatusCancelled, fmt.Sprintf("%s was stopped by a signal", h.Kind())
	case r.exit != 0:
		state, status, detail = session.HostFailed, agentloop.StatusError, fmt.Sprintf("%s exited %d", h.Kind(), r.exit)
	}
	rec := session.HostRecord{State: state, ID: s.ID, Detail: detail}
	if s.ID != "" {
		rec.Session = mustJSON(s)
	}
	_ = sess.SetHost(rec)
	_ = sess.SetStatus(string(status), detail, 0, agentloop.Usage{})
	if dir, err := scratch(st); err == nil {
		_ = agenthost.Release(s, dir, env) // nothing waits on the run's scratch any more
	}
	return out
}

// reconcile makes sure the journal holds the call that waits: a call the
// host deferred while askuser could not record it (askuser killed, the
// person's own hook) is recorded now, its set rebuilt from its input.
func reconcile(sess *session.Session, id string, s agenthost.Session) error {
	if c, _, _ := sess.HostPending(); c != nil && c.ID == id {
		return nil
	}
	if s.Pending == nil || s.Pending.ID != id {
		return fmt.Errorf("session %s: call %s waits, but neither the journal nor the host's transcript holds it", sess.Meta.ID, id)
	}
	req, err := requestOf(*s.Pending)
	if err != nil {
		return err
	}
	return sess.HostCall(agentloop.Block{ID: s.Pending.ID, Name: s.Pending.Name, Input: s.Pending.Input}, req, time.Now())
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// headersOf joins headers for a message.
func headersOf(hs []string) string { return strings.Join(hs, ", ") }

// Check refuses, before anything runs or is recorded, what would make a
// run of kind with args impossible to continue, or keep a secret: what
// names the command for the message.
func Check(kind agenthost.Kind, args []string, what string) error {
	h, err := agenthost.For(kind)
	if err != nil {
		return err
	}
	if err := h.Check(args); err != nil {
		return err
	}
	return agenthost.CheckSecrets(args, what)
}
