package session_test

import (
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/storetest"
)

// The files store keeps the store contract: each process a Store of its
// own over one state directory.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Procs {
		dir := t.TempDir()
		var mu sync.Mutex
		now := storetest.T0
		clock := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			now = now.Add(time.Second)
			return now
		}
		return func() *session.Store { return &session.Store{Dir: dir, Now: clock} }
	})
}
