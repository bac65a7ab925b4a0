package postgres

import (
	"context"
	"os"
	osexec "os/exec"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// A lock is held once, in this process or another; others see it held;
// it is released by its holder, or with its process.
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

	// A process that ends gives back what it holds.
	ending := openURL(t, url)
	if _, ok, _ := ending.TryLock(ctx, "session:s1"); !ok {
		t.Fatal("take a free lock")
	}
	ending.Close()
	if _, ok, _ := other.TryLock(ctx, "session:s1"); !ok {
		t.Errorf("the lock of a process that ended is still held")
	}
}

// A set is held by every process that waits on it: held while any does.
func TestHoldShared(t *testing.T) {
	a, url := open(t)
	b := openURL(t, url)
	ctx := ctxT(t)
	ra, ok, err := a.Hold(ctx, "wait:k1")
	if err != nil || !ok {
		t.Fatalf("hold: %v, %v", ok, err)
	}
	if _, ok, _ := a.Hold(ctx, "wait:k1"); ok {
		t.Error("one process held one set twice")
	}
	rb, ok, err := b.Hold(ctx, "wait:k1")
	if err != nil || !ok {
		t.Fatalf("a second process's hold: %v, %v", ok, err)
	}
	ra()
	if held, err := a.Held(ctx, "wait:k1"); !held || err != nil {
		t.Errorf("one of two holders gave it back: held %v, %v; want still held", held, err)
	}
	rb()
	if held, err := a.Held(ctx, "wait:k1"); held || err != nil {
		t.Errorf("both gave it back: held %v, %v", held, err)
	}
}

// A process that stops renewing its holder (away from the store, or
// killed on another machine) loses what it holds once its expiry passes,
// not before; back, it makes its holder again, takes again what nobody
// took, and learns which lock another took meanwhile: the journal it
// guarded refuses to be written.
func TestLeaseExpires(t *testing.T) {
	url := pgtest.DB(t)
	db := openTimed(t, url, Options{}, 2*time.Second, 0)
	other := openTimed(t, url, Options{}, 2*time.Second, 0)
	ctx := ctxT(t)
	j := create(t, db, "kept")
	j2 := create(t, db, "taken")
	db.watch.close() // no more renewals, as if the process were away
	if _, ok, _ := other.TryLock(ctx, SessionLock("taken")); ok {
		t.Fatal("a lock was taken before its holder's expiry")
	}
	var r func()
	if !eventually(func() bool { var ok bool; r, ok, _ = other.TryLock(ctx, SessionLock("taken")); return ok }) {
		t.Fatal("the lock of an expired holder was never free")
	}
	defer r()
	if held, _ := other.Held(ctx, SessionLock("kept")); held {
		t.Error("an expired holder's lock is said to be held")
	}
	if err := db.leases.restore(ctx); err != nil {
		t.Fatal(err)
	}
	if !db.Lost(SessionLock("taken")) || db.Lost(SessionLock("kept")) {
		t.Errorf("lost: taken %v, kept %v; want only the lock another took", db.Lost(SessionLock("taken")), db.Lost(SessionLock("kept")))
	}
	if held, _ := other.Held(ctx, SessionLock("kept")); !held {
		t.Error("the lock nobody took was not taken again")
	}
	if err := j2.Append(ctx, rec(1)); err == nil {
		t.Error("a journal whose lock was lost was written")
	}
	if err := j.Append(ctx, rec(1)); err != nil {
		t.Errorf("the journal whose lock was taken again: %v", err)
	}
}

// A holder's watch renews it: past several expiries, what it holds is
// still its own.
func TestLeaseRenewed(t *testing.T) {
	url := pgtest.DB(t)
	db := openTimed(t, url, Options{}, time.Second, 0)
	other := openTimed(t, url, Options{}, time.Second, 0)
	ctx := ctxT(t)
	if _, ok, err := db.TryLock(ctx, "channel:slack"); !ok || err != nil {
		t.Fatalf("take: %v, %v", ok, err)
	}
	for range 3 {
		renewed := db.watch.lookCount()
		if !eventually(func() bool { return db.watch.lookCount() > renewed+2 }) {
			t.Fatal("the holder is not renewed")
		}
		if _, ok, _ := other.TryLock(ctx, "channel:slack"); ok {
			t.Fatal("the lock of a live, renewed holder was taken")
		}
	}
}

// A process of this machine that is gone (killed, its connection or not)
// gives up what it held at once, to the next process of the machine that
// looks.
func TestLeaseOfAGoneProcess(t *testing.T) {
	db, url := open(t)
	if db.leases.me.machine == "" {
		t.Skip("this system names no machine: a gone process's leases end with their expiry")
	}
	ctx := ctxT(t)
	cmd := osexec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	_, started := machineOf(pid)
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO holders (id, machine, pid, started, expires) VALUES ('gone', $1, $2, $3, now() + interval '1 hour')`,
		db.leases.me.machine, pid, started); err != nil {
		t.Fatal(err)
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO leases (name, holder) VALUES ('session:s1', 'gone'), ('wait:k1', 'gone')`); err != nil {
		t.Fatal(err)
	}
	other := openURL(t, url)
	if held, err := other.Held(ctx, "wait:k1"); held || err != nil {
		t.Errorf("a set held by a gone process: held %v, %v", held, err)
	}
	if _, ok, err := other.TryLock(ctx, "session:s1"); !ok || err != nil {
		t.Errorf("a session held by a gone process: %v, %v; want it taken", ok, err)
	}
}

// A lock asked for by a caller that gives up while the store makes it
// wait (another transaction holds the name) is not taken for nobody: the
// name stays free, and this process may take it later.
func TestLockForACallerThatGaveUp(t *testing.T) {
	db, url := open(t)
	ctx := ctxT(t)
	const name = "channel:slack"
	blocker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(ctx)
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey(name)); err != nil {
		t.Fatal(err)
	}
	short, giveUp := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, ok, err := db.TryLock(short, name)
		if ok {
			err = nil
		}
		done <- err
	}()
	if !eventually(func() bool {
		var n int
		err := blocker.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&n)
		return err == nil && n == 1
	}) {
		t.Fatal("the request never reached the server")
	}
	giveUp()
	if err := <-done; err == nil {
		t.Fatal("a caller that gave up was told it got the lock")
	}
	tx.Rollback(ctx)
	if held, err := db.Held(ctx, name); held || err != nil {
		t.Errorf("after the caller gave up: held %v, %v", held, err)
	}
	r, ok, err := db.TryLock(ctx, name)
	if err != nil || !ok {
		t.Fatalf("this process cannot take the lock again: %v, %v", ok, err)
	}
	r()
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
