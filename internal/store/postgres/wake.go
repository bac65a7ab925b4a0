package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Waking up: an answer's transaction notifies answerChannel with the set's
// key, and nothing else (a payload is seen by every listener of the
// database). The process's own connection listens (own.go) and wakes the
// waiters of that key, who then read the row. After every (re)connect it
// wakes every waiter, since a notification sent while it was away is
// lost: each reads its row again, and finds an answer given meanwhile.
const answerChannel = "askuser_answer"

// notifyTx sends key's notification with tx: it is delivered when tx
// commits, and never if it does not.
func notifyTx(ctx context.Context, tx pgx.Tx, key string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, answerChannel, key)
	return err
}
