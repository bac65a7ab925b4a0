package postgres

import (
	"context"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Locks are PostgreSQL's session-level advisory locks, held on the
// process's own connection (own.go), outside the pool: when the process
// dies, its connection closes and the server releases them, as the kernel
// releases a dead process's file locks.
//
// A lock is named (a session, a channel, a set waited on) and taken by
// the 64-bit hash of its name. The server lets one connection take a lock
// it holds again; this process refuses that, as two opens of one file
// refuse each other's flock, so a name is held once per process too.
//
// If the own connection drops (the server restarted), every held lock is
// taken again on the next. A lock another process took meanwhile is lost:
// its holder learns it (Lost) before its next write, and the journal's
// numbered rows refuse a write from two processes anyway.

// releaseTimeout bounds giving a lock back: the connection's end gives it
// back anyway.
const releaseTimeout = 10 * time.Second

// lockKey is the advisory lock of name.
func lockKey(name string) int64 {
	h := fnv.New64a()
	io.WriteString(h, "askuser\x00"+name)
	return int64(h.Sum64())
}

// TryLock takes the lock name without waiting. ok is false when another
// process, or this one, holds it.
func (db *DB) TryLock(ctx context.Context, name string) (release func(), ok bool, err error) {
	o, key := db.own, lockKey(name)
	o.mu.Lock()
	if _, mine := o.held[key]; mine || o.taking[key] {
		o.mu.Unlock()
		return nil, false, nil
	}
	o.taking[key] = true
	o.mu.Unlock()
	got, err := o.do(ctx, `SELECT pg_try_advisory_lock($1)`, key, name)
	if err != nil || !got {
		o.mu.Lock()
		delete(o.taking, key) // asked in vain, or the answer never came
		o.mu.Unlock()
		return nil, false, err
	}
	var once sync.Once
	return func() { once.Do(func() { db.unlock(key) }) }, true, nil
}

func (db *DB) unlock(key int64) {
	o := db.own
	o.mu.Lock()
	delete(o.held, key)
	delete(o.lost, key)
	o.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_, _ = o.do(ctx, `SELECT pg_advisory_unlock($1)`, key, "")
}

// Lost reports whether this process held name and lost it to another
// process while its connection was down.
func (db *DB) Lost(name string) bool {
	db.own.mu.Lock()
	defer db.own.mu.Unlock()
	return db.own.lost[lockKey(name)]
}

// Held reports whether a process (this one included) holds the lock name.
func (db *DB) Held(ctx context.Context, name string) (bool, error) {
	held, err := db.HeldLocks(ctx, name)
	return held[name], err
}

// HeldLocks reports which of names a process holds, in one query.
func (db *DB) HeldLocks(ctx context.Context, names ...string) (map[string]bool, error) {
	out := make(map[string]bool, len(names))
	keys := make(map[int64]string, len(names))
	db.own.mu.Lock()
	for _, n := range names {
		k := lockKey(n)
		keys[k] = n
		if _, mine := db.own.held[k]; mine && !db.own.lost[k] {
			out[n] = true
		}
	}
	db.own.mu.Unlock()
	rows, err := db.pool.Query(ctx, `SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks
		WHERE locktype = 'advisory' AND objsubid = 1 AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
	if err != nil {
		return out, db.errorf("read the locks", err)
	}
	held, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return out, db.errorf("read the locks", err)
	}
	for _, k := range held {
		if n, ok := keys[k]; ok {
			out[n] = true
		}
	}
	return out, nil
}
