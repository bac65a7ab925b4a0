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

// A store that cannot be reached says why once: the driver's two tries of
// one host (with TLS, then without) fail alike, and the message said each
// of them, word for word.
func TestUnreachableSaysWhyOnce(t *testing.T) {
	for _, url := range []string{"postgres://nobody@127.0.0.1:1/x?connect_timeout=5", "postgres://nobody@127.0.0.1:1/x?connect_timeout=5&sslmode=require"} {
		_, err := Open(t.Context(), url)
		if err == nil {
			t.Fatalf("%s opened", url)
		}
		msg := err.Error()
		seen := map[string]bool{}
		for _, l := range strings.Split(msg, "\n") {
			l = strings.TrimSpace(l)
			if seen[l] {
				t.Errorf("%s: the line %q is said twice:\n%s", url, l, msg)
			}
			seen[l] = true
		}
		for _, reason := range []string{"connection refused", "no such host", "server misbehaving", "i/o timeout"} {
			if n := strings.Count(msg, reason); n > 1 {
				t.Errorf("%s: %q is said %d times:\n%s", url, reason, n, msg)
			}
		}
	}
	// A name that does not resolve: the lookup's failure, and again
	// beneath it alone (no lookup is made here: the words are pgx's).
	lookup := "failed to connect to `user=nobody database=x`:\n\thostname resolving error: lookup nowhere.invalid: no such host\n\tlookup nowhere.invalid: no such host"
	if got, want := onceEach(lookup), "failed to connect to `user=nobody database=x`: hostname resolving error: lookup nowhere.invalid: no such host"; got != want {
		t.Errorf("onceEach =\n%s\nwant\n%s", got, want)
	}
	// Two hosts that fail differently keep both lines.
	two := "failed to connect:\n\ta:1 (a): dial error: refused\n\tb:1 (b): dial error: refused"
	if got := onceEach(two); got != two {
		t.Errorf("onceEach dropped a host's reason:\n%s", got)
	}
}
