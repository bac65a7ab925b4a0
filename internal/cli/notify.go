package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// notifyTimeout bounds one --notify-cmd run.
const notifyTimeout = 30 * time.Second

// notifier runs --notify-cmd in the background whenever a question starts
// waiting. Its failures are reported on stderr and never block the run.
type notifier struct {
	cmd       string
	sessionID string
	errOut    io.Writer
	wg        sync.WaitGroup
}

// notification is the JSON a --notify-cmd receives on stdin.
type notification struct {
	Type          string         `json:"type"`
	SessionID     string         `json:"session_id"`
	ID            string         `json:"id"`
	Questions     []ask.Question `json:"questions"`
	Waiting       string         `json:"waiting"`
	ResumeCommand string         `json:"resume_command"`
}

func (n *notifier) notify(req ask.Request, waiting string) {
	if n == nil || n.cmd == "" {
		return
	}
	payload, _ := json.Marshal(notification{Type: "question", SessionID: n.sessionID, ID: req.ID, Questions: req.Questions,
		Waiting: waiting, ResumeCommand: "askuser resume " + n.sessionID})
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", n.cmd)
		cmd.Stdin = bytes.NewReader(append(payload, '\n'))
		cmd.Env = append(os.Environ(), "ASKUSER_SESSION_ID="+n.sessionID, "ASKUSER_QUESTION_ID="+req.ID)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("did not finish within %s", notifyTimeout)
			}
			detail := strings.TrimSpace(stderr.String())
			if i := strings.IndexByte(detail, '\n'); i >= 0 {
				detail = detail[:i]
			}
			if detail != "" {
				detail = ": " + ask.Display(detail)
			}
			fmt.Fprintf(n.errOut, "askuser: --notify-cmd failed (%v)%s; the question still waits\n", err, detail)
		}
	}()
}

// wait gives running notifications up to grace to finish, so a run that
// stops to wait still gets its notification out.
func (n *notifier) wait(grace time.Duration) {
	if n == nil {
		return
	}
	done := make(chan struct{})
	go func() { n.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(grace):
		fmt.Fprintf(n.errOut, "askuser: --notify-cmd still running after %s; not waiting for it\n", grace)
	}
}

// watched wraps a frontend to ring the terminal bell and run --notify-cmd
// when a question starts waiting for someone.
type watched struct {
	inner ask.Frontend
	// waitsForSomeone: the inner frontend waits for a person or a program
	// (terminal, JSON lines), rather than answering at once.
	waitsForSomeone bool
	notify          *notifier
	// bell, when set, is the terminal to ring; bellAfter is how long the
	// agent must have worked since the last answer for the bell to ring.
	bell      io.Writer
	bellAfter time.Duration
	mu        sync.Mutex
	lastInput time.Time
}

func (w *watched) Concurrent() bool {
	c, ok := w.inner.(ask.Concurrent)
	return ok && c.Concurrent()
}

func (w *watched) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if w.waitsForSomeone {
		w.ring()
		w.notify.notify(req, "a question is waiting for an answer")
	}
	answers, err := w.inner.Ask(ctx, req)
	w.mu.Lock()
	w.lastInput = time.Now()
	w.mu.Unlock()
	if errors.Is(err, ask.ErrDeferred) && !w.waitsForSomeone {
		w.notify.notify(req, "the run stopped to wait; answer with askuser resume")
	}
	return answers, err
}

func (w *watched) ring() {
	if w.bell == nil {
		return
	}
	w.mu.Lock()
	worked := time.Since(w.lastInput)
	w.mu.Unlock()
	if worked >= w.bellAfter {
		w.bell.Write([]byte("\a"))
	}
}

// deferred is the frontend of a run that has no way to ask: every question
// is kept for askuser resume.
type deferred struct{ reason string }

func (d deferred) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	return nil, fmt.Errorf("%w: %s", ask.ErrDeferred, d.reason)
}
