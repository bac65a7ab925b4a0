package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/statefile"
)

// ErrNotFound is returned for a session id that matches no session.
var ErrNotFound = errors.New("no such session")

// ErrExists is returned for a new session whose id is taken.
var ErrExists = errors.New("a session with that id exists")

// Store is askuser's sessions: a state directory, and, when Backend is
// set, a store shared with other machines (backend.go).
type Store struct {
	// Dir is the state directory: the sessions, the mailbox and the
	// registry in files, unless Backend holds them; always, each
	// session's side directory and what belongs to the machine.
	Dir string
	// Backend, if set, holds the journals, the mailbox, the registry and
	// the locks in place of Dir.
	Backend Backend
	Now     func() time.Time
}

// Version changes whenever the team store's sessions, answers, waiting
// sets or locks do; "" for the files store (backend.go).
func (st *Store) Version() (string, error) { return st.backend().Version() }

// Close closes the Backend, if any: the locks this process holds in a
// team store are released.
func (st *Store) Close() error {
	if st.Backend != nil {
		return st.Backend.Close()
	}
	return nil
}

func (st *Store) sessionsDir() string { return filepath.Join(st.Dir, "sessions") }

// ownDir returns the directory name of the state directory (sessions,
// relay, channels, mailbox), made if need be, after checking that it is a
// directory and not a link to one (a *statefile.NotRegularError names
// it). Whatever creates, writes or deletes in one goes through here: a
// link planted there, or left by a restore, must not send a write, or a
// prune's deletions, to the directory it points to. The state directory
// itself may be a link; where it is, is its owner's choice.
func (st *Store) ownDir(name string) (string, error) {
	dir := filepath.Join(st.Dir, name)
	return dir, statefile.MkdirAll(dir, 0o700)
}

// isOwnDir reports whether dir is a directory, not a link to one, for
// what would only delete in it (Prune), and does nothing when it is not.
func isOwnDir(dir string) bool {
	fi, err := os.Lstat(dir)
	return err == nil && fi.IsDir()
}

// journal is the path of session id's journal.
func (st *Store) journal(id ID) string { return filepath.Join(st.sessionsDir(), string(id)+".jsonl") }

func (st *Store) now() time.Time {
	if st.Now != nil {
		return st.Now()
	}
	return time.Now()
}

// Create starts a new session journal.
func (st *Store) Create(meta Meta) (*Session, error) {
	if meta.ID == "" {
		meta.ID = NewID()
	} else if _, err := ParseID(string(meta.ID)); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	if meta.Created.IsZero() {
		meta.Created = st.now()
	}
	if meta.Title == "" {
		meta.Title = Title(meta.FirstPrompt)
	}
	format := ownFormat
	if meta.Host != "" {
		format = HostFormat
	}
	header, err := json.Marshal(record{Type: recSession, At: meta.Created, Version: format, Meta: &meta})
	if err != nil {
		return nil, fmt.Errorf("encode session record: %w", err)
	}
	b := st.backend()
	j, err := b.Create(meta, Line{Data: header, Type: recSession, At: meta.Created})
	if err != nil {
		return nil, err
	}
	return &Session{Meta: meta, State: agentloop.NewState(), Updated: meta.Created, where: b.Where(meta.ID), j: j,
		size: int64(len(header)) + 1, now: st.now}, nil
}
