package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
)

// A holder is a process that holds something in the store, seen alive by
// its row of holders (migration 3), which it renews (watch.go), not by a
// connection it keeps open: a process that waits holds no connection, and
// a thousand of them fit in a server of a hundred connections.
//
// A holder is alive while its row's expiry is ahead of the server's
// clock. An outage stops every renewal at once, so a holder is alive, too,
// until holderTTL after the server started: a restart, or a stop of a
// minute, strands nobody; the renewals resume before that grace ends. The
// expiry is long enough (holderTTL) to carry a process through a minute
// without the store; a process of another machine killed without a word
// is seen gone once it passes.
//
// On one machine a holder is seen gone at once: its row names the machine
// (its boot and process namespace), its process id and when that process
// started, and a process of the same machine that finds the process gone
// removes the row (reap). A holder found dead is removed before anything
// it held is taken; a process whose row was removed (it was away past its
// expiry) makes it again and takes again what it held, and learns what
// another took meanwhile (lease.go).

// Timings of a holder.
const (
	holderTTL = 90 * time.Second
	// restartGrace is how long after the server started every holder is
	// alive.
	restartGrace = holderTTL
)

// renewEvery is how often a holder's expiry is pushed back: 20 s of
// holderTTL's 90.
func (db *DB) renewEvery() time.Duration { return db.ttl * 2 / 9 }

// aliveSQL is true of a holders row h that is alive (db.ttl and db.grace
// are holderTTL and restartGrace, but in tests).
func (db *DB) aliveSQL() string {
	return fmt.Sprintf(`(h.expires > now() OR pg_postmaster_start_time() > now() - interval '%d milliseconds')`, db.grace.Milliseconds())
}

// expirySQL is a new expiry.
func (db *DB) expirySQL() string {
	return fmt.Sprintf(`now() + interval '%d milliseconds'`, db.ttl.Milliseconds())
}

// identity is where a process runs: its machine as the system names it
// ("" where it cannot say: such a holder is seen gone only by its
// expiry), its id, and when it started.
type identity struct {
	machine string
	pid     int64
	started int64
}

// newHolderID names a process's holder: random, so two processes never
// share one, even across machines and restarts.
func newHolderID() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// self is this process's identity (holder_*.go for the machine).
func self() identity {
	m, started := machineOf(os.Getpid())
	return identity{machine: m, pid: int64(os.Getpid()), started: started}
}

// insertHolder makes (or renews) this process's holder row.
func (l *leases) insertHolder(ctx context.Context) error {
	_, err := l.db.pool.Exec(ctx, `INSERT INTO holders (id, machine, pid, started, expires) VALUES ($1, $2, $3, $4, `+l.db.expirySQL()+`)
		ON CONFLICT (id) DO UPDATE SET expires = excluded.expires`, l.id, l.me.machine, l.me.pid, l.me.started)
	return err
}

// reapLocal removes the rows of this machine's holders whose process is
// gone, so what they held is free at once. At most once a second.
func (l *leases) reapLocal(ctx context.Context) error {
	if l.me.machine == "" {
		return nil
	}
	l.mu.Lock()
	due := time.Since(l.reaped) >= time.Second
	if due {
		l.reaped = time.Now()
	}
	l.mu.Unlock()
	if !due {
		return nil
	}
	type row struct {
		id           string
		pid, started int64
	}
	var rows []row
	err := l.db.query(ctx, collectAll(&rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		return x, r.Scan(&x.id, &x.pid, &x.started)
	}), `SELECT id, pid, started FROM holders WHERE machine = $1 AND id <> $2`, l.me.machine, l.id)
	if err != nil {
		return err
	}
	var dead []string
	for _, r := range rows {
		if !processAlive(r.pid, r.started) {
			dead = append(dead, r.id)
		}
	}
	return l.remove(ctx, dead)
}

// remove deletes holders ids, and with them what they held.
func (l *leases) remove(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := l.db.exec(ctx, `DELETE FROM holders WHERE id = ANY($1)`, ids)
	return err
}
