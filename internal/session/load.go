package session

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/statefile"
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
	path, err := st.find(ref)
	if err != nil {
		return nil, err
	}
	f, err := statefile.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	unlock, err := lock(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	s, good, err := load(path, f)
	if err == nil && good >= 0 {
		err = f.Truncate(int64(good))
		s.size = int64(good)
	}
	if err != nil {
		unlock()
		f.Close()
		return nil, err
	}
	s.f, s.unlock, s.now = f, unlock, st.now
	if !samePath(f, path) {
		// Removed (askuser sessions rm) between finding it and locking
		// it: appending now would write into a deleted file.
		s.Close()
		return nil, fmt.Errorf("%w %q: it was deleted just now", ErrNotFound, s.Meta.ID)
	}
	return s, nil
}

// samePath reports whether path still names the open file f.
func samePath(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Load reads a session without opening it for appending; ref is its id
// or a unique prefix.
func (st *Store) Load(ref string) (*Session, error) {
	path, err := st.find(ref)
	if err != nil {
		return nil, err
	}
	f, err := statefile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer f.Close()
	s, _, err := load(path, f)
	return s, err
}

// load replays a journal. good is the length of the intact prefix when a
// torn last line was found, else -1.
func load(path string, f *os.File) (*Session, int, error) {
	data, err := statefile.ReadAll(f, MaxJournalBytes)
	if errors.Is(err, statefile.ErrTooLarge) {
		return nil, -1, fmt.Errorf("session %w; it was not read: a run stops before its journal grows past that, "+
			"so this one was not written by askuser — move it out of %s", err, filepath.Dir(path))
	} else if err != nil {
		return nil, -1, fmt.Errorf("read session %s: %w", path, err)
	}
	s := &Session{State: agentloop.NewState(), path: path, size: int64(len(data))}
	rp := replay{s: s, path: path, buf: data, good: -1}
	if err := rp.run(); err != nil {
		return nil, -1, err
	}
	good, line := rp.good, rp.line
	if s.Meta.ID == "" {
		if line == 0 || (line == 1 && good >= 0) {
			return nil, -1, &CorruptError{Path: path, Line: 1, Intact: 0, Reason: "no complete session header; the run was killed before it began"}
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

// ownID checks the id a journal's header holds: an id, and the one the
// journal is named by. A journal is only ever used under its own id, so
// one copied or planted under another name is damaged, never resumed as
// the session its name says, nor its id passed on.
func (s *Session) ownID(id ID) error {
	if _, err := ParseID(string(id)); err != nil {
		return fmt.Errorf("the header's id %w", err)
	}
	if name := strings.TrimSuffix(filepath.Base(s.path), ".jsonl"); string(id) != name {
		return fmt.Errorf("the header's id %s is not the file's name %s; a journal is used only under its own id", id, ask.Excerpt(name))
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
// one session has) to a journal path. A reference is compared as text,
// never used as a pattern or a path: it is an id or the start of one
// (lower-case hex and "-"), so "*", "?", "[", "/" and ".." are not.
func (st *Store) find(ref string) (string, error) {
	if id, err := ParseID(ref); err == nil {
		if _, err := os.Lstat(st.journal(id)); err != nil {
			return "", fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(ref), st.sessionsDir())
		}
		return st.journal(id), nil
	}
	if !isPrefix(ref) {
		return "", fmt.Errorf("%w: %s is not a session id: an id is a UUID in lower-case hex such as %s, and its start is enough (askuser sessions lists them)",
			ErrNotFound, ask.Excerpt(ref), idExample)
	}
	names, err := st.names()
	if err != nil {
		return "", err
	}
	var matches []string
	for _, name := range names {
		if isID(name) && strings.HasPrefix(name, ref) {
			matches = append(matches, name)
		}
	}
	switch len(matches) {
	case 1:
		return st.journal(ID(matches[0])), nil
	case 0:
		return "", fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(ref), st.sessionsDir())
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

// ErrAmbiguous is returned for a session id prefix that several sessions
// have.
var ErrAmbiguous = errors.New("ambiguous session id")

// names lists the names of the journals in the sessions directory (each
// file name without ".jsonl"); a journal whose name is not an id, or that
// is not a regular file, is listed too, so that askuser sessions shows it
// (as damaged: it is never read).
func (st *Store) names() ([]string, error) {
	entries, err := st.entries()
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = strings.TrimSuffix(e.Name(), ".jsonl")
	}
	return names, err
}

// entries are the sessions directory's entries named *.jsonl, but for
// directories.
func (st *Store) entries() ([]fs.DirEntry, error) {
	all, err := os.ReadDir(st.sessionsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []fs.DirEntry
	for _, e := range all {
		if strings.HasSuffix(e.Name(), ".jsonl") && !e.IsDir() {
			out = append(out, e)
		}
	}
	return out, nil
}
