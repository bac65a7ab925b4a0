package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The pool's statements, each through retry: what the package runs
// against the store goes through one of these, so every operation waits
// out an outage the same way (retry.go).

// exec runs sql.
func (db *DB) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	err := db.retry(ctx, db.patience(), func(ctx context.Context) error {
		var err error
		tag, err = db.pool.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}

// queryRow runs sql and scans its one row into dest.
func (db *DB) queryRow(ctx context.Context, dest []any, sql string, args ...any) error {
	return db.retry(ctx, db.patience(), func(ctx context.Context) error {
		return db.pool.QueryRow(ctx, sql, args...).Scan(dest...)
	})
}

// query runs sql and collects its rows with collect, which is called
// again from the start when the query is tried again.
func (db *DB) query(ctx context.Context, collect func(pgx.Rows) error, sql string, args ...any) error {
	return db.retry(ctx, db.patience(), func(ctx context.Context) error {
		rows, err := db.pool.Query(ctx, sql, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := collect(rows); err != nil {
			return err
		}
		return rows.Err()
	})
}

// tx runs fn in a transaction, committed when fn returns nil; fn runs
// again, in a new transaction, when the store's reach failed under it.
func (db *DB) tx(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return db.retry(ctx, db.patience(), func(ctx context.Context) error {
		return pgx.BeginTxFunc(ctx, db.pool, opts, fn)
	})
}

// collectAll is a query's collect that gathers each row with one.
func collectAll[T any](out *[]T, one func(pgx.CollectableRow) (T, error)) func(pgx.Rows) error {
	return func(rows pgx.Rows) error {
		got, err := pgx.CollectRows(rows, pgx.RowToFunc[T](one))
		*out = got
		return err
	}
}
