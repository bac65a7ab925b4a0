package postgres

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Run(m)) }

// open opens a new database of the package's server, migrated.
func open(t *testing.T) (*DB, string) {
	t.Helper()
	url := pgtest.DB(t)
	db := openURL(t, url)
	return db, url
}

func openURL(t *testing.T, url string) *DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// openTimed opens the database at url with opts, its holders expiring
// after ttl and alive for grace after the server started (holder.go).
func openTimed(t *testing.T, url string, opts Options, ttl, grace time.Duration) *DB {
	t.Helper()
	db, err := OpenWith(ctxT(t), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	db.ttl, db.grace = ttl, grace
	t.Cleanup(db.Close)
	return db
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// An unreachable database is an error naming the URL without its
// password, at once.
func TestUnreachable(t *testing.T) {
	const secret = "s3cr3t-pw"
	for _, url := range []string{
		"postgres://alice:" + secret + "@127.0.0.1:1/team?sslmode=disable",
		"postgresql://alice@127.0.0.1:1/team?sslmode=disable&password=" + secret,
	} {
		_, err := Open(ctxT(t), url)
		if err == nil {
			t.Fatalf("%s: opened a store on a closed port", url)
		}
		msg := err.Error()
		if strings.Contains(msg, secret) || !strings.Contains(msg, "alice@127.0.0.1:1/team") {
			t.Errorf("error %q: want the URL without its password", msg)
		}
	}
	_, err := Open(ctxT(t), "mysql://bob:"+secret+"@db/x")
	if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "not a PostgreSQL URL") {
		t.Errorf("a URL of another scheme: %v; want it refused without its password", err)
	}
	_, err = Open(ctxT(t), "postgres://bob:"+secret+"@db/x?connect_timeout=zz")
	if err == nil || strings.Contains(err.Error(), secret) {
		t.Errorf("a URL that does not parse: %v; want it refused without its password", err)
	}
}

// Open migrates an empty database to the newest version, and a database
// at an older version to the newest, keeping what it holds; a database
// newer than the binary is refused.
func TestMigrate(t *testing.T) {
	url := pgtest.DB(t)
	ctx := ctxT(t)
	old, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	// Back to version 1: every table a later migration made is dropped.
	if _, err := exec(t, url, `DO $$ DECLARE t text; BEGIN
		FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
			AND tablename NOT IN ('sessions', 'records', 'schema_version') LOOP
			EXECUTE 'DROP TABLE ' || quote_ident(t) || ' CASCADE';
		END LOOP; END $$;
		DELETE FROM schema_version WHERE version > 1`); err != nil {
		t.Fatal(err)
	}
	// At version 1, a session with its journal.
	if _, err := exec(t, url, `INSERT INTO sessions (id, meta, created, updated, seq) VALUES ('s1', '{}', now(), now(), 1);
		INSERT INTO records (session_id, seq, type, at, record) VALUES ('s1', 1, 'session', now(), '{"type":"session"}')`); err != nil {
		t.Fatal(err)
	}
	db := openURL(t, url)
	if v, err := db.SchemaVersion(ctx); err != nil || v != len(migrations) {
		t.Fatalf("version %d, %v; want %d", v, err, len(migrations))
	}
	lines, err := db.Read(ctx, "s1", 0)
	if err != nil || len(lines) != 1 || string(lines[0]) != `{"type":"session"}` {
		t.Fatalf("after the migration the journal reads %q, %v", lines, err)
	}
	if won, _, err := db.Post(ctx, Box{Session: "s1", Key: "k1"}, Answer{Delivery: []byte(`{}`), By: "a person", At: time.Now()}); err != nil || !won {
		t.Fatalf("the new mailbox: won %v, %v", won, err)
	}
	if err := db.Take(ctx, "whatsapp:m1", time.Now()); err != nil {
		t.Fatalf("the new record of deliveries taken: %v", err)
	}

	if _, err := exec(t, url, `INSERT INTO schema_version (version) VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	_, err = Open(ctx, url)
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("a newer schema: %v; want ErrNewerSchema naming its version", err)
	}
}

// Two processes starting on an empty database at once migrate it once.
func TestMigrateAtOnce(t *testing.T) {
	url := pgtest.DB(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := Open(ctxT(t), url)
			if err == nil {
				db.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	got, err := exec(t, url, `SELECT count(*) FROM schema_version`)
	if err != nil || got != strconv.Itoa(len(migrations)) {
		t.Errorf("schema_version has %s rows (%v); want one per migration", got, err)
	}
}

// exec runs SQL in the database of url, through the harness's psql.
func exec(t *testing.T, url, sql string) (string, error) {
	t.Helper()
	srv := pgtest.Shared(t)
	db := url[strings.Index(url, "@/")+2 : strings.Index(url, "?")]
	return srv.SQL(db, sql)
}

// Messages name a store in full, without its password, even when its URL
// is long, as a socket's folder makes it.
func TestStoreNamedInFull(t *testing.T) {
	dir := "/tmp/askuser-team-store-of-the-build-machines/" + strings.Repeat("s", 40)
	_, err := Open(ctxT(t), "postgres://alice:pw@/team?host="+dir+"&sslmode=disable&connect_timeout=1&application_name=ci")
	if err == nil {
		t.Fatal("opened a store whose socket folder does not exist")
	}
	want := `"postgres://alice@/team?application_name=ci&connect_timeout=1&host=` + dir + `&sslmode=disable"`
	if msg := err.Error(); !strings.Contains(msg, want) || strings.Contains(msg, "pw") {
		t.Errorf("error %q: want the store named %s, without its password", msg, want)
	}
	if got := named(strings.Repeat("x", 300)); !strings.Contains(got, "(300 characters)") {
		t.Errorf("a name of 300 characters is shown as %s; want it cut", got)
	}
}
