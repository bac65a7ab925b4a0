package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Listing: what askuser sessions and the inbox read of every session, in
// a few queries whatever the number of sessions: the sessions rows, then
// every record of the sessions asked for, then (lease.go) the leases held.

// Sessions returns what the sessions rows say of every session, most
// recently updated first.
func (db *DB) Sessions(ctx context.Context) ([]Info, error) {
	var out []Info
	err := db.query(ctx, collectAll(&out, func(row pgx.CollectableRow) (Info, error) {
		var in Info
		var meta string
		err := row.Scan(&in.ID, &in.Machine, &in.Directory, &meta, &in.Created, &in.Updated, &in.Status, &in.Records)
		in.Meta = []byte(meta)
		return in, err
	}), `SELECT id, machine, directory, meta::text, created, updated, status, seq FROM sessions ORDER BY updated DESC, id`)
	return out, db.errorf("list sessions", err)
}

// ReadMany returns the records of the sessions ids, in one query; a
// session past limit bytes is left out, and named in tooLarge.
func (db *DB) ReadMany(ctx context.Context, ids []string, limit int64) (journals map[string][][]byte, tooLarge []string, err error) {
	err = db.query(ctx, func(rows pgx.Rows) error {
		journals, tooLarge = make(map[string][][]byte, len(ids)), nil
		sizes := map[string]int64{}
		for rows.Next() {
			var id string
			var line []byte
			if err := rows.Scan(&id, &line); err != nil {
				return err
			}
			if sizes[id] < 0 {
				continue
			}
			if sizes[id] += int64(len(line)) + 1; limit > 0 && sizes[id] > limit {
				sizes[id] = -1
				delete(journals, id)
				tooLarge = append(tooLarge, id)
				continue
			}
			journals[id] = append(journals[id], line)
		}
		return nil
	}, `SELECT session_id, record FROM records WHERE session_id = ANY($1) ORDER BY session_id, seq`, ids)
	if err != nil {
		return nil, nil, db.errorf("read sessions", err)
	}
	return journals, tooLarge, nil
}

// Version is a value that changes with any session's records, any answer,
// any registry entry and any lease taken, given back or expired, in one
// query.
func (db *DB) Version(ctx context.Context) (string, error) {
	var v string
	err := db.queryRow(ctx, []any{&v}, `SELECT concat_ws('/',
		(SELECT count(*) || '.' || coalesce(sum(seq), 0) FROM sessions),
		(SELECT count(*) FILTER (WHERE state = 'answered') || '.' || count(*) FROM mailbox),
		(SELECT count(*) || '.' || coalesce(max(updated)::text, '') FROM registry),
		(SELECT count(*) || '.' || coalesce(max(l.taken)::text, '') FROM leases l JOIN holders h ON h.id = l.holder WHERE `+db.aliveSQL()+`))`)
	return v, db.errorf("read the store's version", err)
}
