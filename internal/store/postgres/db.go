package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/askuser/askuser/ask"
)

// DB is the team store: a small pool of connections for queries, closed
// when idle, so a process that waits holds none (doc.go); this process's
// leases (lease.go); and its watch on the sets it waits for (watch.go).
type DB struct {
	pool *pgxpool.Pool
	cfg  *pgx.ConnConfig
	// shown is the URL without its password, quoted (ask.Excerpt), for
	// messages.
	shown    string
	password string
	opts     Options

	leases *leases
	watch  *watcher
	// ttl and grace are holderTTL and restartGrace (holder.go), but in
	// tests.
	ttl, grace time.Duration
	// holdWatch: every watch keeps its connection (askuser_watch=hold).
	holdWatch bool

	outageMu sync.Mutex
	outage   bool // an outage was told of (retry.go)
	// triedAgain counts the operations tried again at once on a new
	// connection, for tests.
	triedAgain atomic.Int64

	closeOnce sync.Once
}

// Options are how a process uses the store.
type Options struct {
	// Patient is a process that waits for an answer: it waits out the
	// store out of reach (down, restarting, full) wherever it meets it,
	// Open included, until each operation's context ends. Any other
	// process waits, at Open, for a store that is full or starting up;
	// then an operation fails once the store cannot be reached, or after
	// briefWait of a server full or restarting (a connection broken by a
	// restart is tried again at once, always).
	Patient bool
	// WaitToOpen makes Open wait for a store that is down, as a patient
	// process's does, in a process whose operations are not patient
	// (askuser serve: its pages answer at once, an error if they must).
	WaitToOpen bool
	// Interrupt ends every wait for the store when it is done (Ctrl+C):
	// each operation is then tried once, and fails if it must.
	Interrupt context.Context
	// Notice is told, once per outage, that the store is waited for, and
	// then that it answers again.
	Notice func(string)
	// Share names the processes that share one watch of the store (the
	// state directory): one of them looks for the answers of all
	// (hub.go). "" shares with none.
	Share string
	// MaxConns bounds the connections this process holds at once
	// (defaultConns when 0); idle ones are closed after idleClose.
	MaxConns int32
}

// Connections of a process.
const (
	// connectTimeout bounds a connection attempt when the URL sets none,
	// so an unreachable host is an error, not a hang.
	connectTimeout = 10 * time.Second
	defaultConns   = 2
	// idleClose is how long a connection stays open unused; a process
	// that starts to wait closes its idle ones at once (releaseIdle).
	idleClose = time.Second
)

// IsURL reports whether s names a PostgreSQL store.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the store at rawURL and brings its schema up to this
// binary's version (migrate.go). Every error names the URL without its
// password.
func Open(ctx context.Context, rawURL string) (*DB, error) { return OpenWith(ctx, rawURL, Options{}) }

