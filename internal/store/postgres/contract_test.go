package postgres

import (
	"testing"

	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/pgtest"
	"github.com/askuser/askuser/internal/store/storetest"
)

// The team store keeps the store contract: each process a Backend of its
// own over one database, and a state directory of its own (another
// machine).
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Procs {
		url, clock := pgtest.DB(t), storetest.Clock()
		return func() *session.Store {
			b, err := New(ctxT(t), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { b.Close() })
			b.Now = clock
			return &session.Store{Dir: t.TempDir(), Backend: b, Now: clock}
		}
	})
}
