package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Journals: a session is a row of sessions and its records are rows of
// records, numbered from 1. The store never reads what a record says: the
// session package encodes and replays them, the same lines as the files.
//
// A record is one INSERT, in the same statement as the update of its
// session's row (seq, updated, status): a connection dropped mid-append
// leaves the record and the session's row as they were, or both written,
// never half. The process that appends holds the session's lock, and
// numbers each record from the last it wrote: a second writer (one that
// took the session while this one was away past its lease) collides
// with the primary key instead of interleaving records.

// Info is what the sessions row says of a session.
type Info struct {
	ID        string
	Machine   string
	Directory string
	// Meta is the session header's meta, as JSON.
	Meta    []byte
	Created time.Time
	Updated time.Time
	// Status is the last status record's status ("" while a run goes on).
	Status string
	// Records is the number of records.
	Records int64
}

// Record is one journal line and what the sessions row learns from it.
type Record struct {
	// Line is the record as JSON, without a newline.
	Line []byte
	Type string
	At   time.Time
	// Status is a status record's status.
	Status string
}

// ErrExists: a session with that id is already stored.
var ErrExists = errors.New("a session with that id exists")

// ErrNoSession: no session has that id.
var ErrNoSession = errors.New("no such session")

// ErrLocked: another process (or this one, elsewhere) holds the session.
var ErrLocked = errors.New("the session is held by another process")

// SessionLock names a session's lock.
func SessionLock(id string) string { return "session:" + id }

// Journal is a session open for appending: it holds the session's lock
// until Close.
type Journal struct {
	db      *DB
	id      string
	release func()

	mu  sync.Mutex
	seq int64
}

// Create stores a new session, with its header as record 1, and holds it.
func (db *DB) Create(ctx context.Context, info Info, header Record) (*Journal, error) {
	release, ok, err := db.TryLock(ctx, SessionLock(info.ID))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("create session %s: %w", info.ID, ErrExists)
	}
	err = db.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO sessions (id, machine, directory, meta, created, updated, seq)
			VALUES ($1, $2, $3, $4, $5, $6, 1) ON CONFLICT (id) DO NOTHING`,
			info.ID, info.Machine, info.Directory, string(info.Meta), info.Created, header.At)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			// This very session, made by a try whose reply was lost?
			var first []byte
			err := tx.QueryRow(ctx, `SELECT record FROM records WHERE session_id = $1 AND seq = 1`, info.ID).Scan(&first)
			if err == nil && bytes.Equal(first, header.Line) {
				return nil
			}
			return ErrExists
		}
		_, err = tx.Exec(ctx, `INSERT INTO records (session_id, seq, type, at, record) VALUES ($1, 1, $2, $3, $4)`,
			info.ID, header.Type, header.At, string(header.Line))
		return err
	})
	if err != nil {
		release()
		if errors.Is(err, ErrExists) {
			return nil, fmt.Errorf("create session %s: %w", info.ID, ErrExists)
		}
		return nil, db.errorf("create session "+info.ID, err)
	}
	return &Journal{db: db, id: info.ID, release: release, seq: 1}, nil
}

// Open holds a session for appending and returns its records.
func (db *DB) Open(ctx context.Context, id string, limit int64) (*Journal, [][]byte, error) {
	release, ok, err := db.TryLock(ctx, SessionLock(id))
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, fmt.Errorf("session %s: %w", id, ErrLocked)
	}
	lines, seq, err := db.read(ctx, id, limit)
	if err != nil {
		release()
		return nil, nil, err
	}
	return &Journal{db: db, id: id, release: release, seq: seq}, lines, nil
}

// Read returns a session's records, at most limit bytes of them.
func (db *DB) Read(ctx context.Context, id string, limit int64) ([][]byte, error) {
	lines, _, err := db.read(ctx, id, limit)
	return lines, err
}

// ErrTooLarge is wrapped by the error of a journal past a read's limit.
var ErrTooLarge = errors.New("the journal is larger than askuser reads")

func (db *DB) read(ctx context.Context, id string, limit int64) ([][]byte, int64, error) {
	var lines [][]byte
	var seq, size int64
	err := db.tx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead}, func(tx pgx.Tx) error {
		lines, size = nil, 0
		if err := tx.QueryRow(ctx, `SELECT seq FROM sessions WHERE id = $1`, id).Scan(&seq); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT record FROM records WHERE session_id = $1 ORDER BY seq`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var line []byte
			if err := rows.Scan(&line); err != nil {
				return err
			}
			if size += int64(len(line)) + 1; limit > 0 && size > limit {
				return fmt.Errorf("session %s: %w (%d bytes)", id, ErrTooLarge, limit)
			}
			lines = append(lines, line)
		}
		return rows.Err()
	})
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, 0, fmt.Errorf("session %s: %w", id, ErrNoSession)
	case errors.Is(err, ErrTooLarge):
		return nil, 0, err
	case err != nil:
		return nil, 0, db.errorf("read session "+id, err)
	}
	return lines, seq, nil
}

