package inbox

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// maxLogAnswerChars bounds the answers one line of serve's log quotes.
const maxLogAnswerChars = 200

// eventLog is askuser serve's log on its standard error: one line per
// answer a person gives on the page, and per resume started and ended,
// each naming the session by its short id and title. Every word a model
// or a tool wrote is made safe to show (ask.Display); the token is in no
// line, since none quotes a URL.
type eventLog struct {
	mu     sync.Mutex
	w      io.Writer // nil: no log
	now    func() time.Time
	titles map[string]string // session id → title, as last seen
}

func newEventLog(w io.Writer) *eventLog {
	return &eventLog{w: w, now: time.Now, titles: map[string]string{}}
}

// say writes one line about session id.
func (l *eventLog) say(id, msg string) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	prefix := id // its first 8 characters, as askuser sessions shows most ids
	if len(prefix) > 8 {
		prefix = prefix[:8]
	}
	name := ""
	if t := l.titles[id]; t != "" {
		name = fmt.Sprintf(" %q", t)
	}
	l.writeLocked("session "+prefix+name, msg)
}

// sayAsked writes one line about a set asked outside a session, by who
// ("askuser hook").
func (l *eventLog) sayAsked(who, msg string) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writeLocked(ask.Display(who), msg)
}

func (l *eventLog) writeLocked(subject, msg string) {
	fmt.Fprintf(l.w, "askuser: %s %s: %s\n", l.now().Format("15:04:05"), subject, ask.Display(msg))
}

// answered logs a person's answer to set, given on the page for session
// sum.
func (l *eventLog) answered(sum session.Summary, set session.Waiting, answers []ask.Answer) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	l.titles[sum.ID] = ask.Display(sum.Title)
	l.mu.Unlock()
	var parts []string
	what := "answered "
	if set.Kind == ask.KindApproval {
		what = "answered the approval of " + ask.Display(set.Tool) + ": "
	}
	for _, a := range answers {
		if set.Kind == ask.KindApproval {
			parts = append(parts, page.AnswerSummary(a))
		} else {
			parts = append(parts, ask.Display(a.Header)+": "+page.AnswerSummary(a))
		}
	}
	l.say(sum.ID, "a person on the page "+short(what+strings.Join(parts, "; "), maxLogAnswerChars))
}