// OpenWith is Open with opts. A store that is full or starting up is
// waited for until ctx ends; one that cannot be reached, only by a
// patient process (Options.Patient).
func OpenWith(ctx context.Context, rawURL string, opts Options) (*DB, error) {
	shown, password := Redact(rawURL)
	shown = named(shown)
	if !IsURL(rawURL) {
		return nil, fmt.Errorf("%s is not a PostgreSQL URL: the store is postgres://user:password@host:port/database", shown)
	}
	pgURL, own, err := ownParams(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", shown, err)
	}
	cfg, err := pgxpool.ParseConfig(pgURL)
	if err != nil {
		return nil, parseError(shown, password, err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	if cfg.ConnConfig.RuntimeParams["application_name"] == "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = "askuser"
	}
	if !strings.Contains(pgURL, "default_query_exec_mode") {
		// Statements described once per connection, and run on the
		// unnamed statement: nothing is prepared on a server session, so
		// the store works through a pooler in transaction mode as it
		// does on a server.
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
	cfg.MaxConns, cfg.MinConns = defaultConns, 0
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.MaxConnIdleTime, cfg.HealthCheckPeriod = idleClose, idleClose
	pool, err := pgxpool.NewWithConfig(context.WithoutCancel(ctx), cfg)
	if err != nil {
		return nil, fmt.Errorf("the store %s: %s", shown, scrub(err.Error(), password))
	}
	db := &DB{pool: pool, cfg: cfg.ConnConfig, shown: shown, password: password, opts: opts, ttl: holderTTL, grace: restartGrace,
		holdWatch: own.holdWatch}
	db.leases = newLeases(db)
	db.watch = newWatcher(db)
	p := waitBusy
	if opts.Patient || opts.WaitToOpen {
		p = waitAll
	}
	err = db.retry(ctx, p, func(ctx context.Context) error { return db.migrate(ctx, len(migrations)) })
	if err != nil {
		pool.Close()
		var connectErr *pgconn.ConnectError
		switch {
		case transient(err):
			return nil, fmt.Errorf("cannot reach the store %s: %w", shown, scrubbed{err, password})
		case errors.As(err, &connectErr):
			return nil, fmt.Errorf("cannot connect to the store %s: %w", shown, scrubbed{err, password})
		case errors.Is(err, ErrNewerSchema):
			return nil, err
		}
		return nil, fmt.Errorf("prepare the store %s: %w", shown, scrubbed{err, password})
	}
	return db, nil
}

// urlParams are askuser's own parameters of a store's URL, which the
// driver never sees.
type urlParams struct {
	// holdWatch (askuser_watch=hold): every watch keeps its connection
	// between looks, however many look: behind a pooler, whose client
	// connections cost the server nothing (watch.go).
	holdWatch bool
}

// ownParams takes askuser's own parameters (askuser_…) out of rawURL.
func ownParams(rawURL string) (string, urlParams, error) {
	var p urlParams
	u, err := url.Parse(rawURL)
	if err != nil || !strings.Contains(u.RawQuery, "askuser_") {
		return rawURL, p, nil // pgx says what is wrong with it
	}
	q := u.Query()
	for k, v := range q {
		if !strings.HasPrefix(k, "askuser_") {
			continue
		}
		switch {
		case k == "askuser_watch" && len(v) == 1 && (v[0] == "hold" || v[0] == "auto"):
			p.holdWatch = v[0] == "hold"
		case k == "askuser_watch":
			return "", p, fmt.Errorf("askuser_watch=%s: give askuser_watch=hold (behind a pooler: every machine's watch keeps its connection) or auto", ask.Excerpt(strings.Join(v, ",")))
		default:
			return "", p, fmt.Errorf("no parameter %s: askuser's own is askuser_watch", ask.Excerpt(k))
		}
		q.Del(k)
	}
	u.RawQuery = q.Encode()
	return u.String(), p, nil
}

// parseError says what is wrong with a URL pgx refused: a file it names
// that cannot be read (a TLS certificate or key, a service file) is that
// file's fault, not the URL's.
func parseError(shown, password string, err error) error {
	inner := unwrapAll(err)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		setting := "a file the URL names"
		for _, f := range [][2]string{{"read CA file", "sslrootcert"}, {"read sslkey", "sslkey"}, {"read cert", "sslcert"}, {"read service", "service"}} {
			if strings.Contains(err.Error(), f[0]) {
				setting = f[1]
			}
		}
		return fmt.Errorf("the store %s: cannot read %s (%s): %s", shown, pathErr.Path, setting, scrub(pathErr.Err.Error(), password))
	}
	msg := err.Error()
	var pce *pgconn.ParseConfigError
	if errors.As(err, &pce) {
		// pgx's message quotes the URL; ours shows it without its password.
		if i := strings.Index(msg, "`: "); i >= 0 {
			msg = msg[i+3:]
		}
		if strings.Contains(msg, "failed to configure TLS") {
			return fmt.Errorf("the store %s: its TLS settings: %s", shown, scrub(msg, password))
		}
	} else {
		msg = inner.Error()
	}
	return fmt.Errorf("%s is not a PostgreSQL URL (postgres://user:password@host:port/database): %s", shown, scrub(msg, password))
}

// Close ends every connection and gives back this process's leases.
func (db *DB) Close() {
	db.closeOnce.Do(func() {
		db.watch.close()
		db.leases.close()
		db.pool.Close()
	})
}

// releaseIdle closes the pool's idle connections now: a process that
// starts to wait holds none, and gives its slots to the processes
// starting beside it.
func (db *DB) releaseIdle() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	for _, c := range db.pool.AcquireAllIdle(ctx) {
		_ = c.Hijack().Close(ctx)
	}
}

// String is the store's URL without its password.
func (db *DB) String() string { return db.shown }

// errorf words an error of the store: what failed, where, and the
// driver's reason without the password.
func (db *DB) errorf(what string, err error) error {
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && !transient(err) {
		return fmt.Errorf("%s in the store %s: %w", what, db.shown, err)
	}
	return fmt.Errorf("%s: cannot reach the store %s: %w", what, db.shown, scrubbed{err, db.password})
}

// scrubbed is an error whose text has the password removed; errors.Is
// and As still see what it wraps.
type scrubbed struct {
	err      error
	password string
}

func (s scrubbed) Error() string { return scrub(s.err.Error(), s.password) }
func (s scrubbed) Unwrap() error { return s.err }

// namedChars is how long a store's name in messages may be before it is
// cut: enough for a host's full name, a socket's folder, a database and
// its settings.
const namedChars = 4 * ask.ExcerptChars

// named is how messages quote a store's URL, without its password
// (Redact): quoted, a socket's folder (host=/run/postgresql) with its
// slashes, and cut only past namedChars.
func named(shown string) string {
	// A slash needs no escape in a query.
	s := strings.ReplaceAll(shown, "%2F", "/")
	if utf8.RuneCountInString(s) > namedChars {
		return ask.Excerpt(s)
	}
	return strconv.Quote(s)
}

// Redact returns rawURL without its password, and the password. A URL
// that does not parse is shown as no URL at all.
func Redact(rawURL string) (shown, password string) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)", ""
	}
	if u.User != nil {
		password, _ = u.User.Password()
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	for _, k := range []string{"password", "sslpassword"} {
		if v := q.Get(k); v != "" {
			if password == "" {
				password = v
			}
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), password
}

// scrub removes password from a driver's message, in case one quotes it.
func scrub(msg, password string) string {
	if password == "" {
		return msg
	}
	msg = strings.ReplaceAll(msg, password, "xxxxx")
	return strings.ReplaceAll(msg, url.QueryEscape(password), "xxxxx")
}

func unwrapAll(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
