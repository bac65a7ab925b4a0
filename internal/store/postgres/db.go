package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/askuser/askuser/ask"
)

// DB is a connection to the team store: a small pool for queries, and,
// made when first needed, the process's own connection, which holds its
// locks and listens for answers (own.go).
type DB struct {
	pool *pgxpool.Pool
	cfg  *pgx.ConnConfig
	// shown is the URL without its password, quoted (ask.Excerpt), for
	// messages.
	shown    string
	password string

	// own is the process's own connection: its locks, and listening.
	own *own

	closeOnce sync.Once
}

// connectTimeout bounds a connection attempt when the URL sets none, so
// an unreachable host is an error, not a hang.
const connectTimeout = 10 * time.Second

// IsURL reports whether s names a PostgreSQL store.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Open connects to the store at rawURL and brings its schema up to this
// binary's version (migrate.go). Every error names the URL without its
// password.
func Open(ctx context.Context, rawURL string) (*DB, error) {
	shown, password := Redact(rawURL)
	shown = named(shown)
	if !IsURL(rawURL) {
		return nil, fmt.Errorf("%s is not a PostgreSQL URL: the store is postgres://user:password@host:port/database", shown)
	}
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		// pgx's message quotes the URL; ours shows it without its password.
		return nil, fmt.Errorf("%s is not a PostgreSQL URL (postgres://user:password@host:port/database): %s",
			shown, scrub(unwrapAll(err).Error(), password))
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	cfg.MaxConns = 4
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("the store %s: %s", shown, scrub(err.Error(), password))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot reach the store %s: %w", shown, scrubbed{err, password})
	}
	db := &DB{pool: pool, cfg: cfg.ConnConfig, shown: shown, password: password}
	db.own = newOwn(db)
	if err := db.migrate(ctx, len(migrations)); err != nil {
		pool.Close()
		return nil, err
	}
	return db, nil
}

// Close ends every connection: the locks this process holds are released.
func (db *DB) Close() {
	db.closeOnce.Do(func() {
		db.own.close()
		db.pool.Close()
	})
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
	if errors.As(err, &pgErr) {
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

// connect opens a connection of its own, outside the pool.
func (db *DB) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := pgx.ConnectConfig(ctx, db.cfg.Copy())
	if err != nil {
		return nil, db.errorf("connect", err)
	}
	return c, nil
}

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
