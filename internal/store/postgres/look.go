package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// A look (watch.go): what a watch does every period, in one round trip.

// look is one look: the answered sets among those waited on, and, when
// due, the renewal of the holders stood for. While few watches look, it
// counts them again each time (a burst of new watches is seen at once)
// and keeps its connection for the next.
func (w *watcher) look(ctx context.Context) error {
	keys, ids := w.wanted()
	w.mu.Lock()
	due := len(ids) > 0 && time.Since(w.renewed) >= w.db.renewEvery()
	own, few := w.holder, w.pollers <= heldWatches && !w.db.holdWatch
	w.mu.Unlock()
	if len(keys) == 0 && !due {
		return nil
	}
	if own == "" {
		// A watch is counted among the watches by its holder's row.
		if err := w.db.leases.ensure(ctx); err != nil {
			return err
		}
		keys, ids = w.wanted()
		own, due = w.db.leases.id, true
	}
	conn := w.conn
	w.conn = nil
	if conn == nil {
		var err error
		if conn, err = pgx.ConnectConfig(ctx, w.db.cfg.Copy()); err != nil {
			return err
		}
	}
	keep := false
	defer func() {
		if keep {
			w.conn = conn
		} else {
			conn.Close(context.WithoutCancel(ctx))
		}
	}()
	b := &pgx.Batch{}
	var renewed []string
	pollers := -1
	if due {
		b.Queue(`UPDATE holders SET expires = `+w.db.expirySQL()+`, polls = (id = $2) WHERE id = ANY($1) RETURNING id`, ids, own).
			Query(func(r pgx.Rows) error {
				var err error
				renewed, err = pgx.CollectRows(r, pgx.RowTo[string])
				return err
			})
		b.Queue(`DELETE FROM holders h WHERE NOT ` + w.db.aliveSQL())
	}
	if due || few {
		b.Queue(`SELECT count(*) FROM holders h WHERE polls AND ` + w.db.aliveSQL()).QueryRow(func(r pgx.Row) error { return r.Scan(&pollers) })
	}
	var answered []string
	if len(keys) > 0 {
		b.Queue(`SELECT key FROM mailbox WHERE key = ANY($1) AND state = 'answered'`, keys).Query(func(r pgx.Rows) error {
			var err error
			answered, err = pgx.CollectRows(r, pgx.RowTo[string])
			return err
		})
	}
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	w.mu.Lock()
	w.looks++
	if due {
		w.renewed = time.Now()
	}
	if pollers >= 0 {
		w.pollers = pollers
	}
	keep = w.pollers <= heldWatches || w.db.holdWatch
	h := w.hub
	w.mu.Unlock()
	if due {
		w.lostHolders(ctx, ids, renewed, own, h)
	}
	for _, k := range answered {
		w.wake(k)
		if h != nil {
			h.answered(k)
		}
	}
	return nil
}

// wanted is what a look is for: the sets waited on, and the holders to
// renew, this process's and its followers'.
func (w *watcher) wanted() (keys, ids []string) {
	w.mu.Lock()
	for k := range w.subs {
		keys = append(keys, k)
	}
	if w.holder != "" {
		ids = append(ids, w.holder)
	}
	h := w.hub
	w.mu.Unlock()
	if h != nil {
		hk, hi := h.wanted()
		keys, ids = append(keys, hk...), append(ids, hi...)
	}
	return keys, ids
}

// lostHolders tells each holder that was not renewed (its row was
// removed: it was away past its expiry) to make it again.
func (w *watcher) lostHolders(ctx context.Context, ids, renewed []string, own string, h *hub) {
	got := make(map[string]bool, len(renewed))
	for _, id := range renewed {
		got[id] = true
	}
	for _, id := range ids {
		switch {
		case got[id]:
		case id == own:
			go func() {
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), holderTTL)
				defer cancel()
				_ = w.db.leases.restore(rctx)
			}()
		case h != nil:
			h.restore(id)
		}
	}
}
