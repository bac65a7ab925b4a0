package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// Backend is the team store as the session package uses it
// (session.Backend): this package's tables behind the session package's
// types and errors.
type Backend struct {
	db *DB
	// MaxJournal bounds a journal read (session.MaxJournalBytes).
	MaxJournal int64
	Now        func() time.Time
}

var _ session.Backend = (*Backend)(nil)

// opTimeout bounds one operation of the session API, which has no
// context of its own: a store out of reach is waited for that long (an
// outage of a minute fails nothing), then is an error, not a hang.
const opTimeout = 90 * time.Second

// New connects to the store at url (Open) for the session package.
func New(ctx context.Context, url string) (*Backend, error) { return NewWith(ctx, url, Options{}) }

// NewWith is New with opts (OpenWith).
func NewWith(ctx context.Context, url string, opts Options) (*Backend, error) {
	db, err := OpenWith(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	return &Backend{db: db, MaxJournal: session.MaxJournalBytes}, nil
}

// DB is the backend's database.
func (b *Backend) DB() *DB { return b.db }

func (b *Backend) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTimeout)
}

func (b *Backend) now() time.Time {
	if b.Now != nil {
		return b.Now()
	}
	return time.Now()
}

// Version sums what changes when anything a page shows does: every
// session's last record, the answers, the registry and the locks held.
func (b *Backend) Version() (string, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.db.Version(ctx)
}

// Close closes the connections: this process's locks are released.
func (b *Backend) Close() error {
	b.db.Close()
	return nil
}

// Where names a session in messages, or the store.
func (b *Backend) Where(id session.ID) string {
	if id == "" {
		return b.db.shown
	}
	return "session " + string(id) + " in " + b.db.shown
}

// sessionErr words the database's errors about a session as the session
// package's.
func (b *Backend) sessionErr(id session.ID, err error) error {
	switch {
	case errors.Is(err, ErrLocked):
		return fmt.Errorf("session %s is %w; wait for it to finish", id, session.ErrInUse)
	case errors.Is(err, ErrNoSession):
		return fmt.Errorf("%w %s in %s; askuser sessions lists them", session.ErrNotFound, ask.Excerpt(string(id)), b.db.shown)
	case errors.Is(err, ErrExists):
		return fmt.Errorf("create session %s in %s: %w", id, b.db.shown, session.ErrExists)
	}
	return err
}

// Create stores a new session and holds it.
func (b *Backend) Create(meta session.Meta, header session.Line) (session.Appender, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	j, err := b.db.Create(ctx, Info{ID: string(meta.ID), Machine: meta.Machine, Directory: meta.Cwd, Meta: m, Created: meta.Created}, record(header))
	if err != nil {
		return nil, b.sessionErr(meta.ID, err)
	}
	return &appender{b: b, j: j}, nil
}

func record(l session.Line) Record {
	return Record{Line: l.Data, Type: l.Type, At: l.At, Status: l.Status}
}

// Open holds a session and returns its journal.
func (b *Backend) Open(id session.ID) (session.Appender, []byte, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	j, lines, err := b.db.Open(ctx, string(id), b.MaxJournal)
	if err != nil {
		return nil, nil, b.sessionErr(id, err)
	}
	return &appender{b: b, j: j}, join(lines), nil
}

// Read returns a session's journal.
func (b *Backend) Read(id session.ID) ([]byte, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	lines, err := b.db.Read(ctx, string(id), b.MaxJournal)
	if err != nil {
		return nil, b.sessionErr(id, err)
	}
	return join(lines), nil
}

// join makes records into a journal's lines, as the files hold them.
func join(lines [][]byte) []byte {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	out := make([]byte, 0, n)
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	return out
}

// Find returns the ids that are ref or begin with it.
func (b *Backend) Find(ref string) ([]string, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	ids, err := b.db.Resolve(ctx, ref, 10000)
	if len(ids) > 0 && ids[0] == ref {
		ids = ids[:1]
	}
	return ids, err
}

// List reads every session, in three queries: the sessions, their
// records, and the locks held.
func (b *Backend) List() ([]session.Stored, error) {
	ctx, cancel := b.ctx()
	defer cancel()
	infos, err := b.db.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(infos))
	locks := make([]string, len(infos))
	for i, in := range infos {
		ids[i], locks[i] = in.ID, SessionLock(in.ID)
	}
	journals, tooLarge, err := b.db.ReadMany(ctx, ids, b.MaxJournal)
	if err != nil {
		return nil, err
	}
	held, err := b.db.HeldLocks(ctx, locks...)
	if err != nil {
		return nil, err
	}
	out := make([]session.Stored, len(infos))
	for i, in := range infos {
		out[i] = session.Stored{Name: in.ID, Data: join(journals[in.ID]), Updated: in.Updated, InUse: held[locks[i]]}
		if _, err := session.ParseID(in.ID); err != nil {
			out[i].Data, out[i].Err = nil, fmt.Errorf("%s: its id %w, so askuser never reads it; askuser sessions rm %s removes it",
				b.Where(session.ID(in.ID)), err, ask.Excerpt(in.ID))
		}
	}
	for _, id := range tooLarge {
		for i := range out {
			if out[i].Name == id {
				out[i].Data, out[i].Err = nil, fmt.Errorf("%s: %w (%d bytes)", b.Where(session.ID(id)), ErrTooLarge, b.MaxJournal)
			}
		}
	}
	return out, nil
}

// InUse reports whether a process holds session id; true, too, when the
// store cannot say: askuser serve resumes a session that nobody holds,
// and must not for a query that failed (a second process would run it).
func (b *Backend) InUse(id session.ID) bool {
	ctx, cancel := b.ctx()
	defer cancel()
	held, err := b.db.Held(ctx, SessionLock(string(id)))
	return held || err != nil
}

// Remove deletes a session with its records and answers. Its registry
// entries stay: the Store marks them withdrawn, so their chat widgets say
// the session was removed.
func (b *Backend) Remove(name string) error {
	ctx, cancel := b.ctx()
	defer cancel()
	return b.sessionErr(session.ID(name), b.db.Remove(ctx, name))
}

// HoldChannel takes chat channel name for this process, across every
// machine that shares the store.
func (b *Backend) HoldChannel(name string) (func(), error) {
	ctx, cancel := b.ctx()
	defer cancel()
	release, ok, err := b.db.TryLock(ctx, "channel:"+name)
	switch {
	case err != nil:
		return nil, fmt.Errorf("hold channel %s: %w", name, err)
	case !ok:
		return nil, fmt.Errorf("channel %s is %w", name, session.ErrChannelHeld)
	}
	return release, nil
}

// appender writes a held session's records.
type appender struct {
	b *Backend
	j *Journal
}

func (a *appender) Append(l session.Line) error {
	ctx, cancel := a.b.ctx()
	defer cancel()
	return a.b.sessionErr(session.ID(a.j.id), a.j.Append(ctx, record(l)))
}

// Truncate drops the records after the first good bytes of the journal
// Open returned: a last record that is not whole JSON (a store's record
// is written whole, so only a hand-made one can be).
func (a *appender) Truncate(good int64) error {
	ctx, cancel := a.b.ctx()
	defer cancel()
	data, err := a.b.db.Read(ctx, a.j.id, a.b.MaxJournal)
	if err != nil {
		return err
	}
	all := join(data)
	keep := int64(bytes.Count(all[:min(good, int64(len(all)))], []byte{'\n'}))
	return a.j.Truncate(ctx, keep)
}

func (a *appender) Close() error {
	a.j.Close()
	return nil
}
