package session_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/session"
)

func TestIDPrefixLookup(t *testing.T) {
	st := newStore(t)
	for _, id := range []string{"abc-1", "abc-10", "abd-2", "xyz-1"} {
		create(t, st, session.Meta{ID: id}, waitingSteps("prompt of "+id)...)
	}
	for ref, want := range map[string]string{"xyz": "xyz-1", "abd": "abd-2", "abc-10": "abc-10", "abc-1": "abc-1"} {
		s, err := st.Load(ref)
		if err != nil || s.Meta.ID != want {
			t.Errorf("Load(%q) = %v, %v; want session %s", ref, s, err, want)
		}
	}
	_, err := st.Open("abc")
	if !errors.Is(err, session.ErrAmbiguous) || err.Error() != `ambiguous session id: "abc" is the start of 2 sessions (abc-1, abc-10); give more of it` {
		t.Errorf("Open(abc) err %v, want it ambiguous between abc-1 and abc-10", err)
	}
	// Not patterns, not paths: each is refused, though each would match
	// a session as a glob or a path.
	for _, ref := range []string{"nope", "", "../abc-1", ".hidden", `abc\1`, "*", "?", "abc-1?", "[a]bc-1", "x*", "abc-1/", "..", "abc-1.jsonl", "abc 1"} {
		if _, err := st.Open(ref); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("Open(%q) err %v, want ErrNotFound", ref, err)
		}
	}
	_, err = st.Load("nope")
	if err == nil || !strings.Contains(err.Error(), "askuser sessions lists them") {
		t.Errorf("Load(nope) err %v, want it to say how to list sessions", err)
	}
}

func TestListAndLatest(t *testing.T) {
	st := newStore(t)
	if _, err := st.Latest(); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Latest of no sessions: err %v, want ErrNotFound", err)
	}
	// Written in this order, so each is updated after the one before.
	// The header's first prompt wins over the first message.
	create(t, st, session.Meta{ID: "finished", FirstPrompt: "pick a database"}, finishedSteps("pick a db")...)
	create(t, st, session.Meta{ID: "waiting"}, waitingSteps("add auth")...)
	create(t, st, session.Meta{ID: "maxturns"}, message(text(agentloop.RoleUser, "loop forever")), status(agentloop.StatusMaxTurns))
	create(t, st, session.Meta{ID: "running"}, message(text(agentloop.RoleUser, "still going")))
	// A process still holds this one: it is running, not interrupted.
	held, err := st.Open("running")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	damaged := create(t, st, session.Meta{ID: "damaged"}, finishedSteps("broken")...)
	var data []byte
	data, err = os.ReadFile(damaged.Path())
	if err != nil {
		t.Fatal(err)
	}
	// Damage the second line, keep the rest; date the file between the
	// waiting and the max_turns sessions.
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = "garbage\n"
	if err := os.WriteFile(damaged.Path(), []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	waiting, err := st.Load("waiting")
	if err != nil {
		t.Fatal(err)
	}
	mtime := waiting.Updated.Add(500 * time.Millisecond)
	if err := os.Chtimes(damaged.Path(), mtime, mtime); err != nil {
		t.Fatal(err)
	}

	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []session.Summary{
		{ID: "running", FirstPrompt: "still going", Status: "running"},
		{ID: "maxturns", FirstPrompt: "loop forever", Status: "max_turns"},
		{ID: "damaged", Status: "damaged"},
		{ID: "waiting", FirstPrompt: "add auth", Status: "waiting on a question", Pending: 1},
		{ID: "finished", FirstPrompt: "pick a database", Status: "finished"},
	}
	if len(list) != len(want) {
		t.Fatalf("listed %+v, want %d sessions", list, len(want))
	}
	for i, w := range want {
		g := list[i]
		if g.ID != w.ID || g.FirstPrompt != w.FirstPrompt || g.Status != w.Status || g.Pending != w.Pending {
			t.Errorf("entry %d: %+v, want %+v", i, g, w)
		}
		if i > 0 && g.Updated.After(list[i-1].Updated) {
			t.Errorf("entry %d (%s) updated %v, after the entry above it", i, g.ID, g.Updated)
		}
		if w.Status != "damaged" && (g.Err != "" || g.Created.IsZero()) {
			t.Errorf("entry %d: error %q, created %v; want no error and a creation time", i, g.Err, g.Created)
		}
	}
	d := list[2]
	wantErr := "session file " + filepath.Join(st.Dir, "sessions", "damaged.jsonl") + " is damaged at line 2"
	if !strings.HasPrefix(d.Err, wantErr) || !d.Updated.Equal(mtime) {
		t.Errorf("damaged entry %+v, want error starting %q, updated at the file's time %v", d, wantErr, mtime)
	}

	latest, err := st.Latest()
	if err != nil || latest != "running" {
		t.Errorf("Latest() = %q, %v; want running", latest, err)
	}
	// The damaged session, even when newest, is never the latest.
	future := mtime.Add(time.Hour)
	if err := os.Chtimes(damaged.Path(), future, future); err != nil {
		t.Fatal(err)
	}
	if latest, err := st.Latest(); err != nil || latest != "running" {
		t.Errorf("Latest() with a newer damaged file = %q, %v; want running", latest, err)
	}
}

