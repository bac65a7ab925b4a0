package runflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/session"
)

// notifyTimeout bounds one --notify-cmd run.
const notifyTimeout = 30 * time.Second

// notifier runs --notify-cmd in the background whenever a question starts
// waiting. Its failures are reported on stderr and never block the run.
type notifier struct {
	cmd       string
	sessionID string
	// url is the web page that answers, token included ("": none).
	url string
	// stateDir is where askuser serve leaves its address (inboxLink).
	stateDir string
	errOut   io.Writer
	wg       sync.WaitGroup
}

// notify runs the command with the question line (package wire) on stdin,
// the same line a JSON-lines reader gets, its text made safe to show: a
// notification is read by a person. What is not part of the question line
// is in the environment: ASKUSER_SESSION_ID, ASKUSER_QUESTION_ID,
// ASKUSER_WAITING (why it waits), ASKUSER_RESUME_COMMAND, ASKUSER_URL when
// a web page answers (--frontend web), and ASKUSER_INBOX_URL, the
// session's page in askuser serve, when it serves this state directory:
// without the token, since a notification usually goes through a third
// party's servers (a push service, a chat webhook).
func (n *notifier) notify(req ask.Request, waiting string) {
	if n == nil || n.cmd == "" {
		return
	}
	payload := wire.Encode(wire.NewQuestion(displayRequest(req), n.sessionID))
	resume := "askuser resume " + n.sessionID
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
		defer cancel()
		// "--": a command that begins with "-" is still the command,
		// not options of sh.
		cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "--", n.cmd)
		cmd.Stdin = bytes.NewReader(payload)
		cmd.Env = append(os.Environ(), "ASKUSER_SESSION_ID="+n.sessionID, "ASKUSER_QUESTION_ID="+req.ID,
			"ASKUSER_WAITING="+waiting, "ASKUSER_RESUME_COMMAND="+resume)
		if n.url != "" {
			cmd.Env = append(cmd.Env, "ASKUSER_URL="+n.url)
		}
		if n.sessionID != "" {
			if u := channelwire.InboxLink(n.stateDir, "s/"+n.sessionID); u != "" {
				cmd.Env = append(cmd.Env, "ASKUSER_INBOX_URL="+u)
			}
		}
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
			fmt.Fprintf(n.errOut, "askuser: --notify-cmd failed (%v)%s; %s still waits\n", err, detail, theSet(req))
		}
	}()
}

// displayRequest is req with its model-written text made safe to show.
func displayRequest(req ask.Request) ask.Request {
	out := req
	out.Questions = make([]ask.Question, len(req.Questions))
	for i, q := range req.Questions {
		q.Question, q.Header = ask.DisplayBlock(q.Question), ask.Display(q.Header)
		opts := make([]ask.Option, len(q.Options))
		for j, o := range q.Options {
			opts[j] = ask.Option{Label: ask.Display(o.Label), Description: ask.Display(o.Description)}
		}
		q.Options = opts
		out.Questions[i] = q
	}
	out.Agent, out.Tool = ask.Display(req.Agent), ask.Display(req.Tool)
	return out
}

// setWords names one set for a person, an approval by its tool: "a
// question", "an approval of mcp__fs__write_file".
func setWords(req ask.Request) string {
	return session.WaitingWhat([]session.Waiting{{Kind: req.Kind, Tool: req.Tool}}, session.QuestionSets)
}

// theSet is setWords with "the": "the approval of mcp__fs__write_file".
func theSet(req ask.Request) string {
	_, rest, _ := strings.Cut(setWords(req), " ")
	return "the " + rest
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
		w.notify.notify(req, setWords(req)+" is waiting for an answer")
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
