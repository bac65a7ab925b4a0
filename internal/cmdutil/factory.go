package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/postgres"
)

// Factory is what every command is built with: its streams, its
// environment and its stores. internal/app makes one per process; a
// test makes its own, with the streams and the environment it wants.
type Factory struct {
	// IOStreams are the command's standard streams and what they are.
	IOStreams *iostreams.IOStreams
	// Getenv reads the environment (os.Getenv; a test's map).
	Getenv func(string) string

	// stores are the command's session stores, by state directory and
	// team store (Store), closed when it ends (Close).
	stores map[string]*session.Store
}

// NewFactory is the factory of a command with streams ios and environment
// getenv.
func NewFactory(ios *iostreams.IOStreams, getenv func(string) string) *Factory {
	return &Factory{IOStreams: ios, Getenv: getenv}
}

// FlagOrEnv returns a flag's value, else the environment variable's, and
// names where it came from ("--flag" or the variable; "" when neither).
func (f *Factory) FlagOrEnv(value, flag, envVar string) (string, string) {
	if value != "" {
		return value, "--" + flag
	}
	if v := f.Getenv(envVar); v != "" {
		return v, envVar
	}
	return "", ""
}

// The store: where sessions, answers and locks are kept. By default the
// state directory's files; with --store (ASKUSER_STORE) a PostgreSQL
// database a team shares, so a question asked on one machine is listed
// and answered from any. The state directory stays in use either way,
// for what belongs to the machine (tool logs, serve's address and token).

// StoreEnv is the environment variable of --store.
const StoreEnv = "ASKUSER_STORE"

// storeOpenTimeout bounds connecting to the team store and migrating it.
const storeOpenTimeout = 30 * time.Second

// Store is the command's store: its state directory and, when --store or
// ASKUSER_STORE names one, the team store. One is opened per command, and
// closed when it ends (Close).
func (f *Factory) Store(s StoreFlags) (*session.Store, error) {
	dir, _ := f.FlagOrEnv(s.StateDir, "state-dir", "ASKUSER_STATE_DIR")
	url, from := f.FlagOrEnv(s.Store, "store", StoreEnv)
	return f.StoreAt(dir, url, from)
}

// StoreAt is the store of state directory dir (the default place when
// "") and team store url ("" for none), given by from.
func (f *Factory) StoreAt(dir, url, from string) (*session.Store, error) {
	dir = f.StateDir(dir)
	key := dir + "\x00" + url
	if st, ok := f.stores[key]; ok {
		return st, nil
	}
	st := &session.Store{Dir: dir}
	if url != "" {
		if !postgres.IsURL(url) {
			shown, _ := postgres.Redact(url)
			return nil, UsageErrorf("%s: %s is not a team store; it is a PostgreSQL URL, postgres://user@host:port/database", from, ask.Excerpt(shown))
		}
		ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
		defer cancel()
		b, err := postgres.New(ctx, url)
		if err != nil {
			return nil, WithCode(ExitError, fmt.Errorf("%s: %w", from, err))
		}
		st.Backend = b
	}
	if f.stores == nil {
		f.stores = map[string]*session.Store{}
	}
	f.stores[key] = st
	return st, nil
}

// Close closes the command's stores: their locks are released.
func (f *Factory) Close() {
	for _, st := range f.stores {
		st.Close()
	}
	f.stores = nil
}

// StateDir is dir, or the default state directory when dir is "".
func (f *Factory) StateDir(dir string) string {
	if dir != "" {
		return dir
	}
	if x := f.Getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "askuser")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "askuser")
	}
	return filepath.Join(os.TempDir(), "askuser-state")
}

// Machine names this machine in the sessions it starts: where a late
// answer may resume them. ASKUSER_MACHINE, where hostnames are not stable
// (containers, CI runners), else the hostname.
func (f *Factory) Machine() string {
	if m := strings.TrimSpace(f.Getenv("ASKUSER_MACHINE")); m != "" {
		return m
	}
	h, _ := os.Hostname()
	return h
}

// OpenSession opens a session by id (or a prefix only it has). An id that
// names no session, or several, is a usage error, whichever command gave
// it.
func OpenSession(store *session.Store, id string) (*session.Session, error) {
	s, err := store.Open(id)
	if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
		return nil, WithCode(ExitUsage, err)
	}
	return s, err
}
