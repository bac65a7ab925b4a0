package session_test

// "kill -9 at any instant": a journal cut at every byte offset either
// opens, with the records whose lines are whole, or, when the cut falls in
// the very first record, fails with a *CorruptError. It never panics, never
// loads a state that was not written, and an append after opening it loads
// cleanly.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/session"
)

func TestCutAtEveryOffset(t *testing.T) {
	src := newStore(t)
	steps := append(finishedSteps("pick a db"), message(text(agentloop.RoleUser, "and now a cache")),
		message(askMessage("toolu_2")), asked("toolu_2"), answered("toolu_2"))
	w := create(t, src, session.Meta{ID: tid("f"), FirstPrompt: "pick a db"}, steps...)
	full, err := os.ReadFile(w.Path())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := src.Load("f")
	if err != nil {
		t.Fatal(err)
	}
	fullMessages := marshalEach(whole.State.Messages)
	header := bytes.IndexByte(full, '\n') + 1

	st := newStore(t)
	dir := filepath.Join(st.Dir, "sessions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, string(w.Meta.ID)+".jsonl") // a journal is used under its own id only
	for off := 0; off <= len(full); off++ {
		prefix := full[:off]
		if err := os.WriteFile(path, prefix, 0o600); err != nil {
			t.Fatal(err)
		}
		if !cutOpens(t, st, off, prefix, fullMessages, off < header) {
			return // one offset's failure says enough
		}
	}
}

// cutOpens checks one cut journal; corruptOK says the cut is inside the
// first record. It reports whether the checks passed.
func cutOpens(t *testing.T, st *session.Store, off int, prefix []byte, full []string, corruptOK bool) bool {
	t.Helper()
	s, err := st.Open("f")
	if err != nil {
		var ce *session.CorruptError
		if corruptOK && errors.As(err, &ce) && ce.Line == 1 && ce.Intact == 0 {
			return true
		}
		t.Errorf("cut at %d of the journal: %v", off, err)
		return false
	}
	defer s.Close()
	if corruptOK {
		t.Errorf("cut at %d, inside the header, opened: %+v", off, s.Meta)
		return false
	}
	// The records are the whole lines of the prefix; a partial last line is
	// dropped, said so, and cut off the file.
	whole := prefix[:bytes.LastIndexByte(prefix, '\n')+1]
	torn := len(whole) < len(prefix)
	if (s.Recovered != "") != torn {
		t.Errorf("cut at %d: recovered %q, but the last line is torn: %v", off, s.Recovered, torn)
		return false
	}
	if fi, err := os.Stat(s.Path()); err != nil || fi.Size() != int64(len(whole)) {
		t.Errorf("cut at %d: file is %d bytes after open (%v), want the %d of whole lines", off, fi.Size(), err, len(whole))
		return false
	}
	got := marshalEach(s.State.Messages)
	if len(got) != countType(whole, "message") || len(got) > len(full) || strings.Join(got, "\n") != strings.Join(full[:len(got)], "\n") {
		t.Errorf("cut at %d: loaded messages\n%s\nwant the first %d of\n%s", off, strings.Join(got, "\n"), countType(whole, "message"), strings.Join(full, "\n"))
		return false
	}
	// The journal takes appends and then loads cleanly.
	if err := s.Message(text(agentloop.RoleUser, "after the crash")); err != nil {
		t.Errorf("cut at %d: append: %v", off, err)
		return false
	}
	s.Close()
	again, err := st.Load("f")
	if err != nil {
		t.Errorf("cut at %d: after an append: %v", off, err)
		return false
	}
	if again.Recovered != "" || len(again.State.Messages) != len(got)+1 {
		t.Errorf("cut at %d: after an append, %d messages (recovered %q), want %d and a clean load", off, len(again.State.Messages), again.Recovered, len(got)+1)
		return false
	}
	return true
}

// marshalEach returns each message as JSON.
func marshalEach(ms []agentloop.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		b, _ := json.Marshal(m)
		out[i] = string(b)
	}
	return out
}

// countType counts the lines of data whose record type is typ.
func countType(data []byte, typ string) int {
	n := 0
	for _, line := range bytes.Split(data, []byte("\n")) {
		var r struct{ Type string }
		if json.Unmarshal(line, &r) == nil && r.Type == typ {
			n++
		}
	}
	return n
}
