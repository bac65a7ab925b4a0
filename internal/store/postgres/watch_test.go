package postgres

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// A process that holds its session and a set, and waits on the set, as
// every waiting process does, holds at most one connection while it
// waits (its watch's, kept between looks while few watches look), and
// none once many watches look: its pooled connections close when it
// starts to wait, and its watch looks on a connection of its own, closed
// at once. The answer still wakes it.
func TestWaitingProcessHoldsNoConnection(t *testing.T) {
	base := pgtest.DB(t)
	db := openTimed(t, base+"&application_name=waiting-run", Options{Patient: true}, holderTTL, restartGrace)
	watch := openURL(t, base) // counts from outside
	ctx := ctxT(t)
	j := create(t, db, "s1")
	defer j.Close()
	if _, ok, err := db.Hold(ctx, "wait:k1"); !ok || err != nil {
		t.Fatalf("hold: %v, %v", ok, err)
	}
	got := waitAsync(t, ctx, db, Box{Key: "k1"})
	held := func() int {
		var n int
		if err := watch.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'waiting-run'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if !eventually(func() bool { return db.watch.lookCount() > 2 && held() <= 1 }) {
		t.Errorf("a waiting process holds %d connections; want at most its watch's", held())
	}
	// Many watches look: the next renewal counts them, and the watch
	// keeps no connection from then on.
	for i := range heldWatches + 1 {
		if _, err := watch.pool.Exec(ctx, `INSERT INTO holders (id, polls, expires) VALUES ($1, true, now() + interval '1 hour')`, fmt.Sprint("other-", i)); err != nil {
			t.Fatal(err)
		}
	}
	db.watch.mu.Lock()
	db.watch.renewed = time.Time{}
	db.watch.mu.Unlock()
	if !eventually(func() bool { return db.watch.pollCount() > heldWatches && held() == 0 }) {
		t.Errorf("with %d watches looking, a waiting process holds %d connections; want none", db.watch.pollCount(), held())
	}
	if _, _, err := watch.Post(ctx, Box{Key: "k1"}, answer("alice")); err != nil {
		t.Fatal(err)
	}
	if a := <-got; a.By != "alice" {
		t.Errorf("woken with %+v", a)
	}
}

// The processes of one state directory share one watch: one looks for
// all, the others look not at all, are woken by it, and their holders are
// renewed by it; when it ends, another takes over.
func TestSharedWatch(t *testing.T) {
	if _, err := listenHub("askuser-probe-" + newHolderID()); err != nil {
		t.Skip("no watch is shared on this system:", err)
	}
	url := pgtest.DB(t)
	opts := Options{Patient: true, Share: t.TempDir()}
	first := openTimed(t, url, opts, time.Second, 0)
	ctx := ctxT(t)
	got1 := waitAsync(t, ctx, first, Box{Key: "k1"})
	if !eventually(func() bool { return first.watch.lookCount() > 0 }) {
		t.Fatal("the first waiter never looked")
	}
	second := openTimed(t, url, opts, time.Second, 0)
	other := openURL(t, url)
	if _, ok, err := second.TryLock(ctx, "channel:slack"); !ok || err != nil {
		t.Fatalf("take: %v, %v", ok, err)
	}
	got2 := waitAsync(t, ctx, second, Box{Key: "k2"})
	looked := first.watch.lookCount()
	if !eventually(func() bool { return first.watch.lookCount() > looked+5 }) {
		t.Fatal("the shared watch stopped looking")
	}
	if n := second.watch.lookCount(); n != 0 {
		t.Errorf("the follower looked %d times; want none: the shared watch looks for it", n)
	}
	if _, ok, _ := other.TryLock(ctx, "channel:slack"); ok {
		t.Error("the follower's lock was taken: the shared watch did not renew its holder")
	}
	if _, _, err := other.Post(ctx, Box{Key: "k2"}, answer("bob")); err != nil {
		t.Fatal(err)
	}
	if a := <-got2; a.By != "bob" {
		t.Errorf("the follower was woken with %+v", a)
	}
	// The shared watch's process ends (its wait first): the follower
	// takes over, and waits as before.
	if _, _, err := other.Post(ctx, Box{Key: "k1"}, answer("alice")); err != nil {
		t.Fatal(err)
	}
	<-got1
	first.Close()
	got3 := waitAsync(t, ctx, second, Box{Key: "k3"})
	if !eventually(func() bool { return second.watch.lookCount() > 0 }) {
		t.Fatal("nobody took the shared watch over")
	}
	if _, _, err := other.Post(ctx, Box{Key: "k3"}, answer("carol")); err != nil {
		t.Fatal(err)
	}
	if a := <-got3; a.By != "carol" {
		t.Errorf("after the take-over, woken with %+v", a)
	}
}

// Behind a pooler (askuser_watch=hold in the URL, which the driver never
// sees), a watch keeps its connection and looks every 250 ms however many
// watches look: a pooler's client connection costs the server nothing.
// Another value, or another parameter of askuser's, is refused, naming
// it.
func TestWatchHeldBehindAPooler(t *testing.T) {
	base := pgtest.DB(t)
	db := openTimed(t, base+"&application_name=pooled&askuser_watch=hold", Options{Patient: true}, holderTTL, restartGrace)
	watch := openURL(t, base)
	ctx := ctxT(t)
	for i := range heldWatches + 1 {
		if _, err := watch.pool.Exec(ctx, `INSERT INTO holders (id, polls, expires) VALUES ($1, true, now() + interval '1 hour')`, fmt.Sprint("other-", i)); err != nil {
			t.Fatal(err)
		}
	}
	got := waitAsync(t, ctx, db, Box{Key: "k1"})
	held := func() int {
		var n int
		if err := watch.pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pooled'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if !eventually(func() bool { return db.watch.pollCount() > heldWatches && db.watch.lookCount() > 3 && held() == 1 }) {
		t.Errorf("with %d watches looking, a watch told to hold keeps %d connections; want its one", db.watch.pollCount(), held())
	}
	if p := db.watch.period(); p != pollHold {
		t.Errorf("it looks every %s; want %s", p, pollHold)
	}
	if _, _, err := watch.Post(ctx, Box{Key: "k1"}, answer("alice")); err != nil {
		t.Fatal(err)
	}
	<-got
	for _, bad := range []string{"&askuser_watch=always", "&askuser_looks=9"} {
		if _, err := Open(ctx, base+bad); err == nil || !strings.Contains(err.Error(), bad[1:strings.Index(bad, "=")]) {
			t.Errorf("%s: %v; want it refused, named", bad, err)
		}
	}
}
