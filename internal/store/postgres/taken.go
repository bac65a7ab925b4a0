package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/askuser/askuser/internal/session"
)

// The deliveries taken: a row per delivery a chat channel took, by the
// platform's id. Taking one twice keeps the first row (ON CONFLICT DO
// NOTHING), so every machine on the store sees one record of it.

// Taken reports whether delivery id was taken.
func (db *DB) Taken(ctx context.Context, id string) (bool, error) {
	var one int
	err := db.pool.QueryRow(ctx, `SELECT 1 FROM taken_deliveries WHERE id = $1`, id).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, db.errorf("read the deliveries taken", err)
}

// Take records delivery id as taken at at.
func (db *DB) Take(ctx context.Context, id string, at time.Time) error {
	_, err := db.pool.Exec(ctx, `INSERT INTO taken_deliveries (id, taken) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, id, at)
	return db.errorf("record a delivery taken", err)
}

// PruneTaken forgets the deliveries taken before before.
func (db *DB) PruneTaken(ctx context.Context, before time.Time) error {
	_, err := db.pool.Exec(ctx, `DELETE FROM taken_deliveries WHERE taken < $1`, before)
	return db.errorf("prune the deliveries taken", err)
}

// Deliveries implements session.Backend.
func (b *Backend) Deliveries() session.Deliveries { return deliveries{b} }

type deliveries struct{ b *Backend }

func (d deliveries) Taken(ctx context.Context, id string) (bool, error) {
	if id == "" {
		return false, errors.New("deliveries: a delivery needs its id")
	}
	return d.b.db.Taken(ctx, id)
}

func (d deliveries) Take(ctx context.Context, id string, at time.Time) error {
	if id == "" {
		return errors.New("deliveries: a delivery needs its id")
	}
	return d.b.db.Take(ctx, id, at)
}

func (d deliveries) Prune(ctx context.Context, before time.Time) error {
	return d.b.db.PruneTaken(ctx, before)
}
