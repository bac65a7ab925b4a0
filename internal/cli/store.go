package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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

// storeOpenTimeout bounds connecting to the team store and migrating it.
const storeOpenTimeout = 30 * time.Second

// sessionStore is the command's store: its state directory and, when
// --store or ASKUSER_STORE names one, the team store. One is opened per
// command, and closed when it ends (Run).
func sessionStore(c *cli.Context, e *env) (*session.Store, error) {
	dir, _ := flagOrEnv(c, e, "state-dir", "ASKUSER_STATE_DIR")
	url, from := flagOrEnv(c, e, "store", storeEnv)
	return sessionStoreAt(dir, url, from, e)
}

// sessionStoreAt is the store of state directory dir (the default place
// when "") and team store url ("" for none), given by from.
func sessionStoreAt(dir, url, from string, e *env) (*session.Store, error) {
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
		ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
		defer cancel()
		b, err := postgres.New(ctx, url)
		if err != nil {
			return nil, withCode(ExitError, fmt.Errorf("%s: %w", from, err))
		}
		st.Backend = b
	}
	if e.stores == nil {
		e.stores = map[string]*session.Store{}
	}
	e.stores[key] = st
	return st, nil
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
