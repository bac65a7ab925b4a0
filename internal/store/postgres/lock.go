package postgres

import (
	"context"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Locks are PostgreSQL's session-level advisory locks, held on one
// connection of this process's own, outside the pool: when the process
// dies, its connection closes and the server releases them, as the kernel
// releases a dead process's file locks.
//
// A lock is named (a session, a channel, a set waited on) and taken by
// the 64-bit hash of its name. The server lets one connection take a lock
// it holds again; the locker refuses that, as two opens of one file
// refuse each other's flock, so a name is held once per process too.
//
// If the lock connection drops (the server restarted), the keeper
// reconnects and takes every held lock again. A lock another process
// took meanwhile is lost: its holder learns it (Lost) before its next
// write, and the journal's numbered rows refuse a write from two
// processes anyway.
type locker struct {
	db *DB

	mu   sync.Mutex
	conn *pgx.Conn
	held map[int64]string
	lost map[int64]bool
	stop chan struct{}
	// logf says what the keeper did (a lock lost); nil is silent.
	logf func(format string, args ...any)
}

// keepEvery is how often the keeper checks the lock connection.
const keepEvery = time.Second

// lockKey is the advisory lock of name.
func lockKey(name string) int64 {
	h := fnv.New64a()
	io.WriteString(h, "askuser\x00"+name)
	return int64(h.Sum64())
}

// TryLock takes the lock name without waiting. ok is false when another
// process, or this one, holds it.
func (db *DB) TryLock(ctx context.Context, name string) (release func(), ok bool, err error) {
	return db.locks.try(ctx, name)
}

func (l *locker) try(ctx context.Context, name string) (func(), bool, error) {
	key := lockKey(name)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, mine := l.held[key]; mine {
		return nil, false, nil
	}
	if err := l.ensure(ctx); err != nil {
		return nil, false, err
	}
	var got bool
	if err := l.conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got); err != nil {
		l.drop()
		return nil, false, l.db.errorf("take a lock", err)
	}
	if !got {
		return nil, false, nil
	}
	l.held[key] = name
	l.startKeeper()
	var once sync.Once
	return func() { once.Do(func() { l.release(key) }) }, true, nil
}

func (l *locker) release(key int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.held[key]; !ok {
		return
	}
	delete(l.held, key)
	delete(l.lost, key)
	if l.conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := l.conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, key); err != nil {
		l.drop() // a dropped connection released it anyway
	}
}

// Lost reports whether this process held name and lost it to another
// process while its lock connection was down.
func (db *DB) Lost(name string) bool {
	l := db.locks
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost[lockKey(name)]
}

// ensure connects the lock connection, taking again the locks held on
// the one before. Called with mu held.
func (l *locker) ensure(ctx context.Context) error {
	if l.conn != nil && !l.conn.IsClosed() {
		return nil
	}
	l.drop()
	c, err := l.db.connect(ctx)
	if err != nil {
		return err
	}
	l.conn = c
	for key, name := range l.held {
		var got bool
		if err := c.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&got); err != nil {
			l.drop()
			return l.db.errorf("take a lock again", err)
		}
		if !got && !l.lost[key] {
			if l.lost == nil {
				l.lost = map[int64]bool{}
			}
			l.lost[key] = true
			if l.logf != nil {
				l.logf("askuser: lost the lock on %s to another process while the store was unreachable", name)
			}
		}
	}
	return nil
}

func (l *locker) drop() {
	if l.conn != nil {
		l.conn.Close(context.Background())
		l.conn = nil
	}
}

// startKeeper runs the keeper while locks are held. Called with mu held.
func (l *locker) startKeeper() {
	if l.stop != nil {
		return
	}
	l.stop = make(chan struct{})
	go l.keep(l.stop)
}

// keep checks the lock connection every keepEvery, and reconnects it
// when it dropped, until no lock is held.
func (l *locker) keep(stop chan struct{}) {
	t := time.NewTicker(keepEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		l.mu.Lock()
		if len(l.held) == 0 {
			l.stop = nil
			l.mu.Unlock()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if l.conn != nil && l.conn.Ping(ctx) != nil {
			l.drop()
		}
		_ = l.ensure(ctx) // unreachable: tried again at the next tick
		cancel()
		l.mu.Unlock()
	}
}

func (l *locker) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stop != nil {
		close(l.stop)
		l.stop = nil
	}
	l.drop()
	l.held = map[int64]string{}
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
	db.locks.mu.Lock()
	for _, n := range names {
		k := lockKey(n)
		keys[k] = n
		if _, mine := db.locks.held[k]; mine && !db.locks.lost[k] {
			out[n] = true
		}
	}
	db.locks.mu.Unlock()
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
