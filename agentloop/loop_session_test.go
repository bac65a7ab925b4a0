package agentloop_test

// A run journaled by internal/session replays from disk into the State the
// loop had, and resumes from it.

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fakeprovider"
	"github.com/askuser/askuser/internal/session"
)

// sameState fails the test unless loaded is the State want, field by field.
// Messages are compared as JSON: a tool_use input read back from disk is
// the same JSON, not necessarily the same bytes.
func sameState(t *testing.T, what string, loaded, want *agentloop.State) {
	t.Helper()
	got, _ := json.Marshal(loaded.Messages)
	exp, _ := json.Marshal(want.Messages)
	if string(got) != string(exp) {
		t.Errorf("%s: messages\n got %s\nwant %s", what, got, exp)
	}
	if !reflect.DeepEqual(loaded.Results, want.Results) {
		t.Errorf("%s: results\n got %+v\nwant %+v", what, loaded.Results, want.Results)
	}
	if !maps.EqualFunc(loaded.AskedAt, want.AskedAt, time.Time.Equal) {
		t.Errorf("%s: asked at\n got %v\nwant %v", what, loaded.AskedAt, want.AskedAt)
	}
	if !reflect.DeepEqual(loaded.Questions, want.Questions) {
		t.Errorf("%s: questions\n got %+v\nwant %+v", what, loaded.Questions, want.Questions)
	}
}

func TestSessionJournalReplaysAndResumes(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, twoSetsTurns()...)
	store := &session.Store{Dir: t.TempDir(), Now: fixedClock(t0)}
	sess, err := store.Create(session.Meta{Provider: prov.Name(), Model: prov.Model(), FirstPrompt: "go"})
	if err != nil {
		t.Fatal(err)
	}
	id := string(sess.Meta.ID)

	// First run: one set answered, the other deferred.
	fe := newStubFrontend(t).fail("toolu_1", fmt.Errorf("%w: later", ask.ErrDeferred)).answer("toolu_2", []string{"SQLite"})
	st := sess.State
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe, Journal: sess, Now: fixedClock(t0)}, st, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting {
		t.Fatalf("first run: status %s (%v), want waiting", out.Status, out.Err)
	}
	if err := sess.SetStatus(string(out.Status), out.Reason, out.Turns, out.Usage); err != nil {
		t.Fatal(err)
	}
	loaded, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, "after the first run", loaded.State, st)
	if len(st.Results) != 1 || len(st.AskedAt) != 2 {
		t.Errorf("the first run left %d results and %d asked sets, want 1 and 2", len(st.Results), len(st.AskedAt))
	}
	if sum := loaded.Summary(); sum.Status != "waiting on a question" || sum.Pending != 1 || sum.FirstPrompt != "go" {
		t.Errorf("summary %+v, want waiting on one question", sum)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}

	// Second run, as `askuser resume` does it: open the journal, continue.
	later := t0.Add(2 * time.Hour)
	store.Now = fixedClock(later)
	reopened, err := store.Open(id[:8])
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	sameState(t, "reopened", reopened.State, st)
	fe2 := newStubFrontend(t).answerAt("toolu_1", ask.SourcePerson, later, []string{"JWT"}, []string{"GitHub"})
	out = run(t, &agentloop.Loop{Provider: prov, Frontend: fe2, Journal: reopened, Now: fixedClock(later)}, reopened.State, nil)
	if out.Status != agentloop.StatusSuccess || out.Turns != 1 {
		t.Fatalf("resumed run: status %s after %d turns (%v), want success after 1", out.Status, out.Turns, out.Err)
	}
	wantResults(t, srv,
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_1", Content: authLateResult},
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_2", Content: dbPersonResult},
	)
	if len(srv.Requests()) != 2 {
		t.Errorf("%d model calls in all, want 2", len(srv.Requests()))
	}
	if err := reopened.SetStatus(string(out.Status), "", out.Turns, out.Usage); err != nil {
		t.Fatal(err)
	}
	final, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	sameState(t, "after resuming", final.State, reopened.State)
	if sum := final.Summary(); sum.Status != "finished" || sum.Pending != 0 || !sum.Updated.Equal(later) {
		t.Errorf("summary %+v, want finished, updated at %s", sum, later)
	}
}
