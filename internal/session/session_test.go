package session_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

var t0 = time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC)

// tid is a session id for a test: hex digits (at most 12) begin it, and
// the rest is filled in to the form NewID makes.
func tid(digits string) session.ID {
	id := []byte("00000000-0000-4000-8000-000000000000")
	for i, j := 0, 0; j < len(digits); i++ {
		if id[i] != '-' {
			id[i] = digits[j]
			j++
		}
	}
	return session.ID(id)
}

// newStore returns a store in a fresh directory whose clock ticks one
// second per reading, so every record has its own time.
func newStore(t testing.TB) *session.Store {
	var mu sync.Mutex
	now := t0
	return &session.Store{Dir: t.TempDir(), Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}}
}

const dbInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

var dbRequest = ask.Request{ID: "toolu_1", Questions: []ask.Question{{
	Question: "Which database should we use?", Header: "Database", Options: []ask.Option{
		{Label: "PostgreSQL (Recommended)", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}},
}}}

func text(role, s string) agentloop.Message {
	return agentloop.Message{Role: role, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: s}}}
}

// askMessage is an assistant message asking dbInput under id.
func askMessage(id string) agentloop.Message {
	return agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
		{Type: agentloop.BlockText, Text: "One question first."},
		{Type: agentloop.BlockToolUse, ID: id, Name: ask.ToolName, Input: json.RawMessage(dbInput)},
	}}
}

// answerResult is the tool result for id, answered SQLite by a person.
func answerResult(id string) (agentloop.Block, []ask.Answer) {
	answers := []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson}}
	return agentloop.Block{Type: agentloop.BlockToolResult, ToolUseID: id, Content: ask.FormatResult(answers)}, answers
}

// step is one journal write.
type step func(s *session.Session) error

func message(m agentloop.Message) step {
	return func(s *session.Session) error { return s.Message(m) }
}

func asked(id string) step {
	return func(s *session.Session) error {
		req := dbRequest
		req.ID = id
		return s.Asked(req, req.ID, t0)
	}
}

func answered(id string) step {
	return func(s *session.Session) error {
		r, a := answerResult(id)
		return s.Answered(id, r, a)
	}
}

func status(st agentloop.Status) step {
	return func(s *session.Session) error {
		return s.SetStatus(string(st), "", 2, agentloop.Usage{InputTokens: 10, OutputTokens: 2})
	}
}

// finishedSteps journal a run that asked one question set, got the answer
// and finished.
func finishedSteps(prompt string) []step {
	r, _ := answerResult("toolu_1")
	return []step{
		message(text(agentloop.RoleUser, prompt)),
		message(askMessage("toolu_1")),
		asked("toolu_1"),
		answered("toolu_1"),
		message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{r}}),
		message(text(agentloop.RoleAssistant, "Using SQLite.")),
		status(agentloop.StatusSuccess),
	}
}

// waitingSteps journal a run stopped on a pending question set.
func waitingSteps(prompt string) []step {
	return []step{
		message(text(agentloop.RoleUser, prompt)),
		message(askMessage("toolu_1")),
		asked("toolu_1"),
		status(agentloop.StatusWaiting),
	}
}

