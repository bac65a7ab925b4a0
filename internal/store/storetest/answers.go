package storetest

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

func delivery(by string) session.Delivery {
	return session.Delivery{By: by, At: T0,
		Answers: []ask.Answer{{Question: "Which database?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson, Via: by}}}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

var mailboxCases = []Case{
	{"mailbox/first post wins across processes", func(t *testing.T, procs Procs) {
		stores := []*session.Store{procs(), procs()}
		ctx := ctxT(t)
		box := session.Box{Key: channel.Key("", "ask_1")}
		const n = 16
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = stores[i%2].Mailbox().Post(ctx, box, delivery(fmt.Sprintf("@user%d on Slack", i)))
			}()
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("posts %d and %d both won", winner, i)
			case err == nil:
				winner = i
			case !errors.Is(err, session.ErrAlreadyAnswered):
				t.Fatalf("post %d: %v", i, err)
			}
		}
		if winner < 0 {
			t.Fatal("no post won")
		}
		want := fmt.Sprintf("already answered by @user%d on Slack at %s", winner, T0.Local().Format("15:04"))
		for i, err := range errs {
			var ae *session.AnsweredError
			if i != winner && (!errors.As(err, &ae) || err.Error() != want || ae.First.Answers[0].Selected[0] != "SQLite") {
				t.Errorf("post %d was told %v; want %q", i, err, want)
			}
		}
		got, ok, err := stores[1].Mailbox().Get(ctx, box)
		if err != nil || !ok || got.By != fmt.Sprintf("@user%d on Slack", winner) || !got.At.Equal(T0) {
			t.Errorf("Get = %+v, %v, %v; want the winner's", got, ok, err)
		}
	}},
	{"mailbox/wait is woken by another process", func(t *testing.T, procs Procs) {
		waiter, poster := procs(), procs()
		ctx := ctxT(t)
		box := session.Box{Key: channel.Key("", "ask_1")}
		if _, ok, err := waiter.Mailbox().Get(ctx, box); ok || err != nil {
			t.Fatalf("an unanswered set: %v, %v", ok, err)
		}
		got := make(chan session.Delivery, 1)
		go func() {
			d, err := waiter.Mailbox().Wait(ctx, box)
			if err != nil {
				t.Error(err)
			}
			got <- d
		}()
		if err := poster.Mailbox().Post(ctx, box, delivery("@alice on Slack")); err != nil {
			t.Fatal(err)
		}
		if d := <-got; d.By != "@alice on Slack" || d.Answers[0].Via != "@alice on Slack" {
			t.Errorf("woken with %+v", d)
		}
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := waiter.Mailbox().Wait(cancelled, session.Box{Key: channel.Key("", "ask_2")}); !errors.Is(err, ask.ErrCancelled) {
			t.Errorf("a cancelled Wait: %v; want ask.ErrCancelled", err)
		}
	}},
	{"mailbox/refuses what is not a set or an answer", func(t *testing.T, procs Procs) {
		st := procs()
		ctx := ctxT(t)
		good := channel.Key("", "x")
		for _, box := range []session.Box{{Key: "../../etc"}, {Key: good, Session: "gone"}} {
			if err := st.Mailbox().Post(ctx, box, delivery("@a on Slack")); err == nil {
				t.Errorf("Post(%+v) succeeded", box)
			}
		}
		if err := st.Mailbox().Post(ctx, session.Box{Key: good}, session.Delivery{By: "x", At: T0}); err == nil {
			t.Error("an empty answer was posted")
		}
		if _, ok, _ := st.Mailbox().Get(ctx, session.Box{Key: good}); ok {
			t.Error("a refused post left an answer")
		}
	}},
}

// Register registers a set of one question under key, of session sess
// ("" for none), as a frontend asking through a channel does.
func Register(t *testing.T, reg session.Registry, key, sess string) {
	t.Helper()
	_, err := reg.Update(context.Background(), key, func(e *session.Entry, found bool) error {
		if found {
			t.Fatalf("%s registered twice", key)
		}
		e.Session, e.Channels = sess, []string{"slack"}
		e.Request = ask.Request{ID: "toolu_1", Questions: []ask.Question{{Question: "Which?", Header: "H"}}}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

var registryCases = []Case{
	{"registry/updates from two processes lose nothing", func(t *testing.T, procs Procs) {
		stores := []*session.Store{procs(), procs()}
		ctx := ctxT(t)
		key := channel.Key("", "ask_1")
		Register(t, stores[0].Registry(), key, "")
		const n = 20
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := stores[i%2].Registry().Update(ctx, key, func(e *session.Entry, found bool) error { e.Rev++; return nil }); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		e, err := stores[1].Registry().Get(ctx, key)
		if err != nil || e.Rev != n || e.Request.Questions[0].Header != "H" || e.Key != key {
			t.Fatalf("after %d updates: %+v, %v", n, e, err)
		}
		updated := e.Updated
		e2, err := stores[0].Registry().Update(ctx, key, func(e *session.Entry, found bool) error { return nil })
		if err != nil || !e2.Updated.Equal(updated) {
			t.Errorf("an update that changed nothing: %v, updated %v; want %v", err, e2.Updated, updated)
		}
		_, err = stores[0].Registry().Update(ctx, key, func(e *session.Entry, found bool) error { e.Rev = -5; return errors.New("no") })
		if err == nil || err.Error() != "no" {
			t.Errorf("fn's error came back as %v", err)
		}
		if e, _ := stores[1].Registry().Get(ctx, key); e.Rev != n {
			t.Errorf("a failed update wrote rev %d", e.Rev)
		}
	}},
	{"registry/list, get and delete", func(t *testing.T, procs Procs) {
		st := procs()
		ctx := ctxT(t)
		reg := st.Registry()
		if list, err := reg.List(ctx); err != nil || len(list) != 0 {
			t.Fatalf("an empty registry: %v, %v", list, err)
		}
		a, b := channel.Key("", "ask_a"), channel.Key("", "ask_b")
		Register(t, reg, a, "")
		Register(t, reg, b, "")
		list, err := procs().Registry().List(ctx)
		if err != nil || len(list) != 2 || list[0].Key != a || list[1].Key != b || list[0].Created.After(list[1].Created) {
			t.Errorf("List = %+v, %v; want a, then b", list, err)
		}
		if err := reg.Delete(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Get(ctx, a); !errors.Is(err, channel.ErrUnknownSet) {
			t.Errorf("Get after Delete: %v; want channel.ErrUnknownSet", err)
		}
		if _, err := reg.Get(ctx, "../../x"); err == nil {
			t.Error("a path was taken for a key")
		}
	}},
	{"registry/a waiter is seen by every process", func(t *testing.T, procs Procs) {
		waiter, other := procs(), procs()
		key := channel.Key("", "ask_1")
		if other.Registry().Held(key) {
			t.Fatal("held before anyone waits")
		}
		release, err := waiter.Registry().Hold(key)
		if err != nil {
			t.Fatal(err)
		}
		if !other.Registry().Held(key) || !waiter.Registry().Held(key) {
			t.Error("not held while waited on")
		}
		again, err := other.Registry().Hold(key)
		if err != nil {
			t.Fatalf("a second waiter: %v", err)
		}
		again()
		if !waiter.Registry().Held(key) {
			t.Error("a second waiter's release ended the first's wait")
		}
		release()
		if other.Registry().Held(key) {
			t.Error("held after release")
		}
	}},
	{"channels/one process serves a channel", func(t *testing.T, procs Procs) {
		a, b := procs(), procs()
		release, err := a.HoldChannel("slack")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.HoldChannel("slack"); !errors.Is(err, session.ErrChannelHeld) {
			t.Errorf("another process: %v; want ErrChannelHeld", err)
		}
		if _, err := a.HoldChannel("slack"); !errors.Is(err, session.ErrChannelHeld) {
			t.Errorf("the same process again: %v; want ErrChannelHeld", err)
		}
		other, err := b.HoldChannel("telegram")
		if err != nil {
			t.Fatal(err)
		}
		other()
		release()
		again, err := b.HoldChannel("slack")
		if err != nil {
			t.Fatalf("hold after release: %v", err)
		}
		again()
		if _, err := a.HoldChannel("../x"); err == nil {
			t.Error("a path was taken for a channel name")
		}
	}},
}
