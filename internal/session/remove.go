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
	"github.com/askuser/askuser/internal/channel"
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
		// A damaged journal is listed under a name that may be no id:
		// Find names it too, without reading every journal as List does.
		if !validName(ref) {
			return "", err
		}
		if found, ferr := b.Find(ref); ferr != nil || !slices.Contains(found, ref) {
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

// WithdrawSession marks every waiting set of session id withdrawn, saying
// why: its widgets then say so, and nothing answers it any more. An entry
// that cannot be read is reported only when it names session id: another
// session's damage is no failure of this one's.
func (st *Store) WithdrawSession(ctx context.Context, id, why string) error {
	r := st.Registry()
	list, err := r.List(ctx)
	err = sessionsDamage(err, id)
	for _, e := range list {
		if e.Session != id || !e.Pending() {
			continue
		}
		_, uerr := r.Update(ctx, e.Key, func(e *Entry, found bool) error {
			if !found {
				return ErrNoEntry
			}
			if e.Pending() {
				e.Outcome = Outcome{State: channel.Withdrawn, Why: why, At: st.now(), Text: "Withdrawn: " + why + "."}
			}
			return nil
		})
		if !errors.Is(uerr, ErrNoEntry) {
			err = errors.Join(err, uerr)
		}
	}
	return err
}

// sessionsDamage is err, a listing's error, without the entries it could
// not read that are not known to be session id's.
func sessionsDamage(err error, id string) error {
	return dropDamage(err, func(e *EntryError) bool { return e.Session != id })
}

// WithoutEntryDamage is err, a registry listing's error, without the
// entries it could not read (each an *EntryError): what is left, if
// anything, is a failure of the listing itself. Whoever goes through the
// entries for one purpose uses the others, which the listing returned
// beside the error.
func WithoutEntryDamage(err error) error {
	return dropDamage(err, func(*EntryError) bool { return true })
}

// dropDamage is err without the *EntryError's drop accepts. A listing
// reports several entries joined (errors.Join); any other error is kept.
func dropDamage(err error, drop func(*EntryError) bool) error {
	if many, ok := err.(interface{ Unwrap() []error }); ok {
		var kept []error
		for _, e := range many.Unwrap() {
			if e = dropDamage(e, drop); e != nil {
				kept = append(kept, e)
			}
		}
		return errors.Join(kept...)
	}
	var ee *EntryError
	if errors.As(err, &ee) && drop(ee) {
		return nil
	}
	return err
}
