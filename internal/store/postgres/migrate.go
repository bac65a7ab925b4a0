package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The schema grows by migrations, applied in order by Open, each in a
// transaction of its own that also records its version in
// schema_version: a migration that fails leaves the schema as the last
// one that succeeded. Two processes starting at once are serialised by a
// transaction-level advisory lock, so each migration runs once. A
// database whose version is newer than this binary's is refused: this
// binary would not know what the newer tables mean.
//
// Never edit a migration that has shipped: add the next one.
var migrations = []string{
	// 1: sessions and their journals. A journal record is the line the
	// files store would write, unchanged (record), in a row of its own,
	// numbered within its session (seq); sessions.seq is the last one
	// written, so an append knows its number without reading. machine
	// and directory say where the session runs, status is its last status
	// record's ("" while a run goes on).
	`CREATE TABLE sessions (
		id        text PRIMARY KEY,
		machine   text NOT NULL DEFAULT '',
		directory text NOT NULL DEFAULT '',
		meta      jsonb NOT NULL,
		created   timestamptz NOT NULL,
		updated   timestamptz NOT NULL,
		status    text NOT NULL DEFAULT '',
		seq       bigint NOT NULL
	);
	CREATE INDEX sessions_updated ON sessions (updated DESC);
	CREATE TABLE records (
		session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
		seq        bigint NOT NULL,
		type       text NOT NULL,
		at         timestamptz NOT NULL,
		record     text NOT NULL,
		PRIMARY KEY (session_id, seq)
	);`,

	// 2: the answer mailbox, a row per question set, and the registry of
	// sets waiting in the inbox or a chat channel. A set is pending until
	// its first answer turns it answered; a set's answer goes with its
	// session, and its registry entry outlives it (its widget then says
	// it was withdrawn) until the relay prunes it.
	`CREATE TABLE mailbox (
		key         text PRIMARY KEY,
		session_id  text REFERENCES sessions (id) ON DELETE CASCADE,
		state       text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'answered')),
		delivery    text,
		answered_by text,
		answered_at timestamptz,
		created     timestamptz NOT NULL DEFAULT now()
	);
	CREATE INDEX mailbox_session ON mailbox (session_id);
	CREATE TABLE registry (
		key        text PRIMARY KEY,
		session_id text,
		entry      text NOT NULL,
		created    timestamptz NOT NULL,
		updated    timestamptz NOT NULL
	);`,

	// 3: the deliveries chat channels took from their platforms (a
	// WhatsApp message, a Telegram update, a Slack click), by the
	// platform's id, so one delivered again is taken no second time by
	// any machine; pruned by when it was taken.
	`CREATE TABLE taken_deliveries (
		id    text PRIMARY KEY,
		taken timestamptz NOT NULL
	);
	CREATE INDEX taken_deliveries_taken ON taken_deliveries (taken);`,

	// 4: liveness without a connection held (lease.go, holder.go). A
	// process that holds something (a session, a chat channel, a set it
	// waits on) has a row in holders, renewed while it lives, and a row
	// in leases per thing held. A holder is alive while its expiry is
	// ahead (or for a grace after the server started: an outage stops
	// every renewal); what a dead holder held is free. machine, pid and
	// started let a process of the same machine see at once that the
	// holder's process is gone; polls marks the processes that look for
	// answers, whose number sets how often each looks (watch.go).
	`CREATE TABLE holders (
		id      text PRIMARY KEY,
		machine text NOT NULL DEFAULT '',
		pid     bigint NOT NULL DEFAULT 0,
		started bigint NOT NULL DEFAULT 0,
		polls   boolean NOT NULL DEFAULT false,
		expires timestamptz NOT NULL
	);
	CREATE TABLE leases (
		name   text NOT NULL,
		holder text NOT NULL REFERENCES holders (id) ON DELETE CASCADE,
		taken  timestamptz NOT NULL DEFAULT now(),
		PRIMARY KEY (name, holder)
	);
	CREATE INDEX leases_holder ON leases (holder);`,

	// 5: a host session's transcript (Claude Code's .jsonl, Codex's
	// rollout, Gemini CLI's session file, OpenCode's export), compressed,
	// one row per session, replaced after every stop and continue, and
	// gone with its session. The session package bounds its size.
	`CREATE TABLE host_transcripts (
		session_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
		data       bytea NOT NULL,
		updated    timestamptz NOT NULL DEFAULT now()
	);`,
}

// migrateLock is the advisory lock migrations run under.
const migrateLock = 0x61736b75736572 // "askuser"

// ErrNewerSchema is wrapped by the error of a database migrated by a newer
// askuser.
var ErrNewerSchema = errors.New("the store's schema is newer than this askuser")

// migrate brings the schema to version to (len(migrations) but in tests).
// A schema already there is seen in one read, without the lock: a
// thousand processes starting at once do not queue for it.
func (db *DB) migrate(ctx context.Context, to int) error {
	var have int
	err := db.pool.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&have)
	if err == nil && have == to {
		return nil
	}
	var pgErr *pgconn.PgError
	if err != nil && !(errors.As(err, &pgErr) && pgErr.Code == "42P01") { // undefined_table: a new database
		return err
	}
	for {
		done, err := db.migrateOne(ctx, to)
		if err != nil || done {
			return err
		}
	}
}

// migrateOne applies the next migration, if one is due, and reports
// whether the schema is at version to.
func (db *DB) migrateOne(ctx context.Context, to int) (done bool, err error) {
	err = pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version int NOT NULL, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&have); err != nil {
			return err
		}
		if have > len(migrations) {
			return fmt.Errorf("%w: it is at version %d, and this askuser knows versions up to %d; use the newer askuser that migrated it, or another database",
				ErrNewerSchema, have, len(migrations))
		}
		if have >= to {
			done = true
			return nil
		}
		if _, err := tx.Exec(ctx, migrations[have]); err != nil {
			return fmt.Errorf("migrate to version %d: %w", have+1, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, have+1)
		return err
	})
	if errors.Is(err, ErrNewerSchema) {
		return false, fmt.Errorf("the store %s: %w", db.shown, err)
	}
	return done, err
}

// SchemaVersion is the schema version of the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := db.queryRow(ctx, []any{&v}, `SELECT coalesce(max(version), 0) FROM schema_version`)
	return v, db.errorf("read the schema version", err)
}
