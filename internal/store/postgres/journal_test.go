package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var t0 = time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

func header(id string) (Info, Record) {
	return Info{ID: id, Machine: "build-7", Directory: "/src/app", Meta: []byte(`{"id":"` + id + `"}`), Created: t0},
		Record{Line: []byte(`{"type":"session","meta":{"id":"` + id + `"}}`), Type: "session", At: t0}
}

func rec(n int) Record {
	return Record{Line: []byte(`{"type":"message","n":` + strconv.Itoa(n) + `}`), Type: "message", At: t0.Add(time.Duration(n) * time.Second)}
}

func create(t *testing.T, db *DB, id string) *Journal {
	t.Helper()
	info, h := header(id)
	j, err := db.Create(ctxT(t), info, h)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A journal reads back as written, record for record; the session's row
// follows its last record; one process holds a session at a time.
func TestJournal(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url) // another process
	ctx := ctxT(t)
	j := create(t, db, "s1")
	for i := 1; i <= 3; i++ {
		if err := j.Append(ctx, rec(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Append(ctx, Record{Line: []byte(`{"type":"status","status":"success"}`), Type: "status", At: t0.Add(time.Hour), Status: "success"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.Open(ctx, "s1", 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("open a held session from another process: %v; want ErrLocked", err)
	}
	if _, _, err := db.Open(ctx, "s1", 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("open a held session again in its process: %v; want ErrLocked", err)
	}
	if _, err := other.Create(ctx, Info{ID: "s1", Meta: []byte(`{}`), Created: t0}, rec(0)); !errors.Is(err, ErrExists) {
		t.Fatalf("create an existing session: %v; want ErrExists", err)
	}
	j.Close()
	j2, lines, err := other.Open(ctx, "s1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 5 || string(lines[2]) != string(rec(2).Line) {
		t.Fatalf("read back %q", lines)
	}
	if err := j2.Append(ctx, rec(5)); err != nil {
		t.Fatal(err)
	}
	j2.Close()
	infos, err := db.Sessions(ctx)
	if err != nil || len(infos) != 1 {
		t.Fatalf("sessions %+v, %v", infos, err)
	}
	in := infos[0]
	if in.Records != 6 || in.Status != "success" || in.Machine != "build-7" || in.Directory != "/src/app" || !in.Updated.Equal(rec(5).At) {
		t.Errorf("the session's row: %+v", in)
	}
	if _, err := db.Read(ctx, "s1", 100); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a read past its limit: %v; want ErrTooLarge", err)
	}
	if _, err := db.Read(ctx, "nope", 0); !errors.Is(err, ErrNoSession) {
		t.Errorf("read a missing session: %v; want ErrNoSession", err)
	}
}

// A session found by its id or the start of it; a held one is not
// removed; a removed one takes its records and answers with it.
func TestResolveRemove(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	for _, id := range []string{"ab1", "ab2", "ab_"} {
		create(t, db, id).Close()
	}
	for ref, want := range map[string]string{"ab": "[ab1 ab2 ab_]", "ab1": "[ab1]", "ab%": "[]", "a_": "[]", "ab_": "[ab_]"} {
		got, err := db.Resolve(ctx, ref, 10)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("resolve %q: %v, %v; want %s", ref, got, err, want)
		}
	}
	j, _, err := db.Open(ctx, "ab1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Remove(ctx, "ab1"); !errors.Is(err, ErrLocked) {
		t.Fatalf("remove a held session: %v; want ErrLocked", err)
	}
	if _, _, err := other.Post(ctx, Box{Session: "ab1", Key: "k"}, Answer{Delivery: []byte(`{}`), By: "x", At: t0}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	if err := other.Remove(ctx, "ab1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := db.Get(ctx, Box{Session: "ab1", Key: "k"}); ok {
		t.Error("the removed session's answer is still there")
	}
	if _, err := db.Read(ctx, "ab1", 0); !errors.Is(err, ErrNoSession) {
		t.Errorf("read a removed session: %v", err)
	}
	if _, _, err := other.Post(ctx, Box{Session: "ab1", Key: "k2"}, Answer{Delivery: []byte(`{}`), By: "x", At: t0}); !errors.Is(err, ErrNoSession) {
		t.Errorf("post to a removed session: %v; want ErrNoSession", err)
	}
}

// A connection dropped in the middle of an append leaves no record: the
// record and its session's row are one statement. The append is tried
// again, and written once.
func TestAppendConnectionDropped(t *testing.T) {
	db, url := open(t)
	ctx := ctxT(t)
	j := create(t, db, "s1")
	if err := j.Append(ctx, rec(1)); err != nil {
		t.Fatal(err)
	}
	// Another connection locks the session's row: the append's INSERT
	// runs, and its UPDATE waits.
	blocker, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer blocker.Close(context.Background())
	tx, err := blocker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM sessions WHERE id = 's1' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- j.Append(ctx, rec(2)) }()
	// A third connection watches: pg_stat_activity is read once per
	// transaction, and the blocker's transaction stays open.
	watch, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(context.Background())
	pid := waitingAppend(t, watch, 0)
	var killed bool
	if err := watch.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, pid).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the appending backend: %v, %v", killed, err)
	}
	// The append tries again, and waits on the row again: meanwhile the
	// killed try left nothing.
	select {
	case err := <-done:
		t.Fatalf("the append returned %v", err)
	case <-time.After(time.Second):
	}
	waitingAppend(t, watch, pid)
	var n int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM records WHERE session_id = 's1'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d records after the dropped append (%v); want the 2 written before it", n, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the append, tried again: %v", err)
	}
	lines, err := db.Read(ctx, "s1", 0)
	if err != nil || len(lines) != 3 || string(lines[2]) != string(rec(2).Line) {
		t.Fatalf("journal %q, %v; want the record once", lines, err)
	}
}

// waitingAppend returns the pid of the backend whose append waits on a
// lock, other than not.
func waitingAppend(t *testing.T, c *pgx.Conn, not int) int {
	t.Helper()
	for range 1000 {
		var pid int
		err := c.QueryRow(context.Background(), `SELECT pid FROM pg_stat_activity
			WHERE wait_event_type = 'Lock' AND query LIKE 'WITH r AS%' AND pid <> $1`, not).Scan(&pid)
		if err == nil {
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no append waits on the session's row")
	return 0
}