// A session whose process died without a status (kill -9) is listed as
// interrupted; the same session held by a live process is running.
func TestListInterruptedVersusRunning(t *testing.T) {
	st := newStore(t)
	create(t, st, session.Meta{ID: "killed"}, message(text(agentloop.RoleUser, "was going")))
	status := func() string {
		list, err := st.List()
		if err != nil || len(list) != 1 {
			t.Fatalf("List() = %+v, %v", list, err)
		}
		return list[0].Status
	}
	if got := status(); got != "interrupted" {
		t.Errorf("closed session without a status listed as %q, want interrupted", got)
	}
	held, err := st.Open("killed")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if got := status(); got != "running" {
		t.Errorf("held session listed as %q, want running", got)
	}
}

// TestIDLookupManyCandidates: an ambiguous prefix names its candidates,
// ten at most, and counts the rest; an unknown one is not found.
func TestIDLookupManyCandidates(t *testing.T) {
	st := newStore(t)
	for i := range 12 {
		create(t, st, session.Meta{ID: fmt.Sprintf("cafe%02d", i)}, waitingSteps("p")...)
	}
	_, err := st.Load("cafe")
	want := `ambiguous session id: "cafe" is the start of 12 sessions (cafe00, cafe01, cafe02, cafe03, cafe04, cafe05, cafe06, cafe07, cafe08, cafe09 and 2 more); give more of it`
	if !errors.Is(err, session.ErrAmbiguous) || err.Error() != want {
		t.Errorf("Load(cafe) err %v\nwant %s", err, want)
	}
	if _, err := st.Load("cafe1"); !errors.Is(err, session.ErrAmbiguous) || !strings.Contains(err.Error(), "(cafe10, cafe11)") {
		t.Errorf("Load(cafe1) err %v, want it ambiguous between cafe10 and cafe11", err)
	}
	if s, err := st.Load("cafe11"); err != nil || s.Meta.ID != "cafe11" {
		t.Errorf("Load(cafe11) = %v, %v; want session cafe11", s, err)
	}
	if _, err := st.Load("beef"); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Load(beef) err %v, want ErrNotFound", err)
	}
}

// TestStateDirWithPatternCharacters: a state directory whose name holds
// glob characters is a directory like any other.
func TestStateDirWithPatternCharacters(t *testing.T) {
	st := newStore(t)
	st.Dir = filepath.Join(st.Dir, "[state]*")
	create(t, st, session.Meta{ID: "d00d"}, waitingSteps("p")...)
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].ID != "d00d" {
		t.Fatalf("List() = %v, %v; want session d00d", list, err)
	}
	if s, err := st.Load("d0"); err != nil || s.Meta.ID != "d00d" {
		t.Errorf("Load(d0) = %v, %v; want session d00d", s, err)
	}
}
