package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// A store that cannot be reached is said to be, never taken for a session
// that is not there: askuser serve's relay withdraws the waiting sets of
// a session it is told was removed ("the session was removed", on every
// chat widget), and a command takes a missing session for a usage error.
func TestUnreachableIsNoMissingSession(t *testing.T) {
	srv, b := ownBackend(t)
	st := &session.Store{Dir: t.TempDir(), Backend: b}
	s, err := st.Create(session.Meta{FirstPrompt: "Set up the project"})
	if err != nil {
		t.Fatal(err)
	}
	id := string(s.Meta.ID)
	s.Close()
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{id, id[:8]} {
		_, err := st.Load(ref)
		if err == nil || errors.Is(err, session.ErrNotFound) || !strings.Contains(err.Error(), "cannot reach the store") {
			t.Errorf("Load(%s) with the store down: %v; want the store unreachable, not a missing session", ref, err)
		}
	}
}

// Whether a process waits on a set is "maybe" while the store cannot say:
// askuser serve's relay withdraws a set asked outside a session when
// nobody waits on it ("the asking process ended"), and a set whose asker
// still waits must not be withdrawn for a query that failed.
//
// So is whether a process holds a session: askuser serve resumes a
// session nobody holds, and a second process must not run it because a
// query failed.
func TestUnreachableSetMayBeWaitedOn(t *testing.T) {
	srv, b := ownBackend(t)
	key := channel.Key("", "ask_1")
	if b.Registry().Held(key) {
		t.Fatal("a set nobody waits on is held")
	}
	st := &session.Store{Dir: t.TempDir(), Backend: b}
	s, err := st.Create(session.Meta{FirstPrompt: "Set up the project"})
	if err != nil {
		t.Fatal(err)
	}
	id := string(s.Meta.ID)
	s.Close()
	if st.InUse(id) {
		t.Fatal("a session nobody holds is in use")
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if !b.Registry().Held(key) {
		t.Error("with the store down, a set is said to be waited on by nobody")
	}
	if !st.InUse(id) {
		t.Error("with the store down, a session is said to be held by nobody")
	}
}

// ownBackend is a backend on a server of the test's own, which it may
// stop.
func ownBackend(t *testing.T) (*pgtest.Server, *Backend) {
	t.Helper()
	srv := pgtest.Own(t)
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(ctxT(t), srv.URL(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return srv, b
}
