package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

func register(t *testing.T, reg *session.Registry, key, sess string) session.Entry {
	t.Helper()
	e, err := reg.Update(context.Background(), key, func(e *session.Entry, found bool) error {
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
	return e
}

// Concurrent read-modify-writes of one entry lose nothing: each takes the
// key's lock.
func TestRegistryUpdatesLoseNothing(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	sid := string(tid("5"))
	key := channel.Key(sid, "toolu_1")
	register(t, reg, key, sid)
	const n = 40
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each goroutine its own Registry, as another process would be.
			if _, err := st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
				e.Rev++
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	e, err := reg.Get(context.Background(), key)
	if err != nil || e.Rev != n || e.Session != sid || e.Request.Questions[0].Header != "H" {
		t.Fatalf("after %d updates: %+v, %v", n, e, err)
	}
	// An update that changes nothing, or fails, leaves the file alone.
	before, _ := os.ReadFile(filepath.Join(st.Dir, "relay", key+".json"))
	reg.Update(context.Background(), key, func(e *session.Entry, found bool) error { return nil })
	reg.Update(context.Background(), key, func(e *session.Entry, found bool) error { e.Rev = -5; return errors.New("no") })
	after, _ := os.ReadFile(filepath.Join(st.Dir, "relay", key+".json"))
	if string(before) != string(after) {
		t.Errorf("a no-op or failed update rewrote the entry")
	}
}

func TestRegistryListGetDelete(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	ctx := context.Background()
	if list, err := reg.List(ctx); err != nil || len(list) != 0 {
		t.Fatalf("empty registry: %v, %v", list, err)
	}
	a, b := channel.Key("", "ask_a"), channel.Key("", "ask_b")
	register(t, reg, a, "")
	register(t, reg, b, "")
	os.WriteFile(filepath.Join(st.Dir, "relay", channel.Key("", "bad")+".json"), []byte("{torn"), 0o600)
	list, err := reg.List(ctx)
	if len(list) != 2 || list[0].Key != a || list[1].Key != b {
		t.Errorf("List = %+v", list)
	}
	if err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("a damaged entry was not reported: %v", err)
	}
	if err := reg.Delete(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Get(ctx, a); !errors.Is(err, channel.ErrUnknownSet) {
		t.Errorf("Get after Delete: %v", err)
	}
	if _, err := reg.Get(ctx, "../../x"); err == nil {
		t.Error("a path was taken for a key")
	}
}

// A set's waiter is known while it waits, and not after.
func TestRegistryHold(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	key := channel.Key("", "ask_1")
	if reg.Held(key) {
		t.Fatal("held before anyone waits")
	}
	release, err := reg.Hold(key)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Registry().Held(key) {
		t.Error("not held while waited on")
	}
	release()
	if reg.Held(key) {
		t.Error("held after release")
	}
}

// One process of a state directory serves a channel.
func TestHoldChannelIsExclusive(t *testing.T) {
	st := newStore(t)
	release, err := st.HoldChannel("slack")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.HoldChannel("slack"); !errors.Is(err, session.ErrChannelHeld) {
		t.Errorf("second hold: %v, want ErrChannelHeld", err)
	}
	other, err := st.HoldChannel("telegram")
	if err != nil {
		t.Fatal(err)
	}
	other()
	release()
	again, err := st.HoldChannel("slack")
	if err != nil {
		t.Fatalf("hold after release: %v", err)
	}
	again()
	if _, err := st.HoldChannel("../x"); err == nil {
		t.Error("a path was taken for a channel name")
	}
}

// Removing a session withdraws its sets from the chat channels.
func TestRemoveWithdrawsTheSessionsSets(t *testing.T) {
	st := newStore(t)
	goneID, keptID := string(tid("90e")), string(tid("4e7"))
	create(t, st, session.Meta{ID: tid("90e")}).Close()
	create(t, st, session.Meta{ID: tid("4e7")}).Close()
	reg := st.Registry()
	gone, kept := channel.Key(goneID, "t1"), channel.Key(keptID, "t1")
	register(t, reg, gone, goneID)
	register(t, reg, kept, keptID)
	if _, err := st.Remove(goneID); err != nil {
		t.Fatal(err)
	}
	e, _ := reg.Get(context.Background(), gone)
	if e.Outcome.State != channel.Withdrawn || e.Outcome.Why != "the session was removed" {
		t.Errorf("the removed session's set: %+v", e.Outcome)
	}
	if e, _ := reg.Get(context.Background(), kept); !e.Pending() {
		t.Errorf("another session's set was withdrawn: %+v", e.Outcome)
	}
}
