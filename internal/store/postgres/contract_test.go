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
	storetest.Run(t, func(t *testing.T) storetest.Procs { return procsOf(t, pgtest.DB(t)) })
}

// procsOf makes the processes of a case over the database at url, on one
// clock.
func procsOf(t *testing.T, url string) storetest.Procs {
	clock := storetest.Clock()
	return func() *session.Store {
		b, err := New(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		b.Now = clock
		return &session.Store{Dir: t.TempDir(), Backend: b, Now: clock}
	}
}

// Removing a session is not stopped by another session's damaged registry
// entry (a case of the contract that damages a row).
func TestRemoveBesideDamage(t *testing.T) {
	url := pgtest.DB(t)
	db := openURL(t, url)
	procs := procsOf(t, url)
	storetest.RemoveBesideDamage(t, procs, func(t *testing.T, key, otherKey string) {
		if _, err := db.pool.Exec(ctxT(t), `UPDATE registry SET entry = replace(entry, $1, $2) WHERE key = $1`, key, otherKey); err != nil {
			t.Fatal(err)
		}
	})
}
