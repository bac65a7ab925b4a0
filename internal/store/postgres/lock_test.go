package postgres

import (
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// A lock is held once, in this process or another; others see it held;
// it is released by its holder, or by its connection dying.
func TestLocks(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	release, ok, err := db.TryLock(ctx, "channel:slack")
	if err != nil || !ok {
		t.Fatalf("take a free lock: %v, %v", ok, err)
	}
	if _, ok, _ := db.TryLock(ctx, "channel:slack"); ok {
		t.Error("one process took one lock twice")
	}
	if _, ok, _ := other.TryLock(ctx, "channel:slack"); ok {
		t.Error("two processes took one lock")
	}
	held, err := other.HeldLocks(ctx, "channel:slack", "channel:telegram")
	if err != nil || !held["channel:slack"] || held["channel:telegram"] {
		t.Errorf("held %v, %v; want slack only", held, err)
	}
	release()
	release() // twice is once
	r2, ok, err := other.TryLock(ctx, "channel:slack")
	if err != nil || !ok {
		t.Fatalf("take a released lock: %v, %v", ok, err)
	}
	r2()

	// A process that dies releases its locks: its connection closes.
	dying := openURL(t, url)
	if _, ok, _ := dying.TryLock(ctx, "session:s1"); !ok {
		t.Fatal("take a free lock")
	}
	dying.Close()
	// The server ends the closed connection's backend soon after.
	if !eventually(func() bool { _, ok, _ := other.TryLock(ctx, "session:s1"); return ok }) {
		t.Errorf("the lock of a closed connection is still held")
	}
}

// eventually reports whether cond holds within 10 s of asking.
func eventually(cond func() bool) bool {
	for range 1000 {
		if cond() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// The own connection killed under its holder is made again and its locks
// taken again; a lock another process took meanwhile is lost, and the
// journal it guarded refuses to be written.
func TestLockConnectionDropped(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	j := create(t, db, "kept")
	j2 := create(t, db, "taken")
	taken := holdReconnect(db) // the other process takes a lock before this one is back
	db.own.mu.Lock()
	pid := db.own.pid
	db.own.mu.Unlock()
	if _, err := other.pool.Exec(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
	var r func()
	if !eventually(func() bool { var ok bool; r, ok, _ = other.TryLock(ctx, SessionLock("taken")); return ok }) {
		t.Fatal("the killed connection's lock was not released")
	}
	defer r()
	close(taken)
	if !eventually(func() bool { return db.Lost(SessionLock("taken")) }) {
		t.Fatal("the holder did not learn it lost the lock")
	}
	if db.Lost(SessionLock("kept")) {
		t.Error("the lock nobody took was lost")
	}
	if !eventually(func() bool { held, _ := other.Held(ctx, SessionLock("kept")); return held }) {
		t.Error("the lock nobody took was not taken again")
	}
	if _, ok, _ := other.TryLock(ctx, SessionLock("kept")); ok {
		t.Error("another process took the lock taken again")
	}
	if err := j2.Append(ctx, rec(1)); err == nil {
		t.Error("a journal whose lock was lost was written")
	}
	if err := j.Append(ctx, rec(1)); err != nil {
		t.Errorf("the journal whose lock was taken again: %v", err)
	}
}

// A process that holds its session and waits on an answer, as every
// waiting run does, holds two connections: one of the pool, and its own,
// which holds the locks and listens. Fifty waiting runs then fit in
// PostgreSQL's default max_connections of 100.
func TestWaitingProcessConnections(t *testing.T) {
	base := pgtest.DB(t)
	db := openURL(t, base+"&application_name=waiting-run")
	watch := openURL(t, base) // counts from outside, so its query takes none of db's
	ctx := ctxT(t)
	j := create(t, db, "s1")
	defer j.Close()
	if _, ok, err := db.TryLock(ctx, "wait:k1"); !ok || err != nil {
		t.Fatalf("take a lock: %v, %v", ok, err)
	}
	got := waitAsync(t, ctx, db, Box{Key: "k1"})
	waitListening(t, db, 1)
	var n int
	if err := watch.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'waiting-run'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n > 2 {
		t.Errorf("a waiting process holds %d connections; want at most 2 (one pooled, its own)", n)
	}
	if _, _, err := db.Post(ctx, Box{Key: "k1"}, answer("alice")); err != nil {
		t.Fatal(err)
	}
	<-got
}

// holdReconnect makes db's own connection, once it has dropped, wait
// before it listens and takes its locks again, until the channel returned
// is closed.
func holdReconnect(db *DB) chan struct{} {
	hold := make(chan struct{})
	db.own.mu.Lock()
	defer db.own.mu.Unlock()
	db.own.beforeListen = func() {
		db.own.mu.Lock()
		again := db.own.connects > 1
		db.own.mu.Unlock()
		if again {
			<-hold
		}
	}
	return hold
}
