package session_test

import (
	"testing"

	"github.com/askuser/askuser/internal/session"
)

// A host session's askuser session is found again from the host's own
// id, and is an id like any other.
func TestHostSessionID(t *testing.T) {
	a := session.HostSessionID("claude", "c1a0de00-0000-4000-8000-000000000001")
	if _, err := session.ParseID(string(a)); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if b := session.HostSessionID("claude", "c1a0de00-0000-4000-8000-000000000001"); b != a {
		t.Errorf("the same host session gave %s, then %s", a, b)
	}
	if b := session.HostSessionID("codex", "c1a0de00-0000-4000-8000-000000000001"); b == a {
		t.Errorf("another host's session of the same id gave the same askuser session %s", a)
	}
}
