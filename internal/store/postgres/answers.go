package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// The answer mailbox and the registry as the session package uses them:
// the same checks, the same errors and the same JSON as its files, in
// this package's tables.

// Mailbox returns the store's answer mailbox.
func (b *Backend) Mailbox() session.Mailbox { return mailbox{b} }

type mailbox struct{ b *Backend }

// The relay's batch reads (relay.ManyMailbox, relay.ManyRegistry).
var (
	_ interface {
		GetMany(context.Context, []session.Box) (map[string]session.Delivery, error)
	} = mailbox{}
	_ interface {
		HeldMany([]string) map[string]bool
	} = registry{}
)

// box checks that box names a set: a key is a key, a session an id.
func (m mailbox) box(box session.Box) (Box, error) {
	if err := box.Check(); err != nil {
		return Box{}, err
	}
	return Box{Session: box.Session, Key: box.Key}, nil
}

func (m mailbox) Post(ctx context.Context, box session.Box, d session.Delivery) error {
	bx, err := m.box(box)
	if err != nil {
		return err
	}
	if len(d.Answers) == 0 || d.By == "" || d.At.IsZero() {
		return fmt.Errorf("mailbox: an answer needs its answers, who gave them and when")
	}
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("mailbox: encode the answer: %w", err)
	}
	won, first, err := m.b.db.Post(ctx, bx, Answer{Delivery: data, By: d.By, At: d.At})
	switch {
	case errors.Is(err, ErrNoSession):
		return fmt.Errorf("mailbox: %w %q: it was deleted", session.ErrNotFound, box.Session)
	case err != nil:
		return fmt.Errorf("mailbox: %w", err)
	case won:
		return nil
	}
	fd, err := m.decode(box, first)
	if err != nil {
		return err
	}
	return &session.AnsweredError{First: fd}
}

func (m mailbox) decode(box session.Box, a Answer) (session.Delivery, error) {
	d, err := session.DecodeDelivery(a.Delivery)
	if err != nil {
		return session.Delivery{}, fmt.Errorf("mailbox: the answer to set %s in %s is damaged (%v); delete its row of the mailbox table to let it be answered again",
			box.Key, m.b.db.shown, err)
	}
	return d, nil
}

func (m mailbox) Get(ctx context.Context, box session.Box) (session.Delivery, bool, error) {
	bx, err := m.box(box)
	if err != nil {
		return session.Delivery{}, false, err
	}
	a, ok, err := m.b.db.Get(ctx, bx)
	if err != nil || !ok {
		return session.Delivery{}, false, err
	}
	d, err := m.decode(box, a)
	return d, err == nil, err
}

// GetMany returns the answers of the sets boxes that have one, in one
// query (relay.ManyMailbox): askuser serve's relay reads those of every
// waiting set at each pass. A damaged answer fails the whole, so that
// each set's own Get says which.
func (m mailbox) GetMany(ctx context.Context, boxes []session.Box) (map[string]session.Delivery, error) {
	keys := make([]string, 0, len(boxes))
	byKey := make(map[string]session.Box, len(boxes))
	for _, box := range boxes {
		if _, err := m.box(box); err != nil {
			return nil, err
		}
		keys = append(keys, box.Key)
		byKey[box.Key] = box
	}
	got, err := m.b.db.GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("mailbox: %w", err)
	}
	out := make(map[string]session.Delivery, len(got))
	for k, a := range got {
		d, err := m.decode(byKey[k], a)
		if err != nil {
			return nil, err
		}
		out[k] = d
	}
	return out, nil
}

// Wait is woken by this process's watch of the store, whatever machine
// the answer was given on.
func (m mailbox) Wait(ctx context.Context, box session.Box) (session.Delivery, error) {
	bx, err := m.box(box)
	if err != nil {
		return session.Delivery{}, err
	}
	a, err := m.b.db.Wait(ctx, bx)
	if err != nil {
		return session.Delivery{}, ask.CtxErr(ctx)
	}
	return m.decode(box, a)
}

func (m mailbox) Prune(before time.Time) error {
	ctx, cancel := m.b.ctx()
	defer cancel()
	return m.b.db.PruneAnswers(ctx, before)
}

// Registry returns the store's registry of waiting sets.
func (b *Backend) Registry() session.Registry { return registry{b} }

type registry struct{ b *Backend }

