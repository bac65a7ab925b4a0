package session

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// CorruptError reports a damaged journal: where, and what can be saved.
type CorruptError struct {
	Path string
	// Line is the first damaged line (1-based).
	Line int
	// Intact is the number of records before it.
	Intact int
	Reason string
}

func (e *CorruptError) Error() string {
	if strings.HasPrefix(e.Reason, "written by a newer askuser") {
		return fmt.Sprintf("session file %s was %s; resume it with that newer askuser", e.Path, e.Reason)
	}
	if e.Intact == 0 {
		return fmt.Sprintf("session file %s is damaged at line %d (%s); nothing in it can be resumed — delete it", e.Path, e.Line, e.Reason)
	}
	return fmt.Sprintf("session file %s is damaged at line %d (%s); the %d records before it are intact — "+
		"to keep them, copy the file and delete line %d and everything after it (head -n %d), then resume",
		e.Path, e.Line, e.Reason, e.Intact, e.Line, e.Line-1)
}

// Open loads a session for appending: its id may be a unique prefix. A torn
// last line is cut off (Recovered says so) before anything is appended.
func (st *Store) Open(id string) (*Session, error) {
	full, err := st.find(id)
	if err != nil {
		return nil, err
	}
	b := st.backend()
	j, data, err := b.Open(full)
	if err != nil {
		return nil, err
	}
	s, good, err := load(b.Where(full), data)
	if err == nil && good >= 0 {
		err = j.Truncate(int64(good))
	}
	if err != nil {
		j.Close()
		return nil, err
	}
	s.j, s.now = j, st.now
	return s, nil
}

// Load reads a session without opening it for appending.
func (st *Store) Load(id string) (*Session, error) {
	full, err := st.find(id)
	if err != nil {
		return nil, err
	}
	b := st.backend()
	data, err := b.Read(full)
	if err != nil {
		return nil, err
	}
	s, _, err := load(b.Where(full), data)
	return s, err
}

// load replays a journal; where names it. good is the length of the
// intact prefix when a torn last line was found, else -1.
func load(where string, data []byte) (*Session, int, error) {
	s := &Session{State: agentloop.NewState(), where: where}
	rp := replay{s: s, path: where, buf: data, good: -1}
	if err := rp.run(); err != nil {
		return nil, -1, err
	}
	good, line := rp.good, rp.line
	if s.Meta.ID == "" {
		if line == 0 || (line == 1 && good >= 0) {
			return nil, -1, &CorruptError{Path: where, Line: 1, Intact: 0, Reason: "no complete session header; the run was killed before it began"}
		}
	}
	return s, good, nil
}

// isTail reports whether what follows a damaged line is nothing but blank
// space, so the damaged line is the last one written.
func isTail(rest []byte) bool { return len(bytes.TrimSpace(rest)) == 0 }

func shortErr(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

func (s *Session) apply(r record, line int) error {
	if line == 1 && r.Type != recSession {
		return fmt.Errorf("the first record is %q, not the session header", r.Type)
	}
	switch r.Type {
	case recSession:
		if r.Meta == nil || r.Meta.ID == "" {
			return fmt.Errorf("session header without an id")
		}
		if r.Version > FormatVersion {
			return fmt.Errorf("written by a newer askuser (format %d, this one reads %d)", r.Version, FormatVersion)
		}
		s.Meta = *r.Meta
	case recMessage:
		if r.Message == nil {
			return fmt.Errorf("message record without a message")
		}
		s.target(r).Append(*r.Message)
	case recAsked:
		if r.Request == nil {
			return fmt.Errorf("asked record without a question set")
		}
		s.target(r).NoteAsked(*r.Request, r.ToolUseID, r.At)
	case recReplied:
		if r.RequestID == "" {
			return fmt.Errorf("replied record without a request id")
		}
		s.target(r).NoteReplied(r.RequestID, r.Answers)
	case recPartial:
		if r.RequestID == "" || len(r.Indexes) != len(r.Answers) {
			return fmt.Errorf("partial record without a request id, or with %d answers for %d indexes", len(r.Answers), len(r.Indexes))
		}
		s.target(r).NotePartial(r.RequestID, r.Answers, r.Indexes)
	case recCancel:
		s.Cancelled = &Cancellation{At: r.At, Reason: r.Detail}
	case recStep:
		if r.Key == "" || r.Value == nil {
			return fmt.Errorf("step record without a key or a value")
		}
		s.target(r).SetStep(r.ToolUseID, r.Key, r.Value)
	case recAnswered:
		if r.Result == nil {
			return fmt.Errorf("answered record without a result")
		}
		s.target(r).Results[r.ToolUseID] = *r.Result
	case recStatus:
		s.Status, s.Detail = r.Status, r.Detail
	default:
		return fmt.Errorf("unknown record type %q", r.Type)
	}
	switch r.Type {
	case recMessage, recAnswered, recStatus:
		s.Cancelled = nil // the session went on after it was cancelled
	}
	s.Updated = r.At
	return nil
}

// target is the conversation a record belongs to: the session's, or a
// sub-agent's.
func (s *Session) target(r record) *agentloop.State {
	if r.Parent == "" {
		return s.State
	}
	return s.State.Descendant(strings.Split(r.Parent, "/"))
}

// find resolves an id, or a prefix of one that only one session has, to
// the session's id. An id is letters, digits, "-" and "_" (ours are
// uuids); it is compared as a string, never used as a pattern or a path,
// so "*", "?", "[", "/" and ".." are not ids.
func (st *Store) find(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("%w: %s is not a session id: an id is letters, digits, \"-\" and \"_\" (askuser sessions lists them)", ErrNotFound, ask.Excerpt(id))
	}
	b := st.backend()
	matches, err := b.Find(id)
	if err != nil {
		return "", err
	}
	switch {
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) == 0:
		return "", fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(id), st.where())
	}
	listed := matches[:min(len(matches), 10)]
	more := ""
	if len(matches) > len(listed) {
		more = fmt.Sprintf(" and %d more", len(matches)-len(listed))
	}
	return "", fmt.Errorf("%w: %s is the start of %d sessions (%s%s); give more of it",
		ErrAmbiguous, ask.Excerpt(id), len(matches), strings.Join(listed, ", "), more)
}

// where names the store in messages: the sessions directory, or the
// team store.
func (st *Store) where() string { return st.backend().Where("") }

// ErrAmbiguous is returned for a session id prefix that several sessions
// have.
var ErrAmbiguous = errors.New("ambiguous session id")

func validID(id string) bool {
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return id != ""
}
