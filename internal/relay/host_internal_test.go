package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

type namedOnly struct {
	channel.Channel
	name string
}

func (n namedOnly) Name() string { return n.name }

// hostRig is a host for a channel named "chat" that delivers what it is
// given as is, and a set registered for it; alice may answer.
func hostRig(t *testing.T) (*session.Store, *host, string, ask.Answer) {
	st := &session.Store{Dir: t.TempDir()}
	allow, _ := channel.ParseAllowList("USERS", "U-alice", nil)
	s := Served{Channel: namedOnly{name: "chat"}, Allow: allow}
	r := New(Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Sessions: st, Channels: []Served{s}})
	q := ask.Question{Question: "Which?", Header: "Which", Options: []ask.Option{{Label: "A"}, {Label: "B"}}}
	key := Key("", "ask_1", time.Time{})
	st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request, e.Channels, e.Rev = ask.Request{ID: "ask_1", Questions: []ask.Question{q}}, []string{"chat"}, 1
		return nil
	})
	a, _ := ask.Selection(q, []string{"A"}, "", ask.SourcePerson)
	return st, &host{r: r, s: s}, key, a
}

// The host checks the allow-list itself: a tap a channel passed on from a
// stranger is still refused, and recorded nowhere.
func TestHostRefusesAStrangerAChannelLetThrough(t *testing.T) {
	st, h, key, a := hostRig(t)
	who := channel.Who{Channel: "chat", ID: "U-mallory", Name: "@alice"}
	v := h.Deliver(context.Background(), channel.Tap{Key: key, Rev: 1, Answers: []ask.Answer{a}, Who: who})
	if v.OK || v.Text != channel.NotAllowed {
		t.Errorf("verdict %+v", v)
	}
	if _, ok, _ := st.Mailbox().Get(context.Background(), session.Box{Key: key}); ok {
		t.Error("the stranger's answer reached the mailbox")
	}
}

// A name a channel passed on uncleaned is made safe and short before it
// is stored or shown.
func TestHostCleansANameAChannelLetThrough(t *testing.T) {
	st, h, key, a := hostRig(t)
	who := channel.Who{Channel: "chat", ID: "U-alice", Name: "@al\x1b[2Jice\u202e" + strings.Repeat("x", 500)}
	if v := h.Deliver(context.Background(), channel.Tap{Key: key, Rev: 1, Answers: []ask.Answer{a}, Who: who}); !v.OK {
		t.Fatalf("verdict %+v", v)
	}
	d, _, _ := st.Mailbox().Get(context.Background(), session.Box{Key: key})
	if !strings.HasPrefix(d.By, "@alicexxx") || len([]rune(d.By)) > 80 || d.Answers[0].Via != d.By || strings.ContainsAny(d.By, "\x1b\u202e") {
		t.Errorf("stored as %q, via %q", d.By, d.Answers[0].Via)
	}
}
