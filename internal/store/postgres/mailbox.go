package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The answer mailbox: a row per question set, pending until its first
// answer. Posting inserts the row if it is not there yet, then turns it
// answered with a conditional UPDATE … WHERE state = 'pending': of two
// posts at once, the second waits on the first's row lock and then finds
// the row answered, so exactly one wins, and the loser reads the winner's
// answer. Waiters find it by their watch's next look (watch.go).

// Answer is the first answer to a set, as the session package encodes it,
// and who gave it when (for the "already answered" message).
type Answer struct {
	Delivery []byte
	By       string
	At       time.Time
}

// Box names a set's mailbox row: its key, and its session ("" for a set
// asked outside one).
type Box struct {
	Session string
	Key     string
}

// Post gives box its answer a. won is false when the set had an answer
// already: first is that one, and nothing changed. An answer found to be
// a itself (posted by a try whose reply was lost) is won.
func (db *DB) Post(ctx context.Context, box Box, a Answer) (won bool, first Answer, err error) {
	err = db.tx(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO mailbox (key, session_id) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`,
			box.Key, nullable(box.Session)); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE mailbox SET state = 'answered', delivery = $2, answered_by = $3, answered_at = $4
			WHERE key = $1 AND state = 'pending'`, box.Key, string(a.Delivery), a.By, a.At)
		if err != nil {
			return err
		}
		if won = tag.RowsAffected() == 1; won {
			return nil
		}
		return tx.QueryRow(ctx, `SELECT delivery, answered_by, answered_at FROM mailbox WHERE key = $1`, box.Key).
			Scan(&first.Delivery, &first.By, &first.At)
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" { // foreign_key_violation
		return false, Answer{}, fmt.Errorf("session %s was deleted: %w", box.Session, ErrNoSession)
	}
	if err == nil && !won && bytes.Equal(first.Delivery, a.Delivery) {
		return true, Answer{}, nil
	}
	return won, first, db.errorf("post an answer", err)
}

// Get returns box's answer, if it has one.
func (db *DB) Get(ctx context.Context, box Box) (Answer, bool, error) {
	var a Answer
	var state string
	var delivery *string
	var by *string
	var at *time.Time
	err := db.queryRow(ctx, []any{&state, &delivery, &by, &at}, `SELECT state, delivery, answered_by, answered_at FROM mailbox WHERE key = $1`, box.Key)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && state != "answered" {
		return Answer{}, false, nil
	}
	if err != nil {
		return Answer{}, false, db.errorf("read the mailbox", err)
	}
	a.Delivery, a.By, a.At = []byte(*delivery), *by, *at
	return a, true, nil
}

// GetMany returns the answers of the sets keys that have one, in one
// query.
func (db *DB) GetMany(ctx context.Context, keys []string) (map[string]Answer, error) {
	out := make(map[string]Answer, len(keys))
	err := db.query(ctx, func(rows pgx.Rows) error {
		clear(out)
		for rows.Next() {
			var k string
			var a Answer
			var delivery string
			if err := rows.Scan(&k, &delivery, &a.By, &a.At); err != nil {
				return err
			}
			a.Delivery = []byte(delivery)
			out[k] = a
		}
		return nil
	}, `SELECT key, delivery, answered_by, answered_at FROM mailbox WHERE key = ANY($1) AND state = 'answered'`, keys)
	return out, db.errorf("read the mailbox", err)
}

// Wait returns box's answer as soon as it has one, or ctx's error. It
// reads box's row, then again whenever this process's watch finds it
// answered (watch.go), and at least every waitRecheck; while the store
// cannot be reached it waits for it.
func (db *DB) Wait(ctx context.Context, box Box) (Answer, error) {
	woken, done := db.watch.subscribe(box.Key)
	defer done()
	for {
		a, ok, err := db.Get(ctx, box)
		if ok {
			return a, nil
		}
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		if err != nil && classify(err) == final {
			return Answer{}, err
		}
		db.releaseIdle()
		t := time.NewTimer(jitter(waitRecheck))
		select {
		case <-ctx.Done():
			t.Stop()
			return Answer{}, ctx.Err()
		case <-woken:
		case <-t.C:
		}
		t.Stop()
	}
}

// PruneAnswers removes the answers to sets asked outside a session given
// before before; a session's go with the session.
func (db *DB) PruneAnswers(ctx context.Context, before time.Time) error {
	_, err := db.exec(ctx, `DELETE FROM mailbox WHERE session_id IS NULL AND state = 'answered' AND answered_at < $1`, before)
	return db.errorf("prune the mailbox", err)
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
