package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/storetest"
)

// An update that changes nothing, or fails, leaves the entry's file as it
// was. (That concurrent updates lose nothing, from two processes, is a
// case of the store contract, internal/store/storetest.)
func TestRegistryUpdateLeavesTheFileAlone(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	sid := string(tid("5"))
	key := channel.Key(sid, "toolu_1")
	storetest.Register(t, reg, key, sid)
	// An update that changes nothing, or fails, leaves the file alone.
	before, _ := os.ReadFile(filepath.Join(st.Dir, "relay", key+".json"))
	reg.Update(context.Background(), key, func(e *session.Entry, found bool) error { return nil })
	reg.Update(context.Background(), key, func(e *session.Entry, found bool) error { e.Rev = -5; return errors.New("no") })
	after, _ := os.ReadFile(filepath.Join(st.Dir, "relay", key+".json"))
	if string(before) != string(after) {
		t.Errorf("a no-op or failed update rewrote the entry")
	}
}

// A damaged entry's file is reported by List, after the others. (Listing,
// getting and deleting entries are cases of the store contract,
// internal/store/storetest.)
func TestRegistryListsDamaged(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	a, b := channel.Key("", "ask_a"), channel.Key("", "ask_b")
	storetest.Register(t, reg, a, "")
	storetest.Register(t, reg, b, "")
	os.WriteFile(filepath.Join(st.Dir, "relay", channel.Key("", "bad")+".json"), []byte("{torn"), 0o600)
	list, err := reg.List(context.Background())
	if len(list) != 2 || list[0].Key != a || list[1].Key != b {
		t.Errorf("List = %+v", list)
	}
	if err == nil || !strings.Contains(err.Error(), "is damaged") {
		t.Errorf("a damaged entry was not reported: %v", err)
	}
}

// That a set's waiter is known to every process while it waits, and
// that one process serves a channel, are cases of the store contract
// (internal/store/storetest).

// Removing a session withdraws its sets from the chat channels.
func TestRemoveWithdrawsTheSessionsSets(t *testing.T) {
	st := newStore(t)
	goneID, keptID := string(tid("90e")), string(tid("4e7"))
	create(t, st, session.Meta{ID: tid("90e")}).Close()
	create(t, st, session.Meta{ID: tid("4e7")}).Close()
	reg := st.Registry()
	gone, kept := channel.Key(goneID, "t1"), channel.Key(keptID, "t1")
	storetest.Register(t, reg, gone, goneID)
	storetest.Register(t, reg, kept, keptID)
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
