package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The registry: the sets waiting in the inbox or a chat channel, one row
// each, the entry as the session package encodes it. A read-modify-write
// (Update) runs in a transaction holding the key's transaction-level
// advisory lock, so two processes never lose each other's change, even
// of a key that has no row yet.

// Entry is one registry row.
type Entry struct {
	Key     string
	Session string
	Data    []byte
	Created time.Time
	Updated time.Time
}

// ErrNoEntry: the registry has no row under that key.
var ErrNoEntry = errors.New("no such registry entry")

// GetEntry returns the entry under key.
func (db *DB) GetEntry(ctx context.Context, key string) (Entry, error) {
	var e Entry
	err := db.retry(ctx, db.patience(), func(ctx context.Context) error {
		var err error
		e, err = getEntry(ctx, db.pool, key)
		return err
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return Entry{}, ErrNoEntry
	}
	return e, db.errorf("read the registry", err)
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func getEntry(ctx context.Context, q querier, key string) (Entry, error) {
	var e Entry
	var session *string
	err := q.QueryRow(ctx, `SELECT key, session_id, entry, created, updated FROM registry WHERE key = $1`, key).
		Scan(&e.Key, &session, &e.Data, &e.Created, &e.Updated)
	if session != nil {
		e.Session = *session
	}
	return e, err
}

// UpdateEntry reads the entry under key (found false when there is none),
// lets fn return its new data and session, and writes them, all under the
// key's lock. An error from fn, or nil data, leaves the row as it was.
func (db *DB) UpdateEntry(ctx context.Context, key string, now time.Time,
	fn func(old Entry, found bool) (data []byte, session string, err error)) error {
	err := db.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, lockKey("registry:"+key)); err != nil {
			return err
		}
		old, err := getEntry(ctx, tx, key)
		found := err == nil
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		data, session, err := fn(old, found)
		if err != nil {
			return fnError{err}
		}
		if data == nil {
			return nil
		}
		_, err = tx.Exec(ctx, `INSERT INTO registry (key, session_id, entry, created, updated) VALUES ($1, $2, $3, $4, $4)
			ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, updated = excluded.updated`,
			key, nullable(session), string(data), now)
		return err
	})
	var fe fnError
	if errors.As(err, &fe) {
		return fe.err // as fn gave it
	}
	return db.errorf("update the registry", err)
}

// fnError carries an error of UpdateEntry's fn out of its transaction.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

// Entries returns every entry, oldest first.
func (db *DB) Entries(ctx context.Context) ([]Entry, error) {
	var out []Entry
	err := db.query(ctx, collectAll(&out, func(row pgx.CollectableRow) (Entry, error) {
		var e Entry
		var session *string
		err := row.Scan(&e.Key, &session, &e.Data, &e.Created, &e.Updated)
		if session != nil {
			e.Session = *session
		}
		return e, err
	}), `SELECT key, session_id, entry, created, updated FROM registry ORDER BY created, key`)
	return out, db.errorf("read the registry", err)
}

// DeleteEntry removes the entry under key.
func (db *DB) DeleteEntry(ctx context.Context, key string) error {
	_, err := db.exec(ctx, `DELETE FROM registry WHERE key = $1`, key)
	return db.errorf("delete from the registry", err)
}
