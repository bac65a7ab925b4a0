package postgres

import (
	"context"
	"testing"
)

// A lock the own connection takes for a caller that gave up waiting (its
// context ended while the request ran: a slow or restarting server) is
// given back at once: kept, nobody would ever release it, every process
// would see it held, and this one would refuse to take it again for as
// long as it lives (askuser serve could then never hold its channel).
func TestLockTakenForACallerThatGaveUp(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	const name = "channel:slack"
	release, ok, err := other.TryLock(ctx, name)
	if err != nil || !ok {
		t.Fatalf("take a free lock: %v, %v", ok, err)
	}
	// A request that waits on the server while its caller gives up: one
	// that blocks until the other process lets the lock go.
	short, giveUp := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := db.own.do(short, &request{sql: `SELECT pg_advisory_lock($1)::text = ''`, key: lockKey(name), name: name})
		done <- err
	}()
	if !eventually(func() bool {
		var n int
		err := other.pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`).Scan(&n)
		return err == nil && n == 1
	}) {
		t.Fatal("the request never reached the server")
	}
	giveUp()
	if err := <-done; err == nil {
		t.Fatal("a caller that gave up was told it got the lock")
	}
	release() // the request now takes the lock, for nobody
	if !eventually(func() bool {
		r, ok, _ := other.TryLock(ctx, name)
		if ok {
			r()
		}
		return ok
	}) {
		t.Error("the lock taken for a caller that gave up is still held")
	}
	r, ok, err := db.TryLock(ctx, name)
	if err != nil || !ok {
		t.Fatalf("this process cannot take the lock again: %v, %v", ok, err)
	}
	r()
}
