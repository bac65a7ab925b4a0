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

// resumer hands answers given on the page to askuser resume, one process
// per session at a time. Answers that arrive while one runs wait for it to
// end and go to the next, so every answer reaches the journal in order,
// and the journal stays the one record of what was answered: a set is
// marked as sent only while a process carrying its answer runs.
type resumer struct {
	cmd      func(id session.ID) *exec.Cmd
	describe func(code int) string
	hub      *hub
	now      func() time.Time
	// note tells serve's log that a resume of session id started or
	// ended; it must not call the resumer.
	note func(id, msg string)

	mu sync.Mutex
	// runs are keyed by the session's id as text, as pages name it.
	runs map[string]*sessionRun
}

// sessionRun is what the inbox did for one session.
type sessionRun struct {
	id      session.ID
	log     string          // path of serve.log
	queue   [][]byte        // answer lines for the next process
	sending map[string]bool // set ids whose answers are queued or being read
	sent    []sentSet       // every set answered here, oldest first
	running bool
	started time.Time
	// ended says how the last process ended, for the page.
	ended string
}

// sentSet is a set answered on the page.
type sentSet struct {
	req         ask.Request
	answers     []ask.Answer
	askedAt, at time.Time
}

func newResumer(cmd func(session.ID) *exec.Cmd, describe func(int) string, h *hub, note func(id, msg string)) *resumer {
	return &resumer{cmd: cmd, describe: describe, hub: h, now: time.Now, note: note, runs: map[string]*sessionRun{}}
}

// submit queues the answers to req (asked at askedAt) for session id and
// starts askuser resume unless one is running for it; what it prints goes
// to logPath. It returns ErrAlreadyAnswered when an answer to req is
// already on its way.
func (r *resumer) submit(id session.ID, logPath string, req ask.Request, askedAt time.Time, answers []ask.Answer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	run := r.runs[string(id)]
	if run == nil {
		run = &sessionRun{id: id, log: logPath, sending: map[string]bool{}}
		r.runs[string(id)] = run
	}
	if run.sending[req.ID] {
		return ErrAlreadyAnswered
	}
	run.sending[req.ID] = true
	run.queue = append(run.queue, answerLine(req, answers))
	run.sent = append(run.sent, sentSet{req: req, answers: answers, askedAt: askedAt, at: r.now()})
	if !run.running {
		r.startLocked(run)
	}
	r.hub.bump()
	return nil
}

// startLocked starts askuser resume for the queued answers.
func (r *resumer) startLocked(run *sessionRun) {
	lines := run.queue
	run.queue = nil
	run.running, run.started, run.ended = true, r.now(), ""
	carried := map[string]bool{}
	for id, on := range run.sending {
		carried[id] = on
	}
	logf, err := openLog(run.log)
	if err == nil {
		fmt.Fprintf(logf, "\n--- askuser serve, %s: resuming with %s given on the page by a person\n",
			r.now().Format(time.DateTime), plural(len(lines), "answer line"))
		cmd := r.cmd(run.id)
		cmd.Stdin = bytes.NewReader(bytes.Join(lines, nil))
		cmd.Stdout, cmd.Stderr = logf, logf
		detach(cmd)
		if err = cmd.Start(); err == nil {
			r.note(string(run.id), "askuser resume started, with "+plural(len(lines), "answer line"))
			go r.wait(run, cmd, logf, carried)
			return
		}
		fmt.Fprintf(logf, "--- askuser serve: could not start askuser resume: %v\n", err)
		logf.Close()
	}
	r.note(string(run.id), "could not start askuser resume: "+err.Error())
	r.endLocked(run, carried, "could not start askuser resume: "+err.Error())
}

// wait records how a resume ended and starts the next one if answers
// arrived meanwhile.
func (r *resumer) wait(run *sessionRun, cmd *exec.Cmd, logf *os.File, carried map[string]bool) {
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
	defer r.mu.Unlock()
	r.endLocked(run, carried, how)
	if len(run.queue) > 0 {
		r.startLocked(run)
	}
}

// endLocked marks a process over: the sets it carried are the journal's
// to report from now on (answered, or still pending if it failed first).
func (r *resumer) endLocked(run *sessionRun, carried map[string]bool, how string) {
	for id := range carried {
		delete(run.sending, id)
	}
	run.running, run.ended = false, how
	r.hub.bump()
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
	c.queue = nil
	c.sending = make(map[string]bool, len(run.sending))
	for k, v := range run.sending {
		c.sending[k] = v
	}
	c.sent = append([]sentSet(nil), run.sent...)
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
