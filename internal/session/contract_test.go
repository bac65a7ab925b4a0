package session_test

import (
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
