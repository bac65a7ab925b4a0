package postgres

import (
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
// answer. The winner's transaction notifies the set's key (wake.go).

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
// already: first is that one, and nothing changed.
func (db *DB) Post(ctx context.Context, box Box, a Answer) (won bool, first Answer, err error) {
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
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
			return notifyTx(ctx, tx, box.Key)
		}
		return tx.QueryRow(ctx, `SELECT delivery, answered_by, answered_at FROM mailbox WHERE key = $1`, box.Key).
			Scan(&first.Delivery, &first.By, &first.At)
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23503" { // foreign_key_violation
		return false, Answer{}, fmt.Errorf("session %s was deleted: %w", box.Session, ErrNoSession)
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
	err := db.pool.QueryRow(ctx, `SELECT state, delivery, answered_by, answered_at FROM mailbox WHERE key = $1`, box.Key).
		Scan(&state, &delivery, &by, &at)
	if errors.Is(err, pgx.ErrNoRows) || err == nil && state != "answered" {
		return Answer{}, false, nil
	}
	if err != nil {
		return Answer{}, false, db.errorf("read the mailbox", err)
	}
	a.Delivery, a.By, a.At = []byte(*delivery), *by, *at
	return a, true, nil
}

// Wait returns box's answer as soon as it has one, or ctx's error. It is
// woken by the answer's notification; while the store is unreachable it
// tries again, and a connection made again reads again (wake.go), so an
// answer given meanwhile is found.
func (db *DB) Wait(ctx context.Context, box Box) (Answer, error) {
	woken, done := db.own.subscribe(box.Key)
	defer done()
	wait := retryFirst
	for {
		a, ok, err := db.Get(ctx, box)
		if ok {
			return a, nil
		}
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		var retry <-chan time.Time
		if err != nil { // unreachable: look again soon, as well as when the listener is back
			retry = time.After(wait)
			wait = min(wait*2, retryMost)
		} else {
			wait = retryFirst
		}
		select {
		case <-ctx.Done():
			return Answer{}, ctx.Err()
		case <-woken:
		case <-retry:
		}
	}
}

// PruneAnswers removes the answers to sets asked outside a session given
// before before; a session's go with the session.
func (db *DB) PruneAnswers(ctx context.Context, before time.Time) error {
	_, err := db.pool.Exec(ctx, `DELETE FROM mailbox WHERE session_id IS NULL AND state = 'answered' AND answered_at < $1`, before)
	return db.errorf("prune the mailbox", err)
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
