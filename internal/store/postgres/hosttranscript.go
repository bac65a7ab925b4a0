package postgres

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/askuser/askuser/internal/session"
)

var _ session.HostTranscripts = (*Backend)(nil)

// PutHostTranscript keeps data as session id's host transcript, in one
// statement that replaces the one kept before: a dropped connection
// leaves the old copy or the new one, never half.
func (b *Backend) PutHostTranscript(id session.ID, data []byte) error {
	ctx, cancel := b.ctx()
	defer cancel()
	tag, err := b.db.exec(ctx, `INSERT INTO host_transcripts (session_id, data, updated)
		SELECT id, $2, now() FROM sessions WHERE id = $1
		ON CONFLICT (session_id) DO UPDATE SET data = excluded.data, updated = excluded.updated`, string(id), data)
	if err != nil {
		return b.db.errorf("keep the host transcript of session "+string(id), err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("keep the host transcript: %w %s in %s", session.ErrNotFound, id, b.db.shown)
	}
	return nil
}

// HostTranscript returns session id's host transcript, if one is kept.
func (b *Backend) HostTranscript(id session.ID) ([]byte, bool, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	var data []byte
	err := b.db.queryRow(ctx, []any{&data}, `SELECT data FROM host_transcripts WHERE session_id = $1`, string(id))
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, b.db.errorf("read the host transcript of session "+string(id), err)
	}
	return data, true, nil
}
