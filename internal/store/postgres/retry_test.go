package postgres

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// fullServer is a server of the test's own whose every connection is
// taken; free gives one back.
func fullServer(t *testing.T) (url string, free func()) {
	t.Helper()
	srv := pgtest.Own(t, "max_connections=4", "superuser_reserved_connections=0")
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	url = srv.URL(name)
	if db := openURL(t, url); db != nil {
		db.Close() // migrated, so that Open only reads
	}
	ctx := ctxT(t)
	var conns []*pgx.Conn
	for {
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			if classify(err) != busy {
				t.Fatalf("fill the server: %v", err)
			}
			break
		}
		conns = append(conns, c)
	}
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close(context.Background())
		}
	})
	return url, func() { conns[0].Close(ctx); conns = conns[1:] }
}

// notices collects what a process is told of the store.
type notices struct {
	mu  sync.Mutex
	got []string
}

func (n *notices) tell(s string) { n.mu.Lock(); n.got = append(n.got, s); n.mu.Unlock() }

func (n *notices) said(part string) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, s := range n.got {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// A full server is no failure: Open waits for a free connection, saying
// so, and opens once one is free.
func TestOpenWaitsForAFreeConnection(t *testing.T) {
	url, free := fullServer(t)
	var told notices
	opened := make(chan error, 1)
	go func() {
		db, err := OpenWith(ctxT(t), url, Options{Notice: told.tell})
		if err == nil {
			db.Close()
		}
		opened <- err
	}()
	if !eventually(func() bool { return told.said("cannot reach the store") }) {
		t.Fatal("nobody was told the store is waited for")
	}
	if !told.said("(SQLSTATE 53300)") {
		t.Errorf("the notice does not say why: %q", told.got)
	}
	free()
	if err := <-opened; err != nil {
		t.Fatalf("open once a connection was free: %v", err)
	}
	if !told.said("answers again") {
		t.Errorf("nobody was told the store answers again: %q", told.got)
	}
}

// Ctrl+C while no connection is free ends the wait at once.
func TestOpenInterrupted(t *testing.T) {
	url, _ := fullServer(t)
	var told notices
	interrupt, ctrlC := context.WithCancel(context.Background())
	opened := make(chan error, 1)
	ctx := ctxT(t)
	go func() {
		_, err := OpenWith(ctx, url, Options{Patient: true, Interrupt: interrupt, Notice: told.tell})
		opened <- err
	}()
	if !eventually(func() bool { return told.said("cannot reach the store") }) {
		t.Fatal("nobody was told the store is waited for")
	}
	ctrlC()
	err := <-opened
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "cannot reach the store") {
		t.Errorf("interrupted while the server is full: %v (context: %v); want the wait ended at once, saying why", err, ctx.Err())
	}
}

// A patient process started while the server is down waits for it.
func TestPatientOpenWaitsForTheServer(t *testing.T) {
	srv := pgtest.Own(t)
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	var told notices
	opened := make(chan error, 1)
	go func() {
		db, err := OpenWith(ctxT(t), srv.URL(name), Options{Patient: true, Notice: told.tell})
		if err == nil {
			db.Close()
		}
		opened <- err
	}()
	if !eventually(func() bool { return told.said("cannot reach the store") }) {
		t.Fatal("nobody was told the store is waited for")
	}
	if err := srv.StartAgain(); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatalf("open once the server is back: %v", err)
	}
}

// A connection the server ended (a restart, an administrator) is found
// broken by the next statement, which is tried again at once on a new
// one: a page loaded just after a restart is drawn, not an error.
func TestBrokenConnectionTriedAgain(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	var pid uint32
	if err := db.pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if _, err := other.pool.Exec(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Sessions(ctx); err != nil {
		t.Fatalf("the first statement after the connection was ended: %v", err)
	}
	if db.triedAgain.Load() == 0 {
		t.Error("the broken connection was never used: the test proves nothing")
	}
}

// An outage stops every renewal at once: a holder whose expiry passed
// while the server was stopped is alive again when it starts, until its
// renewals resume, and what it holds is not taken.
func TestOutageStrandsNobody(t *testing.T) {
	srv := pgtest.Own(t)
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	db := openTimed(t, srv.URL(name), Options{Patient: true}, time.Second, restartGrace)
	ctx := ctxT(t)
	if _, ok, err := db.Hold(ctx, "wait:k1"); !ok || err != nil {
		t.Fatalf("hold: %v, %v", ok, err)
	}
	db.watch.close() // no renewal until well after the server is back
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // past the holder's expiry
	if err := srv.StartAgain(); err != nil {
		t.Fatal(err)
	}
	other := openURL(t, srv.URL(name))
	if held, err := other.Held(ctx, "wait:k1"); !held || err != nil {
		t.Errorf("just after an outage a waiter's set is held %v (%v); want held", held, err)
	}
}

// A file the URL names that cannot be read is said to be: it is the
// file's fault, not the URL's.
func TestMissingCertificate(t *testing.T) {
	_, err := Open(ctxT(t), "postgres://alice:s3cr3t@db.example/team?sslmode=verify-full&sslrootcert=/nonexistent/root.crt")
	if err == nil {
		t.Fatal("opened a store whose root certificate is missing")
	}
	msg := err.Error()
	if strings.Contains(msg, "not a PostgreSQL URL") || !strings.Contains(msg, "cannot read /nonexistent/root.crt (sslrootcert)") ||
		!strings.Contains(msg, "no such file") || strings.Contains(msg, "s3cr3t") {
		t.Errorf("error %q: want the missing file named, as sslrootcert, without the password", msg)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("the error waited for nothing")
	}
}
