package postgres

import (
	"context"
	"hash/fnv"
	"io"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Leases: what a process holds (a session, a chat channel, a set it waits
// on), a row of leases each, under its holder (holder.go). A lease lasts
// while its holder is alive; the process gives it back when done, and
// the server's clock takes it back when the process is gone.
//
// A lock (TryLock) is a lease only one process holds: it is taken in a
// transaction holding the name's transaction-level advisory lock, after
// removing any dead holder that held it, so two processes never both
// take one. A hold (Hold) is a lease any number of processes hold at
// once (every process waiting on a set). Neither needs a connection kept
// open: both work through a pooler in transaction mode.
//
// A process holds a name once: it refuses to take again what it holds,
// as two opens of one file refuse each other's flock.

// releaseTimeout bounds how long giving a lease back waits for the store;
// one not given back is taken back with its holder.
const releaseTimeout = 10 * time.Second

// closeInterrupted bounds giving everything back at the end of an
// interrupted process.
const closeInterrupted = 2 * time.Second

// leases is this process's holder and what it holds.
type leases struct {
	db *DB
	id string
	me identity

	mu        sync.Mutex
	made      bool            // the holder's row was made
	held      map[string]bool // name → shared (a hold) or not (a lock)
	taking    map[string]bool // asked for, not answered yet
	lost      map[string]bool // locks another process took while this one was away
	reaped    time.Time       // the last reapLocal
	closed    bool
	onMade    func(id string) // told when the row is first made (watch.go)
	restoring sync.Mutex      // one restore at a time
}

func newLeases(db *DB) *leases {
	return &leases{db: db, id: newHolderID(), me: self(), held: map[string]bool{}, taking: map[string]bool{}, lost: map[string]bool{}}
}

// lockKey is the advisory lock of name, held while its lease is taken.
func lockKey(name string) int64 {
	h := fnv.New64a()
	io.WriteString(h, "askuser\x00"+name)
	return int64(h.Sum64())
}

// ensure makes this process's holder row, once, and starts renewing it.
func (l *leases) ensure(ctx context.Context) error {
	l.mu.Lock()
	made := l.made
	l.mu.Unlock()
	if made {
		return nil
	}
	if err := l.db.retry(ctx, l.db.patience(), l.insertHolder); err != nil {
		return err
	}
	l.mu.Lock()
	first := !l.made
	l.made = true
	tell := l.onMade
	l.mu.Unlock()
	if first && tell != nil {
		tell(l.id)
	}
	return nil
}

// take takes name: a lock when !shared, refused (ok false) while another
// live holder has it.
func (l *leases) take(ctx context.Context, name string, shared bool) (ok bool, err error) {
	l.mu.Lock()
	if _, mine := l.held[name]; mine || l.taking[name] || l.closed {
		l.mu.Unlock()
		return false, nil
	}
	l.taking[name] = true
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.taking, name)
		if ok {
			l.held[name] = shared
		}
		l.mu.Unlock()
	}()
	if err := l.ensure(ctx); err != nil {
		return false, err
	}
	_ = l.reapLocal(ctx) // best effort: a dead holder of another machine is seen by its expiry
	err = l.db.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		ok, err = l.takeIn(ctx, tx, name, shared)
		return err
	})
	if err != nil && ctx.Err() != nil {
		// Taken, perhaps, by a try whose answer never came: given back,
		// or nobody would ever release it.
		l.giveBack(name)
	}
	return ok && err == nil, err
}

