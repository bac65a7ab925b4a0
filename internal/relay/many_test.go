package relay_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// A pass over many waiting sets reads their answers, and whether their
// askers wait, in one go where the stores can (a team store's thousand
// sets are then a query each, not a thousand): nothing is asked set by
// set, and what the reads say is acted on as before.
func TestPassReadsManySetsAtOnce(t *testing.T) {
	rg := newRig(t, rigOptions{inbox: true})
	mb := &manyMailbox{Mailbox: rg.st.Mailbox()}
	reg := &manyRegistry{Registry: rg.st.Registry()}
	rg.cfg.Mailbox, rg.cfg.Registry = mb, reg
	rg.relay = relay.New(rg.cfg)
	ctx := context.Background()
	var keys []string
	for i := range 5 {
		key := relay.Key("", fmt.Sprintf("ask_many_%d", i), time.Time{})
		release, err := rg.st.Registry().Hold(key)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(release)
		if _, err := rg.st.Registry().Update(ctx, key, func(e *session.Entry, found bool) error {
			e.Request, e.Channels, e.Rev = ask.Request{ID: fmt.Sprintf("ask_many_%d", i), Questions: []ask.Question{dbQuestion}}, []string{relay.Inbox}, 1
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, key)
	}
	a, err := ask.Selection(dbQuestion, []string{"SQLite"}, "", ask.SourcePerson)
	if err != nil {
		t.Fatal(err)
	}
	if err := rg.st.Mailbox().Post(ctx, session.Box{Key: keys[2]}, session.Delivery{Answers: []ask.Answer{a}, By: "a person on the inbox page", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	rg.start()
	for deadline := time.Now().Add(limit); ; time.Sleep(10 * time.Millisecond) {
		e, err := rg.st.Registry().Get(ctx, keys[2])
		if err == nil && e.Outcome.State == channel.Answered {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the answered set was never settled: %+v, %v", e.Outcome, err)
		}
	}
	for _, k := range []string{keys[0], keys[4]} {
		if e, _ := rg.st.Registry().Get(ctx, k); !e.Pending() {
			t.Errorf("a set whose asker waits was settled: %+v", e.Outcome)
		}
	}
	if mb.many.Load() == 0 || reg.many.Load() == 0 {
		t.Errorf("read at once %d (answers) and %d (askers) times; want every pass", mb.many.Load(), reg.many.Load())
	}
	if mb.gets.Load() != 0 || reg.helds.Load() != 0 {
		t.Errorf("read set by set %d (answers) and %d (askers) times; want none", mb.gets.Load(), reg.helds.Load())
	}
}

// manyMailbox reads many answers at once, and counts the reads of one.
type manyMailbox struct {
	session.Mailbox
	gets, many atomic.Int32
}

func (m *manyMailbox) Get(ctx context.Context, box session.Box) (session.Delivery, bool, error) {
	m.gets.Add(1)
	return m.Mailbox.Get(ctx, box)
}

func (m *manyMailbox) GetMany(ctx context.Context, boxes []session.Box) (map[string]session.Delivery, error) {
	m.many.Add(1)
	out := map[string]session.Delivery{}
	for _, b := range boxes {
		if d, ok, err := m.Mailbox.Get(ctx, b); err != nil {
			return nil, err
		} else if ok {
			out[b.Key] = d
		}
	}
	return out, nil
}

// manyRegistry says at once which sets are held, and counts the
// questions about one.
type manyRegistry struct {
	session.Registry
	helds, many atomic.Int32
}

func (r *manyRegistry) Held(key string) bool {
	r.helds.Add(1)
	return r.Registry.Held(key)
}

func (r *manyRegistry) HeldMany(keys []string) map[string]bool {
	r.many.Add(1)
	out := map[string]bool{}
	for _, k := range keys {
		out[k] = r.Registry.Held(k)
	}
	return out
}
