package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/postgres"
)

// The store: where sessions, answers and locks are kept. By default the
// state directory's files; with --store (ASKUSER_STORE) a PostgreSQL
// database a team shares, so a question asked on one machine is listed
// and answered from any. The state directory stays in use either way,
// for what belongs to the machine (tool logs, serve's address and token).

// storeFlag is --store, beside --state-dir (in its help category, if
// any). A password in the URL would show in the process list: the usage
// says to keep it in the environment.
func storeFlag(category ...string) cli.Flag {
	return &cli.StringFlag{Name: "store", Category: strings.Join(category, ""),
		Usage: "keep sessions and answers in the team store at `URL` (postgres://user@host/db; env ASKUSER_STORE; " +
			"a password goes in ASKUSER_STORE, PGPASSWORD or ~/.pgpass, not in the process list); default: the state directory"}
}

// storeEnv is the environment variable of --store.
const storeEnv = "ASKUSER_STORE"

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

// openingOf is how command c opens the team store.
func openingOf(c *cli.Context) (storeOpening, context.CancelFunc) {
	ctx := c.Context
	if ctx == nil {
		ctx = context.Background()
	}
	name := c.Command.Name
	if !slices.Contains(waitingCommands, name) {
		octx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
		return storeOpening{ctx: octx, interrupt: ctx}, cancel
	}
	o := storeOpening{ctx: ctx, interrupt: ctx, patient: name != "serve", waitToOpen: true}
	if d := commandTimeout(c); d > 0 {
		ctx, cancel := context.WithTimeoutCause(ctx, d, fmt.Errorf("%w: the team store could not be reached within --timeout %s", ask.ErrTimeout, d))
		o.ctx = ctx
		return o, cancel
	}
	return o, func() {}
}

// commandTimeout is c's --timeout, when it has one (set, or by default).
func commandTimeout(c *cli.Context) time.Duration {
	for _, f := range c.Command.Flags {
		if slices.Contains(f.Names(), "timeout") {
			return c.Duration("timeout")
		}
	}
	return 0
}

// sessionStore is the command's store: its state directory and, when
// --store or ASKUSER_STORE names one, the team store. One is opened per
// command, and closed when it ends (Run).
func sessionStore(c *cli.Context, e *env) (*session.Store, error) {
	dir, _ := flagOrEnv(c, e, "state-dir", "ASKUSER_STATE_DIR")
	url, from := flagOrEnv(c, e, "store", storeEnv)
	o, cancel := openingOf(c)
	defer cancel()
	return sessionStoreAt(dir, url, from, e, o)
}

// sessionStoreAt is the store of state directory dir (the default place
// when "") and team store url ("" for none), given by from, opened as o
// says.
func sessionStoreAt(dir, url, from string, e *env, o storeOpening) (*session.Store, error) {
	dir = stateDirOr(dir, e)
	key := dir + "\x00" + url
	if st, ok := e.stores[key]; ok {
		return st, nil
	}
	st := &session.Store{Dir: dir}
	if url != "" {
		if !postgres.IsURL(url) {
			shown, _ := postgres.Redact(url)
			return nil, usageErrorf("%s: %s is not a team store; it is a PostgreSQL URL, postgres://user@host:port/database", from, ask.Excerpt(shown))
		}
		b, err := postgres.NewWith(o.ctx, url, postgres.Options{Patient: o.patient, WaitToOpen: o.waitToOpen,
			Interrupt: o.interrupt, Share: dir, Notice: func(msg string) { fmt.Fprintf(e.ios.ErrOut, "askuser: %s: %s\n", from, msg) }})
		if err != nil {
			return nil, openError(o.ctx, from, err)
		}
		st.Backend = b
	}
	if e.stores == nil {
		e.stores = map[string]*session.Store{}
	}
	e.stores[key] = st
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
	return withCode(ExitError, fmt.Errorf("%s: %w", from, err))
}

// closeStores closes the command's stores: their locks are released.
func (e *env) closeStores() {
	for _, st := range e.stores {
		st.Close()
	}
	e.stores = nil
}

// stateDirOr is dir, or the default state directory when dir is "".
func stateDirOr(dir string, e *env) string {
	if dir != "" {
		return dir
	}
	if x := e.getenv("XDG_STATE_HOME"); x != "" {
		return filepath.Join(x, "askuser")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "askuser")
	}
	return filepath.Join(os.TempDir(), "askuser-state")
}

// placeMeta records where a new session runs: this directory of this
// machine, where a late answer may resume it.
func placeMeta(m *session.Meta, e *env) {
	m.Cwd, _ = os.Getwd()
	m.Machine = machineName(e)
}

// machineName names this machine in the sessions it starts: where a
// late answer may resume them. ASKUSER_MACHINE, where hostnames are not
// stable (containers, CI runners), else the hostname.
func machineName(e *env) string {
	if m := strings.TrimSpace(e.getenv("ASKUSER_MACHINE")); m != "" {
		return m
	}
	h, _ := os.Hostname()
	return h
}
