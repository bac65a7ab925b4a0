package session

import (
	"errors"
	"fmt"

	"github.com/askuser/askuser/internal/statefile"
)

// A host session's transcript (Claude Code's .jsonl, Codex's rollout,
// Gemini CLI's session file, OpenCode's export) is the host's, kept where
// the host keeps it, on the machine it ran on. A team store also keeps a
// copy with the session, so a late answer can continue it on another
// machine that has the project (internal/agenthost imports it there). The
// files store keeps nothing extra: its sessions never leave the machine.

// MaxHostTranscriptBytes bounds a host transcript as the store keeps it
// (askuser compresses it first): a longer one is not kept, and the session
// then continues only on the machine it ran on.
const MaxHostTranscriptBytes = 64 << 20

// ErrTranscriptTooLarge is wrapped by the error for a transcript past
// MaxHostTranscriptBytes.
var ErrTranscriptTooLarge = errors.New("the host transcript is larger than the store keeps")

// HostTranscripts is the part of a Backend that keeps host transcripts
// beside their sessions (the team store). A Backend without it keeps
// none.
type HostTranscripts interface {
	// PutHostTranscript keeps data as session id's transcript, replacing
	// the one kept before. A session that is not stored wraps ErrNotFound.
	PutHostTranscript(id ID, data []byte) error
	// HostTranscript returns session id's transcript, ok false when none
	// is kept.
	HostTranscript(id ID) (data []byte, ok bool, err error)
}

// KeepsHostTranscripts reports whether the store keeps host transcripts
// (a team store does; the state directory's files do not).
func (st *Store) KeepsHostTranscripts() bool {
	_, ok := st.backend().(HostTranscripts)
	return ok
}

// PutHostTranscript keeps data (compressed, at most
// MaxHostTranscriptBytes) as session id's host transcript, when the store
// keeps them; it does nothing otherwise.
func (st *Store) PutHostTranscript(id ID, data []byte) error {
	ht, ok := st.backend().(HostTranscripts)
	if !ok {
		return nil
	}
	if len(data) > MaxHostTranscriptBytes {
		return fmt.Errorf("session %s: %w (%s compressed, at most %s): it continues only on the machine it ran on",
			id, ErrTranscriptTooLarge, statefile.Size(int64(len(data))), statefile.Size(MaxHostTranscriptBytes))
	}
	return ht.PutHostTranscript(id, data)
}

// HostTranscript returns session id's host transcript as kept by the
// store; ok is false when none is (always, for the files store).
func (st *Store) HostTranscript(id ID) ([]byte, bool, error) {
	ht, ok := st.backend().(HostTranscripts)
	if !ok {
		return nil, false, nil
	}
	data, ok, err := ht.HostTranscript(id)
	if err == nil && len(data) > MaxHostTranscriptBytes {
		return nil, false, fmt.Errorf("session %s: %w", id, ErrTranscriptTooLarge)
	}
	return data, ok, err
}
