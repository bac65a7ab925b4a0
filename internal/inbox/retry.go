package inbox

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/askuser/askuser/internal/session"
)

// A resume that ends without taking the answer given on the page (the
// provider failed, the process was killed) is tried again, as askuser
// serve's relay tries again for an answer given in a chat: at most
// maxResumes resumes for one answer, the n-th retry n² bases after the
// last ended (10 s, then 40 s). After the last the page says what went
// wrong is in the Progress box, and how the answer is taken once it is
// fixed: askuser resume at a terminal, or askuser serve started again.

// Bounds of the retries, the relay's own.
const (
	maxResumes       = 3
	defaultRetryBase = 10 * time.Second
)

// resumeArgs is how the inbox's resumes ask what comes next: through the
// inbox, registered for askuser serve to show and send.
var resumeArgs = []string{"--frontend", "inbox", "--relay-defer"}

// afterResume is told that a resume of session id ended, with none
// queued: when the session still waits on an answer given on the page,
// another resume is started later, unless maxResumes have been.
func (in *Inbox) afterResume(id session.ID) {
	run := in.runs.state(string(id))
	if run == nil || run.tries >= maxResumes || !in.pageAnswerWaits(id) {
		return
	}
	wait := time.Duration(run.tries*run.tries) * in.retryBase
	in.runs.setRetry(id, time.Now().Add(wait))
	time.AfterFunc(wait, func() {
		select {
		case <-in.stop:
			return
		default:
		}
		if in.IsResuming(string(id)) || !in.pageAnswerWaits(id) {
			in.runs.setRetry(id, time.Time{}) // taken meanwhile, or being
			return
		}
		in.runs.start(id, filepath.Join(in.store.SideDir(id), logName),
			fmt.Sprintf("another try: the last resume did not take the answer given on the page (attempt %d of %d)", run.tries+1, maxResumes), resumeArgs)
	})
}

// pageAnswerWaits reports whether session id, held by no process, waits
// on a set whose answer was given on the page and waits in its mailbox.
func (in *Inbox) pageAnswerWaits(id session.ID) bool {
	if in.store.InUse(string(id)) {
		return false
	}
	sess, err := in.store.Load(string(id))
	if err != nil {
		return false
	}
	return in.pageAnswered(string(id), sess.Waiting())
}

// pageAnswered reports whether one of sets, of session id, has an answer
// given on the page waiting in its mailbox.
func (in *Inbox) pageAnswered(id string, sets []session.Waiting) bool {
	for _, w := range sets {
		if d, ok := in.answers.Get(id, w); ok && d.By == ByPage {
			return true
		}
	}
	return false
}