// takeIn takes name for this process in tx.
func (l *leases) takeIn(ctx context.Context, tx pgx.Tx, name string, shared bool) (bool, error) {
	id := l.id
	if !shared {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(name)); err != nil {
			return false, err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM holders h WHERE h.id IN (SELECT holder FROM leases WHERE name = $1 AND holder <> $2) AND NOT `+l.db.aliveSQL(),
			name, id); err != nil {
			return false, err
		}
		var other bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM leases WHERE name = $1 AND holder <> $2)`, name, id).Scan(&other); err != nil || other {
			return false, err
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO leases (name, holder) VALUES ($1, $2) ON CONFLICT DO NOTHING`, name, id)
	return err == nil, err
}

// release gives name back.
func (l *leases) release(name string) {
	l.mu.Lock()
	_, mine := l.held[name]
	delete(l.held, name)
	delete(l.lost, name)
	l.mu.Unlock()
	if mine {
		l.giveBack(name)
	}
}

// giveBack deletes this process's lease of name, waiting at most
// releaseTimeout for the store.
func (l *leases) giveBack(name string) {
	ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	_, _ = l.db.exec(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, name, l.id)
}

// restore makes the holder's row again after it was removed (this
// process was away past its expiry), and takes again what it held: a
// lock another process took meanwhile is lost.
func (l *leases) restore(ctx context.Context) error {
	l.restoring.Lock()
	defer l.restoring.Unlock()
	l.mu.Lock()
	closed := l.closed
	l.mu.Unlock()
	if closed {
		return nil
	}
	if err := l.db.retry(ctx, l.db.patience(), l.insertHolder); err != nil {
		return err
	}
	l.mu.Lock()
	held := make(map[string]bool, len(l.held))
	for n, shared := range l.held {
		held[n] = shared
	}
	l.mu.Unlock()
	for name, shared := range held {
		var ok bool
		err := l.db.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
			var err error
			ok, err = l.takeIn(ctx, tx, name, shared)
			return err
		})
		if err != nil {
			return err
		}
		l.mu.Lock()
		if _, still := l.held[name]; still && !ok {
			l.lost[name] = true // said by the next write under it (Journal.Append)
		}
		l.mu.Unlock()
	}
	return nil
}

// close removes the holder's row: everything this process held is free.
func (l *leases) close() {
	l.mu.Lock()
	made := l.made
	l.closed, l.held = true, map[string]bool{}
	l.mu.Unlock()
	if made {
		// Interrupted, the process ends at once: a row left behind goes
		// with its expiry.
		wait := releaseTimeout
		if l.db.interrupted() {
			wait = closeInterrupted
		}
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = l.remove(ctx, []string{l.id})
	}
}

// TryLock takes the lock name without waiting. ok is false when another
// process, or this one, holds it.
func (db *DB) TryLock(ctx context.Context, name string) (release func(), ok bool, err error) {
	ok, err = db.leases.take(ctx, name, false)
	if err != nil || !ok {
		return nil, false, db.errorf("lock", err)
	}
	var once sync.Once
	return func() { once.Do(func() { db.leases.release(name) }) }, true, nil
}

// Hold holds name beside any other process that holds it. ok is false
// when this process holds it already (that hold stands).
func (db *DB) Hold(ctx context.Context, name string) (release func(), ok bool, err error) {
	ok, err = db.leases.take(ctx, name, true)
	if err != nil || !ok {
		return nil, false, db.errorf("hold", err)
	}
	var once sync.Once
	return func() { once.Do(func() { db.leases.release(name) }) }, true, nil
}

// Lost reports whether this process held name and lost it to another
// process while it was away from the store.
func (db *DB) Lost(name string) bool {
	db.leases.mu.Lock()
	defer db.leases.mu.Unlock()
	return db.leases.lost[name]
}

// Held reports whether a live process (this one included) holds name.
func (db *DB) Held(ctx context.Context, name string) (bool, error) {
	held, err := db.HeldLocks(ctx, name)
	return held[name], err
}

// HeldLocks reports which of names a live process holds, in one query.
func (db *DB) HeldLocks(ctx context.Context, names ...string) (map[string]bool, error) {
	out := make(map[string]bool, len(names))
	l := db.leases
	l.mu.Lock()
	for _, n := range names {
		if _, mine := l.held[n]; mine && !l.lost[n] {
			out[n] = true
		}
	}
	l.mu.Unlock()
	if err := l.reapLocal(ctx); err != nil {
		return out, db.errorf("read the leases", err)
	}
	var held []string
	err := db.query(ctx, collectAll(&held, pgx.RowTo[string]), `SELECT DISTINCT l.name FROM leases l JOIN holders h ON h.id = l.holder
		WHERE l.name = ANY($1) AND `+l.db.aliveSQL(), names)
	if err != nil {
		return out, db.errorf("read the leases", err)
	}
	for _, n := range held {
		out[n] = true
	}
	return out, nil
}
