package pgtest

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
)

// The package's one server, started by the first DB and stopped by Run.
var shared struct {
	sync.Mutex
	srv *Server
	err error
	ran bool
}

// Run runs a test package's tests and then stops its server, if one was
// started: call it from TestMain, as os.Exit(pgtest.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	if shared.srv != nil {
		if err := shared.srv.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: stop the server:", err)
		}
		shared.srv = nil
	}
	return code
}

// Shared returns the package's server, starting it on first use. Where
// PostgreSQL is not installed it skips t, saying how to install it, or
// fails t under CI=true.
func Shared(t testing.TB) *Server {
	t.Helper()
	shared.Lock()
	defer shared.Unlock()
	if !shared.ran {
		shared.ran = true
		shared.srv, shared.err = Start()
	}
	if shared.err != nil {
		missing(t, shared.err)
	}
	return shared.srv
}

// DB creates a database of its own for t on the package's server and
// returns its URL.
func DB(t testing.TB) string {
	t.Helper()
	srv := Shared(t)
	shared.Lock()
	name, err := srv.CreateDB()
	shared.Unlock()
	if err != nil {
		t.Fatalf("create a test database: %v", err)
	}
	return srv.URL(name)
}

// missing ends t for a server that could not start.
func missing(t testing.TB, err error) {
	t.Helper()
	if errors.Is(err, ErrNotInstalled) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	t.Fatalf("PostgreSQL: %v", err)
}

// Own starts a server of t's own, with settings (Start), closed when t
// ends: for a test that restarts or stops its server, which would disrupt
// the package's other tests, or that needs settings of its own. Where
// PostgreSQL is missing it skips t, or fails it under CI=true, as Shared
// does.
func Own(t testing.TB, settings ...string) *Server {
	t.Helper()
	srv, err := Start(settings...)
	if err != nil {
		missing(t, err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}
