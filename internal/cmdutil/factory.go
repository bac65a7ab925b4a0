package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// storeOpenTimeout bounds how long a command that does not wait for an
// answer (sessions, cancel, channels) waits for a team store that is full
// or starting up.
const storeOpenTimeout = 30 * time.Second

// waitingCommands wait for an answer, or serve those who do: they wait
// out a team store that is down, full or restarting, from their start,
// bounded only by their own --timeout and Ctrl+C, and say so meanwhile.
var waitingCommands = []string{"ask", "run", "resume", "demo", "mcp", "hook", "serve"}

// storeOpening is how a command opens the team store.
type storeOpening struct {
	// ctx ends the wait for the store at Open: Ctrl+C, the command's
	// --timeout; interrupt ends every later wait (Ctrl+C).
	ctx, interrupt context.Context
	// patient: a process that waits for an answer (postgres.Options).
	patient, waitToOpen bool
}

// openingOf is how the command s was read from opens the team store.
func openingOf(s StoreFlags) (storeOpening, context.CancelFunc) {
	ctx := s.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if !slices.Contains(waitingCommands, s.Command) {
		octx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
		return storeOpening{ctx: octx, interrupt: ctx}, cancel
	}
	o := storeOpening{ctx: ctx, interrupt: ctx, patient: s.Command != "serve", waitToOpen: true}
	if s.Timeout > 0 {
		ctx, cancel := context.WithTimeoutCause(ctx, s.Timeout, fmt.Errorf("%w: the team store could not be reached within --timeout %s", ask.ErrTimeout, s.Timeout))
		o.ctx = ctx
		return o, cancel
	}
	return o, func() {}
}

// Store is the command's store: its state directory and, when --store or
// ASKUSER_STORE names one, the team store. One is opened per command, and
// closed when it ends (Close).
func (f *Factory) Store(s StoreFlags) (*session.Store, error) {
	dir, _ := f.FlagOrEnv(s.StateDir, "state-dir", "ASKUSER_STATE_DIR")
	url, from := f.FlagOrEnv(s.Store, "store", StoreEnv)
	o, cancel := openingOf(s)
	defer cancel()
	return f.storeAt(dir, url, from, o)
}

// StoreAt is the store of state directory dir (the default place when
// "") and team store url ("" for none), given by from, opened as a
// command that waits for no answer opens it (completion).
func (f *Factory) StoreAt(dir, url, from string) (*session.Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	return f.storeAt(dir, url, from, storeOpening{ctx: ctx, interrupt: context.Background()})
}

func (f *Factory) storeAt(dir, url, from string, o storeOpening) (*session.Store, error) {
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
		b, err := postgres.NewWith(o.ctx, url, postgres.Options{Patient: o.patient, WaitToOpen: o.waitToOpen,
			Interrupt: o.interrupt, Share: dir, Notice: func(msg string) { fmt.Fprintf(f.IOStreams.ErrOut, "askuser: %s: %s\n", from, msg) }})
		if err != nil {
			return nil, openError(o.ctx, from, err)
		}
		st.Backend = b
	}
	if f.stores == nil {
		f.stores = map[string]*session.Store{}
	}
	f.stores[key] = st
	return st, nil
}

// openError is the command's error when the team store did not open: a
// wait ended by Ctrl+C is a cancellation (exit 130), by the command's own
// --timeout a timeout (exit 7); anything else is the store's error.
func openError(ctx context.Context, from string, err error) error {
	if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
		if errors.Is(cause, ask.ErrTimeout) {
			return fmt.Errorf("%s: %w (%w)", from, cause, err)
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("%s: %w", from, ask.CtxErr(ctx))
		}
	}
	return WithCode(ExitError, fmt.Errorf("%s: %w", from, err))
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
