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

// The damage cases of the contract, on rows edited by hand.
func TestStoreDamage(t *testing.T) {
	var db *DB
	exec := func(t *testing.T, sql string, args ...any) {
		if tag, err := db.pool.Exec(ctxT(t), sql, args...); err != nil || tag.RowsAffected() != 1 {
			t.Fatalf("%s: %v, %v", sql, tag, err)
		}
	}
	storetest.RunDamage(t, func(t *testing.T) storetest.Procs {
		url := pgtest.DB(t)
		db = openURL(t, url)
		return procsOf(t, url)
	}, storetest.Hand{
		MisfileEntry: func(t *testing.T, key, otherKey string) {
			exec(t, `UPDATE registry SET entry = replace(entry, $1, $2) WHERE key = $1`, key, otherKey)
		},
		EmptyAnswer: func(t *testing.T, box session.Box) {
			exec(t, `UPDATE mailbox SET delivery = regexp_replace(delivery, '"answers":\[.*?\],"by"', '"answers":[],"by"') WHERE key = $1`, box.Key)
		},
	})
}
