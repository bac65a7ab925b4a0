package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/askuser/askuser/agentloop"
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
	header, err := json.Marshal(record{Type: recSession, At: meta.Created, Version: FormatVersion, Meta: &meta})
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
