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
	a1, a2, d2, e1 := tid("abc1"), tid("abc2"), tid("abd2"), tid("ee1")
	for _, id := range []session.ID{a1, a2, d2, e1} {
		create(t, st, session.Meta{ID: id}, waitingSteps("prompt of "+string(id))...)
	}
	for ref, want := range map[string]session.ID{"ee": e1, "abd": d2, "abc1": a1, "abc2000": a2, string(a1): a1, string(a2)[:12]: a2} {
		s, err := st.Load(ref)
		if err != nil || s.Meta.ID != want {
			t.Errorf("Load(%q) = %v, %v; want session %s", ref, s, err, want)
		}
	}
	_, err := st.Open("abc")
	if want := fmt.Sprintf(`ambiguous session id: "abc" is the start of 2 sessions (%s, %s); give more of it`, a1, a2); !errors.Is(err, session.ErrAmbiguous) || err.Error() != want {
		t.Errorf("Open(abc) err %v, want %s", err, want)
	}
	// Not patterns, not paths, not flags, not another case: each is
	// refused, though each would match a session as a glob, a path or
	// case-blind.
	for _, ref := range []string{"nope", "", "../" + string(a1), ".hidden", `abc\1`, "*", "?", "abc1?", "[a]bc1", "x*", "abc1/", "..",
		string(a1) + ".jsonl", "abc 1", "ABC1", "-abc1", "--mcp-config=x", "abc1-", string(a1) + "0"} {
		if _, err := st.Open(ref); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("Open(%q) err %v, want ErrNotFound", ref, err)
		}
	}
	_, err = st.Load("nope")
	if want := `no such session: "nope" is not a session id: an id is a UUID in lower-case hex such as `; err == nil ||
		!strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "askuser sessions lists them") {
		t.Errorf("Load(nope) err %v, want it to say what an id is and how to list sessions", err)
	}
	_, err = st.Load(string(tid("abc3")))
	if err == nil || !strings.Contains(err.Error(), "askuser sessions lists them") {
		t.Errorf("Load of an id no session has: err %v, want it to say how to list sessions", err)
	}
}

func TestListAndLatest(t *testing.T) {
	st := newStore(t)
	if _, err := st.Latest(); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Latest of no sessions: err %v, want ErrNotFound", err)
	}
	// Written in this order, so each is updated after the one before.
	// The header's first prompt wins over the first message.
	finished, waitingID, maxturns, running, damagedID := tid("f1"), tid("a1"), tid("c1"), tid("d1"), tid("da")
	create(t, st, session.Meta{ID: finished, FirstPrompt: "pick a database"}, finishedSteps("pick a db")...)
	create(t, st, session.Meta{ID: waitingID}, waitingSteps("add auth")...)
	create(t, st, session.Meta{ID: maxturns}, message(text(agentloop.RoleUser, "loop forever")), status(agentloop.StatusMaxTurns))
	create(t, st, session.Meta{ID: running}, message(text(agentloop.RoleUser, "still going")))
	// A process still holds this one: it is running, not interrupted.
	held, err := st.Open(string(running))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	damaged := create(t, st, session.Meta{ID: damagedID}, finishedSteps("broken")...)
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
	waiting, err := st.Load(string(waitingID))
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
		{ID: string(running), FirstPrompt: "still going", Status: "running"},
		{ID: string(maxturns), FirstPrompt: "loop forever", Status: "max_turns"},
		{ID: string(damagedID), Status: "damaged"},
		{ID: string(waitingID), FirstPrompt: "add auth", Status: "waiting on a question", Pending: 1},
		{ID: string(finished), FirstPrompt: "pick a database", Status: "finished"},
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
	wantErr := "session file " + damaged.Path() + " is damaged at line 2"
	if !strings.HasPrefix(d.Err, wantErr) || !d.Updated.Equal(mtime) {
		t.Errorf("damaged entry %+v, want error starting %q, updated at the file's time %v", d, wantErr, mtime)
	}

	latest, err := st.Latest()
	if err != nil || latest != string(running) {
		t.Errorf("Latest() = %q, %v; want running", latest, err)
	}
	// The damaged session, even when newest, is never the latest.
	future := mtime.Add(time.Hour)
	if err := os.Chtimes(damaged.Path(), future, future); err != nil {
		t.Fatal(err)
	}
	if latest, err := st.Latest(); err != nil || latest != string(running) {
		t.Errorf("Latest() with a newer damaged file = %q, %v; want running", latest, err)
	}
}

// A session whose process died without a status (kill -9) is listed as
// interrupted; the same session held by a live process is running.
func TestListInterruptedVersusRunning(t *testing.T) {
	st := newStore(t)
	create(t, st, session.Meta{ID: tid("dead")}, message(text(agentloop.RoleUser, "was going")))
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
	held, err := st.Open("dead")
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
	var ids []string
	for i := range 12 {
		id := tid(fmt.Sprintf("cafe%02d", i))
		ids = append(ids, string(id))
		create(t, st, session.Meta{ID: id}, waitingSteps("p")...)
	}
	_, err := st.Load("cafe")
	want := `ambiguous session id: "cafe" is the start of 12 sessions (` + strings.Join(ids[:10], ", ") + ` and 2 more); give more of it`
	if !errors.Is(err, session.ErrAmbiguous) || err.Error() != want {
		t.Errorf("Load(cafe) err %v\nwant %s", err, want)
	}
	if _, err := st.Load("cafe1"); !errors.Is(err, session.ErrAmbiguous) || !strings.Contains(err.Error(), "("+ids[10]+", "+ids[11]+")") {
		t.Errorf("Load(cafe1) err %v, want it ambiguous between cafe10… and cafe11…", err)
	}
	if s, err := st.Load("cafe11"); err != nil || string(s.Meta.ID) != ids[11] {
		t.Errorf("Load(cafe11) = %v, %v; want session %s", s, err, ids[11])
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
	id := tid("d00d")
	create(t, st, session.Meta{ID: id}, waitingSteps("p")...)
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].ID != string(id) {
		t.Fatalf("List() = %v, %v; want session %s", list, err, id)
	}
	if s, err := st.Load("d0"); err != nil || s.Meta.ID != id {
		t.Errorf("Load(d0) = %v, %v; want session %s", s, err, id)
	}
}
