package slack_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/slack"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
)

// slowHost is a Host whose Deliver waits to be let go: where askuser
// serve would be killed between the tap and the mailbox write. The real
// Host (the relay) cannot be held there, so this one stands in.
type slowHost struct {
	set       channel.Set
	delivered chan channel.Tap
	release   chan struct{}
}

func (h *slowHost) Lookup(ctx context.Context, key string) (channel.Set, json.RawMessage, error) {
	if key != h.set.Key {
		return channel.Set{}, nil, channel.ErrUnknownSet
	}
	return h.set, nil, nil
}

func (h *slowHost) Save(context.Context, string, json.RawMessage) error { return nil }

func (h *slowHost) Deliver(ctx context.Context, t channel.Tap) channel.Verdict {
	h.delivered <- t
	<-h.release
	return channel.Verdict{OK: true}
}

// serveSlow serves a sent set with a slowHost; ackWithin is
// Options.AckWithin. stop ends serving, and returns once Serve has.
func serveSlow(t *testing.T, ackWithin time.Duration) (rg *rig, h *slowHost, m slackfake.Message, stop func()) {
	rg = newRig(t, rigOptions{noRun: true})
	ch := rg.channel(slack.Options{AckWithin: ackWithin}, nil)
	set := channel.Set{Key: channel.Key("", "ask_slow"), Rev: 1, Title: "slow",
		Request: ask.Request{ID: "ask_slow", Questions: []ask.Question{dbQuestion}}}
	if _, err := ch.Send(context.Background(), set); err != nil {
		t.Fatal(err)
	}
	h = &slowHost{set: set, delivered: make(chan channel.Tap, 1), release: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = ch.Serve(ctx, h); close(done) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(func() {
		select {
		case <-h.release:
		default:
			close(h.release)
		}
		stop()
	})
	rg.connections(1)
	return rg, h, rg.message("Which database should we use?"), stop
}

// A tap is acknowledged once it is taken, not before: a process killed
// before the answer is in the mailbox has not acknowledged it, so Slack
// tells the person to try again, and nothing is half recorded.
func TestAckFollowsTheVerdict(t *testing.T) {
	rg, h, m, _ := serveSlow(t, time.Hour)
	e, err := rg.fake.Submit(limit, m.TS, alice, slackfake.Pick{Options: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case tap := <-h.delivered:
		if tap.Who.Via() != "@alice on Slack" || tap.Answers[0].Selected[0] != "SQLite" {
			t.Errorf("the tap %+v", tap)
		}
	case <-time.After(limit):
		t.Fatal("the tap was not delivered")
	}
	if got := envelope(rg, e.ID); !got.AckedAt.IsZero() {
		t.Fatal("the envelope was acknowledged before the Host took the tap")
	}
	close(h.release)
	if _, ok := rg.fake.WaitAck(limit, e); !ok {
		t.Fatal("the envelope was never acknowledged")
	}
}

// However long the Host takes, the envelope is acknowledged within
// Slack's 3 s.
func TestAckNeverLate(t *testing.T) {
	rg, h, m, _ := serveSlow(t, 200*time.Millisecond)
	e, err := rg.fake.Submit(limit, m.TS, alice, slackfake.Pick{Options: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	<-h.delivered
	got, ok := rg.fake.WaitAck(limit, e)
	if !ok || !rg.fake.AckedInTime(got) {
		t.Fatalf("a slow Host held the ack past Slack's limit: sent %v, acknowledged %v", got.Sent, got.AckedAt)
	}
	if d := got.AckedAt.Sub(got.Sent); d < 200*time.Millisecond {
		t.Errorf("acknowledged after %v, before the Host had its 200ms", d)
	}
}

// A tap in hand when serving stops (the run it answers is ending) is
// still delivered and acknowledged before the socket closes.
func TestTapInHandIsAnsweredWhenServingStops(t *testing.T) {
	rg, h, m, stop := serveSlow(t, time.Hour)
	e, err := rg.fake.Submit(limit, m.TS, alice, slackfake.Pick{Options: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	<-h.delivered
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	select {
	case <-stopped:
		t.Fatal("Serve returned with a tap in hand")
	case <-time.After(100 * time.Millisecond):
	}
	close(h.release)
	<-stopped
	if got := envelope(rg, e.ID); !rg.fake.AckedInTime(got) {
		t.Errorf("the tap in hand was not acknowledged: sent %v, acknowledged %v", got.Sent, got.AckedAt)
	}
}

func envelope(rg *rig, id string) slackfake.Envelope {
	for _, e := range rg.fake.Envelopes() {
		if e.ID == id {
			return e
		}
	}
	rg.t.Fatalf("no envelope %s", id)
	return slackfake.Envelope{}
}
