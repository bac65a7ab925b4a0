package whatsapp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// Which set a typed reply answers. A tap names its set (its token); a
// typed reply names one only by the message it quotes. One that quotes
// nothing is never guessed onto a set: it answers the one set the person
// has been asked, when that set is no approval and its question was sent
// before the reply was written (the reply's own timestamp, WhatsApp's
// clock); otherwise the person is told why not, and how to answer.

// quoteHow says how a person replies to a message on WhatsApp.
const quoteHow = "swipe right on it, or touch and hold it and tap Reply"

// The words a person is told when a reply that quotes nothing is not
// taken.
const (
	approvalUnquoted = "An approval is answered only by a tap on its buttons, or by a reply to it (" + quoteHow +
		"): a message that quotes nothing is not taken for an approval."
	undated = "This message carries no time, so it is not taken for a question: reply to the question you answer (" + quoteHow + ")."
)

// shown is a waiting set the person has been sent, with its state.
type shown struct {
	set channel.Set
	st  state
}

// target finds the set a typed reply answers. refuse is what to tell the
// person when there is none.
func (c *Channel) target(ctx context.Context, h channel.Host, r reply) (key, refuse string, err error) {
	l, ok := h.(channel.Lister)
	if !ok {
		return "", noneWaiting, nil
	}
	pend, err := l.Waiting(ctx)
	if err != nil {
		return "", "", err
	}
	var sent []shown
	for _, p := range pend {
		// Read under the set's lock: the message quoted may be one
		// being sent (and saved) just now.
		st := c.settled(ctx, h, p.Set.Key)
		if st.Rev != p.Set.Rev || len(st.Msgs) == 0 {
			continue
		}
		if r.quotes != "" && st.asks(r.quotes) >= 0 {
			return p.Set.Key, "", nil
		}
		sent = append(sent, shown{set: p.Set, st: st})
	}
	switch {
	case r.quotes != "":
		return "", quotesNone, nil
	case len(sent) == 0:
		return "", noneWaiting, nil
	case len(sent) > 1:
		return "", several(sent), nil
	}
	s := sent[0]
	switch {
	case s.set.Request.Kind == ask.KindApproval:
		return "", approvalUnquoted, nil
	case r.at.IsZero():
		return "", undated, nil
	case writtenBefore(r.at, s.st.SentAt):
		return "", fmt.Sprintf("This was written before %s was sent, so it is not taken as its answer: send your answer again, "+
			"or reply to the question (%s).", asked(s), quoteHow), nil
	}
	return s.set.Key, "", nil
}

// writtenBefore reports whether a message stamped at (WhatsApp's
// timestamp: whole seconds) was certainly written before sent, when the
// sending of a question began: its whole second ended by then.
func writtenBefore(at, sent time.Time) bool {
	return !sent.IsZero() && !at.Add(time.Second).After(sent)
}

// several tells the person which sets wait, and how to answer one.
func several(sent []shown) string {
	var names []string
	for _, s := range sent {
		names = append(names, asked(s))
	}
	text := strconv.Itoa(len(sent)) + " questions wait for your answer: " + strings.Join(names, "; ") +
		". To answer one, reply to it (" + quoteHow + ") and send your answer there."
	return channel.Cut(text, maxBody)
}

// asked names the question set s asks now, as its message shows it:
// "*Database* (Set up the project)".
func asked(s shown) string {
	qs := s.set.Request.Questions
	q := qs[min(s.st.Q, len(qs)-1)]
	name := "*" + channel.Cut(ask.Display(q.Header), 40) + "*"
	if t := ask.Display(s.set.Title); t != "" {
		name += " (" + channel.Cut(t, 60) + ")"
	}
	return name
}

// stamped reads a message's timestamp (Unix seconds, as text); zero when
// it has none that reads.
func stamped(ts string) time.Time {
	n, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}
	}
	return time.Unix(n, 0)
}
