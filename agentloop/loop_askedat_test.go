package agentloop_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// askedAtFrontend records when each set it is asked says it was first
// asked, and defers it.
type askedAtFrontend struct {
	mu   sync.Mutex
	seen []time.Time
}

func (f *askedAtFrontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	at, ok := ask.AskedAt(ctx)
	if !ok {
		return nil, fmt.Errorf("set %s asked without its asked-at time", req.ID)
	}
	f.mu.Lock()
	f.seen = append(f.seen, at)
	f.mu.Unlock()
	return nil, fmt.Errorf("%w: later", ask.ErrDeferred)
}

// A frontend learns when the set it asks was first asked, and a later
// process asking the same set again gets the same time, not its own: a
// mailbox keyed by it finds the answer given meanwhile.
func TestFrontendLearnsWhenTheSetWasFirstAsked(t *testing.T) {
	_, prov := anthropicWire.start(t, -1, seedTurns()...)
	st := agentloop.NewState()
	fe := &askedAtFrontend{}
	run(t, &agentloop.Loop{Provider: prov, Frontend: fe, Now: fixedClock(t0)}, st, userPrompt("Add authentication"))
	run(t, &agentloop.Loop{Provider: prov, Frontend: fe, Now: fixedClock(t0.Add(2 * time.Hour))}, st, nil)
	if len(fe.seen) != 2 || !fe.seen[0].Equal(t0) || !fe.seen[1].Equal(t0) {
		t.Errorf("the frontend was told the set was first asked at %v, want %s twice", fe.seen, t0)
	}
}
