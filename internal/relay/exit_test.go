package relay_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// slowEdits is a platform slow to edit a message, as one is on a busy
// machine or network: each update takes wait, or, while down is open,
// never comes back until the caller gives up. begun is closed when the
// first update begins.
type slowEdits struct {
	*channeltest.Channel
	wait  time.Duration
	down  chan struct{} // nil: up
	begun chan struct{}
	once  sync.Once
}

func (s *slowEdits) Update(ctx context.Context, r channel.Ref, o channel.Outcome) error {
	s.once.Do(func() { close(s.begun) })
	if s.down != nil {
		select {
		case <-s.down:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := channel.Sleep(ctx, s.wait); err != nil {
		return err
	}
	return s.Channel.Update(ctx, r, o)
}

// answered asks a set through rg's relay, waits for its message, answers
// it as a person at the terminal would (in the mailbox), and returns the
// message once Ask took the answer.
func (rg *rig) answered(id string) channeltest.Message {
	rg.t.Helper()
	req := ask.Request{ID: id, Questions: []ask.Question{dbQuestion}}
	a := ask1(context.Background(), rg.frontend(""), req)
	m := rg.message(titled("Database"), "asked")
	key := relay.Key("", id, time.Time{})
	for deadline := time.Now().Add(limit); ; time.Sleep(5 * time.Millisecond) {
		if e, _ := rg.st.Registry().Get(context.Background(), key); e.Sent[channeltest.Name] != nil && len(e.Sent[channeltest.Name].Ref) > 0 {
			break
		}
		if time.Now().After(deadline) {
			rg.t.Fatal("the relay never recorded the send")
		}
	}
	ans, _ := ask.Selection(dbQuestion, []string{"SQLite"}, "", ask.SourcePerson)
	if err := rg.st.Mailbox().Post(context.Background(), session.Box{Key: key}, session.Delivery{Answers: []ask.Answer{ans}, By: "a person at the terminal", At: time.Now()}); err != nil {
		rg.t.Fatal(err)
	}
	if _, err := a.Wait(rg.t); err != nil {
		rg.t.Fatal(err)
	}
	return m
}

// A run that ends while its relay is updating the widget of the set just
// answered (the platform slow to answer) lets the update finish: the
// person sees the answer was taken, though the run exited at once.
func TestStopFinishesTheUpdateUnderWay(t *testing.T) {
	rg := newRig(t, rigOptions{})
	slow := &slowEdits{Channel: rg.ch, wait: 300 * time.Millisecond, begun: make(chan struct{})}
	rg.cfg.Channels = []relay.Served{{Channel: slow, Allow: rg.allow}}
	rg.relay = relay.New(rg.cfg)
	rg.start()
	m := rg.answered("ask_slow")
	select {
	case <-slow.begun:
	case <-time.After(limit):
		t.Fatal("the relay never began to update the widget")
	}
	rg.stop()
	if got := rg.srv.Messages()[m.ID-1]; len(got.Updates) != 1 || !strings.HasPrefix(got.Updates[0], "Answered: SQLite") {
		t.Errorf("the relay stopped without showing the outcome: updates %q\nrelay log:\n%s", got.Updates, rg.log.String())
	}
}

// A platform that stays down past the bound: the relay stops all the same,
// says so, and leaves the outcome recorded; the next relay to hold the
// channel (askuser serve) shows it at once, not after a backoff the
// platform never asked for.
func TestOutcomeNotShownIsLeftForTheNextHolder(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.cfg.RetryBase = time.Hour // a backoff would outlast the test
	rg.cfg.ExitWait = 200 * time.Millisecond
	slow := &slowEdits{Channel: rg.ch, down: make(chan struct{}), begun: make(chan struct{})}
	rg.cfg.Channels = []relay.Served{{Channel: slow, Allow: rg.allow}}
	rg.relay = relay.New(rg.cfg)
	rg.start()
	m := rg.answered("ask_down")
	<-slow.begun
	stopped := make(chan struct{})
	go func() { rg.stop(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(limit):
		t.Fatal("the relay did not stop while the platform was down")
	}
	if got := rg.srv.Messages()[m.ID-1]; len(got.Updates) != 0 {
		t.Fatalf("updated while down: %q", got.Updates)
	}
	if log := rg.log.String(); !strings.Contains(log, "could not update question "+m.Key+" before askuser stopped") {
		t.Errorf("the relay's log does not say the outcome was left for later:\n%s", log)
	}
	close(slow.down)
	rg.cfg.Inbox = true // askuser serve
	rg.relay = relay.New(rg.cfg)
	rg.start()
	if u := rg.updated(m.ID); len(u.Updates) != 1 || !strings.HasPrefix(u.Updates[0], "Answered: SQLite") {
		t.Errorf("the next holder shows %q", u.Updates)
	}
}

// The platform says to wait just as the relay stops (a rate limit on the
// update): the relay waits, within its bound, and updates the widget
// then.
func TestStopCallsAgainWithinTheBound(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.cfg.Tick = time.Hour // only the last passes show the outcome
	rg.relay = relay.New(rg.cfg)
	rg.start()
	rg.srv.RateLimit("/update", 1, 100*time.Millisecond)
	m := rg.answered("ask_limited")
	rg.stop()
	if got := rg.srv.Messages()[m.ID-1]; len(got.Updates) != 1 || !strings.HasPrefix(got.Updates[0], "Answered: SQLite") {
		t.Errorf("the relay stopped without showing the outcome: updates %q\nrelay log:\n%s", got.Updates, rg.log.String())
	}
	if n := len(rg.srv.Calls("/update")); n != 2 {
		t.Errorf("%d calls to update, want 2 (limited, then made)", n)
	}
}

// slowReplies is a platform that posts a reply at once and answers the
// call wait later; begun is closed when the first reply is posted.
type slowReplies struct {
	*channeltest.Channel
	wait  time.Duration
	begun chan struct{}
	once  sync.Once
}

func (s *slowReplies) Reply(ctx context.Context, r channel.Ref, text string) error {
	if err := s.Channel.Reply(ctx, r, text); err != nil {
		return err
	}
	s.once.Do(func() { close(s.begun) })
	return channel.Sleep(ctx, s.wait)
}

// askuser serve stopped (SIGTERM) while it posts what a late answer led
// to, the platform slow to answer: the post is finished, and counted, so
// it is posted once, not again by this serve's last pass or the next.
func TestStopFinishesTheFollowUpUnderWay(t *testing.T) {
	lr := newLateRig(t, false)
	slow := &slowReplies{Channel: lr.ch, wait: 300 * time.Millisecond, begun: make(chan struct{})}
	lr.cfg.Channels = []relay.Served{{Channel: slow, Allow: lr.allow}}
	lr.relay = relay.New(lr.cfg)
	lr.start()
	m := lr.message(titled("Database"), "of the waiting session")
	if _, v, err := lr.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
		t.Fatalf("the tap: %+v, %v", v, err)
	}
	lr.resumed()
	select {
	case <-slow.begun:
	case <-time.After(limit):
		t.Fatal("the relay never posted the follow-up")
	}
	lr.stop()
	lr.relay = relay.New(lr.cfg) // the next serve
	lr.start()
	time.Sleep(100 * time.Millisecond) // its passes
	lr.stop()
	if got := lr.srv.Messages()[m.ID-1]; len(got.Replies) != 1 {
		t.Errorf("%d follow-ups posted, want 1: %q\nrelay log:\n%s", len(got.Replies), got.Replies, lr.log.String())
	}
}
