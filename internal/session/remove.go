package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// ErrInUse is returned for a session another askuser process holds: it is
// running, or asking for an answer now.
var ErrInUse = errors.New("in use by another askuser process")

// SideDir is the directory beside session id's journal for what its run
// keeps besides the conversation (the logs of the tools it ran). Remove
// deletes it with the journal. Whoever creates it or a file in it uses
// statefile, so a link planted there is never followed.
func (st *Store) SideDir(id ID) string { return filepath.Join(st.sessionsDir(), string(id)+".d") }

// Remove deletes a session, its journal and its side directory, and
// returns its id. ref is its id or a unique prefix, or the exact name
// under which List shows a damaged journal. A session another process
// holds is refused (ErrInUse): it is held for as long as it is removed,
// so no process can open it half-deleted, and one that opened it just
// before finds it gone (Open checks). What is listed as a journal but is
// not a regular file (a link, a FIFO) is never opened: only its name goes.
func (st *Store) Remove(ref string) (string, error) {
	b := st.backend()
	id, err := st.find(ref)
	name := string(id)
	if err != nil {
		// A damaged journal is listed under a name that may be no id.
		list, lerr := b.List()
		if lerr != nil || !validName(ref) || !slices.ContainsFunc(list, func(s Stored) bool { return s.Name == ref }) {
			return "", err
		}
		name = ref
	}
	if err := b.Remove(name); err != nil {
		return name, err
	}
	// Its sets sent to a chat channel say so there, and take no answer.
	if err := st.WithdrawSession(context.Background(), name, "the session was removed"); err != nil {
		return name, fmt.Errorf("session %s removed, but its questions in chat channels could not be withdrawn: %w", name, err)
	}
	return name, nil
}

// validName reports whether a listed journal name is safe to join to the
// sessions directory: one path element, not "." or "..".
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && filepath.Base(name) == name
}

// Cancel ends a waiting session for good: it records that the person
// declined to answer every question set it waits on, its sub-agents'
// included, with reason (cleaned and bounded), then a cancel record, so
// the session is listed as cancelled. If it is resumed later, each
// waiting call gets the declination as its answer, and the model goes on
// knowing the person declined. It returns the sets declined, with the
// questions each declined.
func (s *Session) Cancel(reason string) ([]ask.Request, error) {
	reason = ask.CleanDeclineReason(reason)
	declined, err := agentloop.DeclinePending(s.State, s, reason, s.now())
	if err != nil {
		return declined, err
	}
	at := s.now()
	if err := s.append(record{Type: recCancel, At: at, Detail: reason}); err != nil {
		return declined, err
	}
	s.Cancelled = &Cancellation{At: at, Reason: reason}
	return declined, nil
}

// Age is how long ago a listed session was last updated.
func (sum Summary) Age(now time.Time) time.Duration { return now.Sub(sum.Updated) }
