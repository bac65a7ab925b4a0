package session_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/storetest"
)

// The files store keeps the store contract: each process a Store of its
// own over one state directory.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Procs {
		dir, clock := t.TempDir(), storetest.Clock()
		return func() *session.Store { return &session.Store{Dir: dir, Now: clock} }
	})
}

// Removing a session is not stopped by another session's damaged registry
// entry (a case of the contract that damages a file).
func TestRemoveBesideDamage(t *testing.T) {
	dir, clock := t.TempDir(), storetest.Clock()
	procs := func() *session.Store { return &session.Store{Dir: dir, Now: clock} }
	storetest.RemoveBesideDamage(t, procs, func(t *testing.T, key, otherKey string) {
		path := filepath.Join(dir, "relay", key+".json")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte(key), []byte(otherKey)), 0o600); err != nil {
			t.Fatal(err)
		}
	})
}
