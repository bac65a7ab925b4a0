package inbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// logName is the file in a session's side directory (session.Store.SideDir)
// where the inbox keeps what its resumes printed: sessions/<id>.d/serve.log.
const logName = "serve.log"

// resumer runs askuser resume in the background, one process per session
// at a time, to take the answers that reached a session's mailbox while no
// process held it: given on the page, or in a chat channel askuser serve
// holds. An answer that arrives while one runs is taken by the next, which
// starts when it ends. The journal stays the one record of what was
// answered; the resumer keeps what the page needs to show (the sets
// answered on it, how the last resume ended).
type resumer struct {
	cmd      func(id session.ID, args ...string) *exec.Cmd
	describe func(code int) string
	hub      *hub
	now      func() time.Time
	// note tells serve's log that a resume of session id started or
	// ended; it must not call the resumer.
	note func(id, msg string)
	// ended, if set, is told that a resume of session id ended and none
	// was queued, before the run is marked ended (not under mu): the inbox
	// then checks whether it took the answers given on the page, and
	// schedules another try. It must not start a resume itself.
	ended func(id session.ID)

	mu sync.Mutex
	// runs are keyed by the session's id as text, as pages name it.
	runs map[string]*sessionRun
}

// sessionRun is what the inbox did for one session.
type sessionRun struct {
	id   session.ID
	log  string    // path of serve.log
	sent []sentSet // every set answered on the page, oldest first
	// queued says another resume is to start when this one ends, for
	// nextWhy, with nextArgs.
	queued   bool
	nextWhy  string
	nextArgs []string
	running  bool
	started  time.Time
	// ended says how the last process ended, for the page.
	ended string
	// tries counts the resumes started since an answer was last given on
	// the page; retryAt is when the next is to start, after one that did
	// not take the answer (zero: none is to).
	tries   int
	retryAt time.Time
}

// sentSet is a set answered on the page.
type sentSet struct {
	req         ask.Request
	answers     []ask.Answer
	askedAt, at time.Time
}

func newResumer(cmd func(session.ID, ...string) *exec.Cmd, describe func(int) string, h *hub, note func(id, msg string)) *resumer {
	return &resumer{cmd: cmd, describe: describe, hub: h, now: time.Now, note: note, runs: map[string]*sessionRun{}}
}

// runLocked is session id's record, made if need be.
func (r *resumer) runLocked(id session.ID, logPath string) *sessionRun {
	run := r.runs[string(id)]
	if run == nil {
		run = &sessionRun{id: id, log: logPath}
		r.runs[string(id)] = run
	}
	return run
}

// noteSent records that req (asked at askedAt) of session id was answered
// on the page with answers.
func (r *resumer) noteSent(id session.ID, logPath string, req ask.Request, askedAt time.Time, answers []ask.Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.runLocked(id, logPath)
	run.sent = append(run.sent, sentSet{req: req, answers: answers, askedAt: askedAt, at: r.now()})
	run.tries = 0 // a new answer: the resumes that follow are its own tries
	r.hub.bump()
}

// start runs askuser resume for session id, for why (an answer given on
// the page, in a channel), with args; what it prints goes to logPath. One
// already running is followed by another when it ends.
func (r *resumer) start(id session.ID, logPath, why string, args []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.runLocked(id, logPath)
	if run.running {
		run.queued, run.nextWhy, run.nextArgs = true, why, args
		return
	}
	r.startLocked(run, why, args)
}

// startLocked starts askuser resume.
func (r *resumer) startLocked(run *sessionRun, why string, args []string) {
	id := string(run.id)
	run.queued, run.running, run.started, run.ended = false, true, r.now(), ""
	run.tries, run.retryAt = run.tries+1, time.Time{}
	logf, err := openLog(run.log)
	if err == nil {
		fmt.Fprintf(logf, "\n--- askuser serve, %s: resuming for %s\n", r.now().Format(time.DateTime), why)
		cmd := r.cmd(run.id, args...)
		cmd.Stdout, cmd.Stderr = logf, logf
		detach(cmd)
		if err = cmd.Start(); err == nil {
			r.note(id, "askuser resume started, for "+why)
			go r.wait(run, cmd, logf)
			r.hub.bump()
			return
		}
		fmt.Fprintf(logf, "--- askuser serve: could not start askuser resume: %v\n", err)
		logf.Close()
	}
	r.note(id, "could not start askuser resume: "+err.Error())
	run.running, run.ended = false, "could not start askuser resume: "+err.Error()
	r.hub.bump()
}

// wait records how a resume ended and starts the next one if answers
// arrived meanwhile.
func (r *resumer) wait(run *sessionRun, cmd *exec.Cmd, logf *os.File) {
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	how := r.describe(code)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		how = err.Error()
	}
	fmt.Fprintf(logf, "--- askuser serve, %s: askuser resume ended: %s\n", r.now().Format(time.DateTime), how)
	logf.Close()
	r.note(string(run.id), "askuser resume ended: "+how)
	r.mu.Lock()
	queued := run.queued
	r.mu.Unlock()
	if !queued && r.ended != nil {
		// What comes next (another try, and when) is decided before the
		// run is seen to end, so the page never shows an ended resume
		// without it. It may not start a resume itself (it schedules).
		r.ended(run.id)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	run.running, run.ended = false, how
	r.hub.bump()
	if run.queued { // queued before, or by an answer given meanwhile
		r.startLocked(run, run.nextWhy, run.nextArgs)
	}
}

// setRetry notes when the next resume of session id is to start (zero:
// none is to), for the page.
func (r *resumer) setRetry(id session.ID, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if run := r.runs[string(id)]; run != nil {
		run.retryAt = t
		r.hub.bump()
	}
}

// state returns a copy of what the inbox did for session id (nil: nothing).
func (r *resumer) state(id string) *sessionRun {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.runs[id]
	if run == nil {
		return nil
	}
	c := *run
	c.sent = append([]sentSet(nil), run.sent...)
	c.nextArgs = append([]string(nil), run.nextArgs...)
	return &c
}

// running lists the sessions with a resume under way.
func (r *resumer) running() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for id, run := range r.runs {
		if run.running {
			ids = append(ids, id)
		}
	}
	return ids
}

// openLog opens serve.log for appending, making the side directory if
// need be. A link planted as either, or a FIFO as the log, is refused
// (statefile): never written through, never waited on.
func openLog(path string) (*os.File, error) {
	if err := statefile.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	return statefile.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
}

// tail returns the last limit bytes of the log, from a line start ("" if
// it is not a regular file).
func tail(path string, limit int64) string {
	f, err := statefile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-limit, 0)
	buf := make([]byte, fi.Size()-off)
	n, _ := f.ReadAt(buf, off)
	buf = buf[:n]
	if off > 0 {
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return string(buf)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
