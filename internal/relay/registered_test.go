package relay_test

import (
	"context"
	"errors"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// The person is told where to answer once the set waits where every
// process finds it, not before: a registry that cannot take the set (a
// team store out of reach) tells nobody, and the set, once registered,
// is in the registry when they are told.
func TestRegisteredIsToldOnceTheSetWaits(t *testing.T) {
	rg := newRig(t, rigOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	told := 0
	down := &failingRegistry{Registry: rg.st.Registry(), err: errors.New("cannot reach the store")}
	fe := &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: down, Title: "askuser ask", Channels: []string{relay.Inbox},
		Registered: func() { told++ }}
	req := ask.Request{ID: "ask_told", Questions: []ask.Question{dbQuestion}}
	if _, err := fe.Ask(ctx, req); err == nil {
		t.Fatal("asked, with a registry that takes nothing")
	}
	if told != 0 {
		t.Fatalf("told %d times where to answer a set that waits nowhere", told)
	}
	fe.Registry = rg.st.Registry()
	fe.Registered = func() {
		told++
		entries, err := rg.st.Registry().List(ctx)
		if err != nil || len(entries) != 1 {
			t.Errorf("told where to answer with the registry holding %d sets (%v)", len(entries), err)
		}
		cancel()
	}
	if _, err := fe.Ask(ctx, req); !errors.Is(err, ask.ErrCancelled) {
		t.Fatalf("ask: %v", err)
	}
	if told != 1 {
		t.Errorf("told %d times; want once", told)
	}
}

// failingRegistry fails every update with err.
type failingRegistry struct {
	session.Registry
	err error
}

func (r *failingRegistry) Update(context.Context, string, func(*session.Entry, bool) error) (session.Entry, error) {
	return session.Entry{}, r.err
}