// Append writes one record after the last, durably once it returns. The
// store out of reach is waited for, until ctx ends.
func (j *Journal) Append(ctx context.Context, r Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.release == nil {
		return fmt.Errorf("session %s is closed", j.id)
	}
	if j.db.Lost(SessionLock(j.id)) {
		return fmt.Errorf("session %s: this process lost its hold on it while the store %s was unreachable, and another process took it: %w",
			j.id, j.db.shown, ErrLocked)
	}
	seq := j.seq + 1
	err := j.db.retry(ctx, j.db.patience(), func(ctx context.Context) error { return j.insert(ctx, seq, r) })
	switch {
	case errors.Is(err, ErrLocked), errors.Is(err, ErrNoSession):
		return err
	case err != nil:
		return j.db.errorf("write session "+j.id, err)
	}
	j.seq = seq
	return nil
}

// insert writes record seq in one statement with its session's row. A
// record seq already there is this very record when its text is the same
// (an earlier try whose commit was not acknowledged): that is success.
func (j *Journal) insert(ctx context.Context, seq int64, r Record) error {
	tag, err := j.db.pool.Exec(ctx, `WITH r AS (
			INSERT INTO records (session_id, seq, type, at, record) VALUES ($1, $2, $3, $4, $5)
		)
		UPDATE sessions SET seq = $2, updated = $4,
			status = CASE WHEN $3 = 'status' THEN $6 ELSE status END
		WHERE id = $1`, j.id, seq, r.Type, r.At, string(r.Line), r.Status)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "23505": // unique_violation: record seq exists
		var have []byte
		if qerr := j.db.pool.QueryRow(ctx, `SELECT record FROM records WHERE session_id = $1 AND seq = $2`, j.id, seq).Scan(&have); qerr == nil && bytes.Equal(have, r.Line) {
			return nil
		}
		return fmt.Errorf("session %s: another process wrote to it (record %d is not this one's); stop the other process: %w", j.id, seq, ErrLocked)
	case errors.As(err, &pgErr) && pgErr.Code == "23503": // foreign_key_violation: the session is gone
		return fmt.Errorf("session %s was deleted: %w", j.id, ErrNoSession)
	case err != nil:
		return err
	case tag.RowsAffected() == 0:
		return fmt.Errorf("session %s was deleted: %w", j.id, ErrNoSession)
	}
	return nil
}

// Close releases the session.
func (j *Journal) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.release != nil {
		j.release()
		j.release = nil
	}
}

// Resolve finds the sessions whose id is ref or begins with it, at most
// max of them, in id order: an exact id first.
func (db *DB) Resolve(ctx context.Context, ref string, max int) ([]string, error) {
	var ids []string
	err := db.query(ctx, collectAll(&ids, pgx.RowTo[string]), `SELECT id FROM sessions WHERE starts_with(id, $1) ORDER BY id <> $1, id LIMIT $2`, ref, max)
	return ids, db.errorf("find session "+ref, err)
}

// Remove deletes a session, its records and answers, unless a process
// holds it.
func (db *DB) Remove(ctx context.Context, id string) error {
	release, ok, err := db.TryLock(ctx, SessionLock(id))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("session %s: %w", id, ErrLocked)
	}
	defer release()
	tag, err := db.exec(ctx, `DELETE FROM sessions WHERE id = $1`, id)
	if err != nil {
		return db.errorf("remove session "+id, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("session %s: %w", id, ErrNoSession)
	}
	return nil
}

// Truncate drops the records after the first keep: a damaged last one.
func (j *Journal) Truncate(ctx context.Context, keep int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	_, err := j.db.exec(ctx, `WITH d AS (DELETE FROM records WHERE session_id = $1 AND seq > $2)
		UPDATE sessions SET seq = $2 WHERE id = $1`, j.id, keep)
	if err != nil {
		return j.db.errorf("repair session "+j.id, err)
	}
	j.seq = keep
	return nil
}
