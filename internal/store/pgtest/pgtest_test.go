//go:build unix

package pgtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Run(m)) }

// The server answers, each test's database is its own, and a restart
// keeps what was committed.
func TestServer(t *testing.T) {
	srv := Shared(t)
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two tests got one database: %s", a)
	}
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SQL(name, "CREATE TABLE kept (v text); INSERT INTO kept VALUES ('before')"); err != nil {
		t.Fatal(err)
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	got, err := srv.SQL(name, "SELECT v FROM kept")
	if err != nil || got != "before" {
		t.Fatalf("after a restart: %q, %v; want the committed row", got, err)
	}
	if !strings.Contains(srv.URL(name), "host="+srv.Dir) {
		t.Errorf("URL %s does not name the socket directory %s", srv.URL(name), srv.Dir)
	}
}

// As root, the server runs as another user, who owns its files: initdb
// refuses root.
func TestNotRoot(t *testing.T) {
	srv := Shared(t)
	data, err := srv.SQL("postgres", "SELECT current_setting('data_directory')")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(data, "PG_VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	if uid := ownerOf(fi); uid == 0 {
		t.Errorf("the server's files belong to root")
	}
}

// Without PostgreSQL, a test skips saying how to install it, unless
// CI=true, where it fails.
func TestMissing(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		func() {
			defer func() { recover() }() // Skip and Fatal end the goroutine's test; the recorder panics instead
			missing(r, ErrNotInstalled)
		}()
		want := "skip"
		if ci == "true" {
			want = "fatal"
		}
		if r.how != want || !strings.Contains(r.msg, "sudo apt-get install -y postgresql") {
			t.Errorf("CI=%q: %s %q; want %s naming the install command", ci, r.how, r.msg, want)
		}
	}
}

// recorder records how a test was ended, and panics in place of ending it.
type recorder struct {
	testing.TB
	how, msg string
}

func (r *recorder) Helper() {}

func (r *recorder) Skip(args ...any) {
	r.how, r.msg = "skip", fmt.Sprint(args...)
	panic(r)
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.how, r.msg = "fatal", fmt.Sprintf(format, args...)
	panic(r)
}
