package session

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// MaxJournalBytes bounds a journal: a longer one is refused unread, and a
// run stops before its journal would grow past it, so every journal
// askuser writes can be loaded again. A 1,000-turn session of questions
// weighs 1.9 MB (bench_test.go), and a conversation is sent whole to the
// model at every turn, where a million tokens are about 4 MB of text: 64
// MiB is far beyond any session a model could carry on, and what loading
// one costs stays bounded (about twice its size).
const MaxJournalBytes = 64 << 20

// ErrJournalFull is returned by a write that would take a journal past
// MaxJournalBytes.
var ErrJournalFull = errors.New("the journal reached the most askuser loads")

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

// Open loads a session for appending: ref is its id or a unique prefix. A
// torn last line is cut off (Recovered says so) before anything is
// appended.
func (st *Store) Open(ref string) (*Session, error) {
	id, err := st.find(ref)
	if err != nil {
		return nil, err
	}
	b := st.backend()
	j, data, err := b.Open(id)
	if err != nil {
		return nil, err
	}
	s, good, err := load(b.Where(id), id, data)
	if err == nil && good >= 0 {
		err = j.Truncate(int64(good))
		s.size = int64(good)
	}
	if err != nil {
		j.Close()
		return nil, err
	}
	s.j, s.now = j, st.now
	return s, nil
}

// Load reads a session without opening it for appending; ref is its id
// or a unique prefix.
func (st *Store) Load(ref string) (*Session, error) {
	id, err := st.find(ref)
	if err != nil {
		return nil, err
	}
	b := st.backend()
	data, err := b.Read(id)
	if err != nil {
		return nil, err
	}
	s, _, err := load(b.Where(id), id, data)
	return s, err
}

// load replays a journal read under id; where names it. good is the
// length of the intact prefix when a torn last line was found, else -1.
func load(where string, id ID, data []byte) (*Session, int, error) {
	s := &Session{State: agentloop.NewState(), where: where, readAs: id, size: int64(len(data))}
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
		return fmt.Errorf("the first record is %s, not the session header", ask.Excerpt(r.Type))
	}
	switch r.Type {
	case recSession:
		if r.Meta == nil || r.Meta.ID == "" {
			return fmt.Errorf("session header without an id")
		}
		if r.Version > FormatVersion {
			return fmt.Errorf("written by a newer askuser (format %d, this one reads %d)", r.Version, FormatVersion)
		}
		if err := s.ownID(r.Meta.ID); err != nil {
			return err
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
	case recHost:
		if r.Host == nil || r.Host.State == "" {
			return fmt.Errorf("host record without a state")
		}
		s.noteHost(*r.Host)
	default:
		return fmt.Errorf("unknown record type %s", ask.Excerpt(r.Type))
	}
	switch r.Type {
	case recMessage, recAnswered, recStatus:
		s.Cancelled = nil // the session went on after it was cancelled
	}
	s.Updated = r.At
	return nil
}

// ownID checks the id a journal's header holds: an id, and the one the
// journal is stored under (its file's name). A journal is only ever used
// under its own id, so one copied or planted under another name is
// damaged, never resumed as the session its name says, nor its id passed
// on.
func (s *Session) ownID(id ID) error {
	if _, err := ParseID(string(id)); err != nil {
		return fmt.Errorf("the header's id %w", err)
	}
	if id != s.readAs {
		return fmt.Errorf("the header's id %s is not the id it is stored under, %s; a journal is used only under its own id", id, ask.Excerpt(string(s.readAs)))
	}
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

// find resolves a session reference (its id, or a prefix of one that only
// one session has) to its id. A reference is compared as text, never used
// as a pattern or a path: it is an id or the start of one (lower-case hex
// and "-"), so "*", "?", "[", "/" and ".." are not.
func (st *Store) find(ref string) (ID, error) {
	b := st.backend()
	if id, err := ParseID(ref); err == nil {
		found, err := b.Find(ref)
		if err != nil {
			// The store unreachable is not the session gone: a relay
			// would withdraw its sets, a command call it a usage error.
			return "", err
		}
		if len(found) != 1 || found[0] != ref {
			return "", fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(ref), st.where())
		}
		return id, nil
	}
	if !isPrefix(ref) {
		return "", fmt.Errorf("%w: %s is not a session id: an id is a UUID in lower-case hex such as %s, and its start is enough (askuser sessions lists them)",
			ErrNotFound, ask.Excerpt(ref), idExample)
	}
	found, err := b.Find(ref)
	if err != nil {
		return "", err
	}
	var matches []string
	for _, name := range found {
		if isID(name) && strings.HasPrefix(name, ref) {
			matches = append(matches, name)
		}
	}
	switch len(matches) {
	case 1:
		return ID(matches[0]), nil
	case 0:
		return "", fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(ref), st.where())
	}
	sort.Strings(matches)
	listed := matches[:min(len(matches), 10)]
	more := ""
	if len(matches) > len(listed) {
		more = fmt.Sprintf(" and %d more", len(matches)-len(listed))
	}
	return "", fmt.Errorf("%w: %s is the start of %d sessions (%s%s); give more of it",
		ErrAmbiguous, ask.Excerpt(ref), len(matches), strings.Join(listed, ", "), more)
}

// where names the store in messages: the sessions directory, or the
// team store.
func (st *Store) where() string { return st.backend().Where("") }

// ErrAmbiguous is returned for a session id prefix that several sessions
// have.
var ErrAmbiguous = errors.New("ambiguous session id")