// create journals steps in a new session and closes it.
func create(t testing.TB, st *session.Store, meta session.Meta, steps ...step) *session.Session {
	t.Helper()
	s, err := st.Create(meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range steps {
		if err := f(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return s
}

// open opens id and registers its closing.
func open(t *testing.T, st *session.Store, id session.ID) *session.Session {
	t.Helper()
	s, err := st.Open(string(id))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRoundTrip(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{Provider: "anthropic", Model: "claude-test", FirstPrompt: "pick a db", Cwd: "/src"}, finishedSteps("pick a db")...)
	s := open(t, st, w.Meta.ID)
	if !reflect.DeepEqual(s.Meta, w.Meta) || s.Meta.Created.IsZero() {
		t.Errorf("meta %+v, want %+v", s.Meta, w.Meta)
	}
	if len(s.State.Messages) != 4 || s.State.Messages[3].Text() != "Using SQLite." {
		t.Fatalf("messages %+v, want the 4 journaled", s.State.Messages)
	}
	if s.Status != "success" || s.Recovered != "" || s.Path() != filepath.Join(st.Dir, "sessions", string(w.Meta.ID)+".jsonl") {
		t.Errorf("status %q, recovered %q, path %q", s.Status, s.Recovered, s.Path())
	}
	if len(s.State.Results) != 0 || len(s.State.Pending()) != 0 || len(s.State.AskedAt) != 0 || len(s.State.Questions) != 0 {
		t.Errorf("results %+v, pending %+v, asked %+v after the results message; want none: the calls are settled",
			s.State.Results, s.State.Pending(), s.State.AskedAt)
	}
	// Appending to the opened session continues the same file.
	if err := s.Message(text(agentloop.RoleUser, "and add a cache")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := open(t, st, w.Meta.ID)
	if n := len(again.State.Messages); n != 5 || again.State.Messages[4].Text() != "and add a cache" || !again.Updated.Equal(s.Updated) {
		t.Errorf("%d messages, updated %v; want the appended fifth, updated %v", n, again.Updated, s.Updated)
	}
}

func TestTornLastLine(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	path := w.Path()
	intact, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	torn := `{"type":"message","at":"2025-03-14T09:00:30Z","message":{"role":"user","content":[{"type":"te`
	if err := os.WriteFile(path, append(intact, torn...), 0o600); err != nil {
		t.Fatal(err)
	}
	s := open(t, st, w.Meta.ID)
	want := fmt.Sprintf("dropped a torn last line (line 9, %d bytes), left by a process killed while writing", len(torn))
	if s.Recovered != want {
		t.Errorf("recovered %q, want %q", s.Recovered, want)
	}
	if len(s.State.Messages) != 4 || s.Status != "success" {
		t.Errorf("%d messages, status %q; want the 4 intact ones and success", len(s.State.Messages), s.Status)
	}
	// The torn bytes are gone before anything is appended.
	if fi, err := os.Stat(path); err != nil || fi.Size() != int64(len(intact)) {
		t.Fatalf("size after open %v (%v), want %d", fi.Size(), err, len(intact))
	}
	if err := s.Message(text(agentloop.RoleUser, "next")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := open(t, st, w.Meta.ID)
	if again.Recovered != "" || len(again.State.Messages) != 5 || again.State.Messages[4].Text() != "next" {
		t.Errorf("recovered %q, %d messages; want a clean load with the appended message", again.Recovered, len(again.State.Messages))
	}
}

// wantCorrupt checks that opening (and loading) id fails with a
// *CorruptError at line, with reason.
func wantCorrupt(t *testing.T, st *session.Store, id session.ID, line int, reason string) {
	t.Helper()
	for name, op := range map[string]func(string) (*session.Session, error){"open": st.Open, "load": st.Load} {
		s, err := op(string(id))
		var ce *session.CorruptError
		if !errors.As(err, &ce) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("%s: err %v, want a *session.CorruptError", name, err)
		}
		path := filepath.Join(st.Dir, "sessions", string(id)+".jsonl")
		if ce.Path != path || ce.Line != line || ce.Intact != line-1 || ce.Reason != reason {
			t.Errorf("%s: %+v, want path %s, line %d, %d intact, reason %q", name, ce, path, line, line-1, reason)
		}
		advice := fmt.Sprintf("head -n %d", line-1)
		switch {
		case strings.HasPrefix(reason, "written by a newer askuser"):
			advice = "resume it with that newer askuser"
		case line == 1:
			advice = "nothing in it can be resumed — delete it"
		}
		if !strings.Contains(err.Error(), advice) {
			t.Errorf("%s: %q does not give the advice %q", name, err, advice)
		}
	}
}

// rewrite replaces the journal of id with lines.
func rewrite(t *testing.T, st *session.Store, id session.ID, lines ...string) {
	t.Helper()
	dir := filepath.Join(st.Dir, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	data := strings.Join(lines, "")
	if err := os.WriteFile(filepath.Join(dir, string(id)+".jsonl"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// journalLines returns the lines of id's journal, each with its newline.
func journalLines(t *testing.T, s *session.Session) []string {
	t.Helper()
	data, err := os.ReadFile(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	return lines[:len(lines)-1] // after the last newline: ""

}

func TestDamagedLineInTheMiddle(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	lines := journalLines(t, w)
	lines[2] = `{"type":"message","at":` + "\n" // a line cut short, with records after it
	rewrite(t, st, w.Meta.ID, lines...)
	wantCorrupt(t, st, w.Meta.ID, 3, "unexpected end of JSON input")
}

func TestEmptyFile(t *testing.T) {
	st := newStore(t)
	rewrite(t, st, tid("e"))
	wantCorrupt(t, st, tid("e"), 1, "no complete session header; the run was killed before it began")
}

func TestFirstRecordNotAHeader(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	lines := journalLines(t, w)
	rewrite(t, st, w.Meta.ID, lines[1:]...)
	wantCorrupt(t, st, w.Meta.ID, 1, `the first record is "message", not the session header`)
}

func TestNewerFormatVersion(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	lines := journalLines(t, w)
	newer := fmt.Sprintf(`"version":%d`, session.FormatVersion+1)
	lines[0] = strings.Replace(lines[0], `"version":3`, newer, 1) // an own session is format 3
	rewrite(t, st, w.Meta.ID, lines...)
	wantCorrupt(t, st, w.Meta.ID, 1, fmt.Sprintf("written by a newer askuser (format %d, this one reads %d)", session.FormatVersion+1, session.FormatVersion))
}

func TestUnknownRecordType(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	lines := journalLines(t, w)
	// A whole, well-formed record of a kind this version does not know is
	// damage, not a torn write, even as the last line.
	rewrite(t, st, w.Meta.ID, append(lines, `{"type":"checkpoint","at":"2025-03-14T10:00:00Z"}`+"\n")...)
	wantCorrupt(t, st, w.Meta.ID, len(lines)+1, `unknown record type "checkpoint"`)
}

// TestHugeRecordTypeQuoted: a journal's record type is quoted at most
// ask.ExcerptChars characters long in the damage it reports, whatever the
// journal holds, so a planted 100 KB type is not echoed whole by askuser
// resume or askuser sessions --json.
func TestHugeRecordTypeQuoted(t *testing.T) {
	st := newStore(t)
	w := create(t, st, session.Meta{}, finishedSteps("pick a db")...)
	lines := journalLines(t, w)
	huge := strings.Repeat("x", 100_000)
	record := `{"type":"` + huge + `","at":"2025-03-14T10:00:00Z"}` + "\n"
	rewrite(t, st, w.Meta.ID, append(lines, record)...)
	wantCorrupt(t, st, w.Meta.ID, len(lines)+1, "unknown record type "+ask.Excerpt(huge))
	rewrite(t, st, w.Meta.ID, record)
	wantCorrupt(t, st, w.Meta.ID, 1, "the first record is "+ask.Excerpt(huge)+", not the session header")
}

func TestLockedWhileOpen(t *testing.T) {
	st := newStore(t)
	s, err := st.Create(session.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 2 {
		_, err := st.Open(string(s.Meta.ID))
		if err == nil || !strings.Contains(err.Error(), "is in use by another askuser process") {
			t.Fatalf("open of a session being written: err %v, want one saying it is in use", err)
		}
	}
	// Reading is not appending: Load does not need the lock.
	if _, err := st.Load(string(s.Meta.ID)); err != nil {
		t.Errorf("load while locked: %v", err)
	}
	s.Close()
	first := open(t, st, s.Meta.ID)
	if _, err := st.Open(string(s.Meta.ID)); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second open: err %v, want in use", err)
	}
	first.Close()
	open(t, st, s.Meta.ID)
}

func TestClosedSessionRefusesWrites(t *testing.T) {
	st := newStore(t)
	s := create(t, st, session.Meta{ID: tid("c1")})
	if err := s.Message(text(agentloop.RoleUser, "late")); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("write after close: %v, want an error saying it is closed", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}
