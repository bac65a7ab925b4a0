package relay_test

import (
	"context"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// quick is a channel whose Serve returns the moment ctx ends, as a
// channel does whose receiving is a request ctx cancels.
type quick struct{ *channeltest.Channel }

func (q quick) Serve(ctx context.Context, h channel.Host) error {
	<-ctx.Done()
	return nil
}

// A live run that stops just after its set was answered (elsewhere, here
// in the mailbox) still shows the outcome on the widget: the relay's last
// pass shows it on the channels it served, however fast their Serve
// returned.
func TestLastPassShowsTheOutcome(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.cfg.Channels = []relay.Served{{Channel: quick{rg.ch}, Allow: rg.allow}}
	rg.relay = relay.New(rg.cfg)
	rg.start()
	req := ask.Request{ID: "ask_last", Questions: []ask.Question{dbQuestion}}
	a := ask1(context.Background(), rg.frontend(""), req)
	m := rg.message(titled("Database"), "asked")
	key := m.Key // the asking's own: named anew each time (relay.Asking)
	// The relay records the send; then the tick is made long, so only the
	// last pass can show what follows.
	deadline := time.Now().Add(limit)
	for e, _ := rg.st.Registry().Get(context.Background(), key); e.Sent[channeltest.Name] == nil || len(e.Sent[channeltest.Name].Ref) == 0; e, _ = rg.st.Registry().Get(context.Background(), key) {
		if time.Now().After(deadline) {
			t.Fatal("the relay never recorded the send")
		}
		time.Sleep(5 * time.Millisecond)
	}
	rg.stop()
	rg.cfg.Tick = time.Hour
	rg.relay = relay.New(rg.cfg)
	rg.start()
	// The answer comes while the new relay serves the channel: one
	// stopped before it held the channel has served nothing.
	for deadline = time.Now().Add(limit); !rg.relay.Holds(channeltest.Name); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the restarted relay never held the channel")
		}
	}
	ans, _ := ask.Selection(dbQuestion, []string{"SQLite"}, "", ask.SourcePerson)
	if err := rg.st.Mailbox().Post(context.Background(), session.Box{Key: key}, session.Delivery{Answers: []ask.Answer{ans}, By: "a person at the terminal", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Wait(t); err != nil {
		t.Fatal(err)
	}
	rg.stop()
	if got, _ := rg.srv.Messages()[m.ID-1], 0; len(got.Updates) == 0 {
		t.Errorf("the relay stopped without showing the outcome: %+v", got)
	}
}
