package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// limited is a rate limit that says when to call again.
type limited struct{ at time.Time }

func (e *limited) Error() string      { return "rate limited" }
func (e *limited) RetryAt() time.Time { return e.at }

// scripted is a channel named "chat" whose sends fail as told, one error
// per send (nil: the send succeeds), and which records when each send was
// made, by the relay's clock.
type scripted struct {
	mu     sync.Mutex
	now    func() time.Time
	fails  []error
	sends  []time.Time
	sets   []channel.Set
	sent   chan struct{}
	onSend func(channel.Set) // called before the send's outcome, unlocked
}

func (c *scripted) Name() string { return "chat" }
func (c *scripted) Send(ctx context.Context, s channel.Set) (channel.Ref, error) {
	if c.onSend != nil {
		c.onSend(s)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sends, c.sets = append(c.sends, c.now()), append(c.sets, s)
	var err error
	if len(c.fails) > 0 {
		err, c.fails = c.fails[0], c.fails[1:]
	}
	if c.sent != nil {
		c.sent <- struct{}{}
	}
	if err != nil {
		return nil, err
	}
	return channel.Ref(`{"id":1}`), nil
}
func (c *scripted) Update(context.Context, channel.Ref, channel.Outcome) error { return nil }
func (c *scripted) Reply(context.Context, channel.Ref, string) error           { return nil }
func (c *scripted) Check(context.Context) error                                { return nil }
func (c *scripted) Serve(ctx context.Context, _ channel.Host) error {
	<-ctx.Done()
	return nil
}

func (c *scripted) calls() []time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Time(nil), c.sends...)
}

// retryRig registers a set outside a session for channel "chat", waited
// on by this process, and a relay holding the channel.
func retryRig(t *testing.T, ch *scripted, cfg Config) *Relay {
	t.Helper()
	st := &session.Store{Dir: t.TempDir()}
	key := Key("", "ask_1", time.Time{})
	q := ask.Question{Question: "Which?", Header: "Which", Options: []ask.Option{{Label: "A"}, {Label: "B"}}}
	if _, err := st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request, e.Channels, e.Rev = ask.Request{ID: "ask_1", Questions: []ask.Question{q}}, []string{"chat"}, 1
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	release, err := st.Registry().Hold(key)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	cfg.Mailbox, cfg.Registry, cfg.Sessions = st.Mailbox(), st.Registry(), st
	cfg.Channels = []Served{{Channel: ch}}
	cfg.Hold = st.HoldChannel
	return New(cfg)
}

// A platform that says when to call again is called again then: not
// before (though the relay's own backoff would be shorter), and not later
// (though its backoff after failures in a row would be longer).
func TestRelayCallsAgainWhenThePlatformSays(t *testing.T) {
	start := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	now := start
	ch := &scripted{now: func() time.Time { return now }}
	ch.fails = []error{
		fmt.Errorf("chat.postMessage: %w", &limited{at: start.Add(30 * time.Second)}),
		errors.New("down"), errors.New("down"), errors.New("down"),
		&limited{at: start.Add(46 * time.Second)},
	}
	r := retryRig(t, ch, Config{Now: func() time.Time { return now }, RetryBase: time.Second})
	r.setHeld("chat", true)
	for d := time.Duration(0); d <= 70*time.Second; d += time.Second {
		now = start.Add(d)
		r.pass(context.Background())
	}
	// The relay's own backoff would call after 1 s; after three failures
	// in a row (backoff 2, 4, 8 s), the fourth would wait 16 s.
	want := []time.Duration{0, 30 * time.Second, 32 * time.Second, 36 * time.Second, 44 * time.Second, 46 * time.Second}
	got := ch.calls()
	if len(got) != len(want) {
		t.Fatalf("sends at %v, want at %v", offsets(got, start), want)
	}
	for i := range want {
		if got[i].Sub(start) != want[i] {
			t.Fatalf("sends at %v, want at %v", offsets(got, start), want)
		}
	}
}

func offsets(ts []time.Time, start time.Time) []time.Duration {
	out := make([]time.Duration, len(ts))
	for i, t := range ts {
		out[i] = t.Sub(start)
	}
	return out
}

// A running relay whose own tick is far off still calls again when the
// platform said: it wakes itself then.
func TestRelayWakesWhenThePlatformSays(t *testing.T) {
	ch := &scripted{now: time.Now, sent: make(chan struct{}, 4)}
	at := time.Now().Add(300 * time.Millisecond)
	ch.fails = []error{&limited{at: at}}
	r := retryRig(t, ch, Config{Tick: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	for i := range 2 {
		select {
		case <-ch.sent:
		case <-time.After(10 * time.Second):
			t.Fatalf("send %d never came: the relay waited for its hourly tick", i+1)
		}
	}
	if calls := ch.calls(); calls[1].Before(at) {
		t.Errorf("the second send came %v before the time the platform said", at.Sub(calls[1]))
	}
}