func (r registry) key(key string) error {
	if !channel.ValidKey(key) {
		return fmt.Errorf("registry: %w: %s is not a key", channel.ErrUnknownSet, ask.Excerpt(key))
	}
	return nil
}

func (r registry) Get(ctx context.Context, key string) (session.Entry, error) {
	if err := r.key(key); err != nil {
		return session.Entry{}, err
	}
	row, err := r.b.db.GetEntry(ctx, key)
	if errors.Is(err, ErrNoEntry) {
		return session.Entry{}, session.ErrNoEntry
	}
	if err != nil {
		return session.Entry{}, fmt.Errorf("registry: %w", err)
	}
	return r.decode(row)
}

// decode reads a row's entry. An entry is used only under its own key,
// and its session is an id, as in files: one that says otherwise is
// damaged, so what a forged row says never reaches a resume's command
// line.
func (r registry) decode(row Entry) (session.Entry, error) {
	e, err := session.DecodeEntry(row.Key, row.Data)
	if err != nil {
		return session.Entry{}, &session.EntryError{Key: row.Key, Session: row.Session,
			Err: fmt.Errorf("registry: the entry %s in %s is damaged (%v); delete its row of the registry table", row.Key, r.b.db.shown, err)}
	}
	return e, nil
}

// Update is the files' Update in a transaction: fn's error, or a change
// of nothing, writes nothing; a new entry gets its Created, a changed one
// its Updated.
func (r registry) Update(ctx context.Context, key string, fn func(e *session.Entry, found bool) error) (session.Entry, error) {
	if err := r.key(key); err != nil {
		return session.Entry{}, err
	}
	var out session.Entry
	now := r.b.now()
	err := r.b.db.UpdateEntry(ctx, key, now, func(row Entry, found bool) ([]byte, string, error) {
		var e session.Entry
		if found {
			var err error
			if e, err = r.decode(row); err != nil {
				return nil, "", err
			}
		}
		e, data, err := session.ApplyUpdate(key, e, found, func() time.Time { return now }, fn)
		out = e
		return data, e.Session, err
	})
	return out, err
}

func (r registry) List(ctx context.Context) ([]session.Entry, error) {
	rows, err := r.b.db.Entries(ctx)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	var out []session.Entry
	var bad []error
	for _, row := range rows {
		e, err := r.decode(row)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, e)
	}
	return out, errors.Join(bad...)
}

func (r registry) Delete(ctx context.Context, key string) error {
	if err := r.key(key); err != nil {
		return err
	}
	return r.b.db.DeleteEntry(ctx, key)
}

// Hold marks the set as waited on, for every machine to see, beside any
// other process that waits on it; it stays so while this process lives
// (lease.go).
func (r registry) Hold(key string) (func(), error) {
	if err := r.key(key); err != nil {
		return nil, err
	}
	ctx, cancel := r.b.ctx()
	defer cancel()
	release, ok, err := r.b.db.Hold(ctx, "wait:"+key)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if !ok {
		return func() {}, nil // this process waits on it already
	}
	return release, nil
}

// Claim holds the set only when no process, this one included, holds it.
func (r registry) Claim(key string) (func(), bool, error) {
	if err := r.key(key); err != nil {
		return nil, false, err
	}
	ctx, cancel := r.b.ctx()
	defer cancel()
	release, ok, err := r.b.db.TryLock(ctx, "wait:"+key)
	if err != nil {
		return nil, false, fmt.Errorf("registry: %w", err)
	}
	return release, ok, nil
}

// HeldMany says which of keys a live process waits on, in one query
// (relay.ManyRegistry); all of them, when the store cannot say.
func (r registry) HeldMany(keys []string) map[string]bool {
	ctx, cancel := r.b.ctx()
	defer cancel()
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = "wait:" + k
	}
	held, err := r.b.db.HeldLocks(ctx, names...)
	out := make(map[string]bool, len(keys))
	for i, k := range keys {
		out[k] = held[names[i]] || err != nil
	}
	return out
}

// Held is true, too, when the store cannot say: a relay withdraws a set
// only when nobody waits on it, never for a query that failed.
func (r registry) Held(key string) bool {
	ctx, cancel := r.b.ctx()
	defer cancel()
	held, err := r.b.db.Held(ctx, "wait:"+key)
	return held || err != nil
}
