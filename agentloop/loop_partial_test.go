package agentloop_test

// A set answered in part keeps its answers: resume asks only the rest and
// merges, each answer with its own source; a set declined (askuser
// cancel) tells the model so when the session is resumed.

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/fakeprovider"
	"github.com/askuser/askuser/internal/session"
)

const authSetInput = `{"questions":[` +
	`{"question":"Which method?","header":"Method","options":[{"label":"JWT","description":"tokens"},{"label":"OAuth","description":"social"}],"multiSelect":false},` +
	`{"question":"Which providers?","header":"Providers","options":[{"label":"Google","description":"g"},{"label":"GitHub","description":"gh"}],"multiSelect":true}]}`

// partlyAnswered runs a session whose one set an answers file answers in
// part (Method), suspending for the rest, and returns its store and id.
func partlyAnswered(t *testing.T) (*fakeprovider.Server, agentloop.Provider, *session.Store, string) {
	srv, prov := anthropicWire.start(t, -1,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_auth", authSetInput)}},
		fakeprovider.Turn{Text: "Done."})
	store := &session.Store{Dir: t.TempDir(), Now: fixedClock(t0)}
	sess, err := store.Create(session.Meta{FirstPrompt: "go"})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	file, err := frontend.ParseFile("a.yaml", []byte("unanswered: suspend\nanswers:\n  Method: JWT\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: file, Journal: sess, Now: fixedClock(t0)}, sess.State, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting {
		t.Fatalf("first run: %s (%v), want waiting", out.Status, out.Err)
	}
	if len(out.Pending) != 1 || len(out.Pending[0].Questions) != 1 || out.Pending[0].Questions[0].Header != "Providers" {
		t.Errorf("waiting on %+v, want Providers alone", out.Pending)
	}
	return srv, prov, store, string(sess.Meta.ID)
}

func TestPartialAnswersKeptAcrossResume(t *testing.T) {
	srv, prov, store, id := partlyAnswered(t)
	sess, err := store.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if got := sess.State.Partial["toolu_auth"]; len(got) != 1 || got[0].Selected[0] != "JWT" {
		t.Fatalf("the journal kept %+v, want Method: JWT", got)
	}
	// The stub answers exactly one question: asked both, it fails the test.
	fe := newStubFrontend(t).answerAt("toolu_auth", ask.SourcePerson, t0, []string{"GitHub"})
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe, Journal: sess, Now: fixedClock(t0)}, sess.State, nil)
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("resume: %s (%v)", out.Status, out.Err)
	}
	results := srv.ToolResults()
	if len(results) != 1 {
		t.Fatalf("results sent %+v, want one", results)
	}
	want := "User answered some of the following questions; the others were answered as marked:\n\n" +
		"1. Method (Which method?)\n   Selected: JWT\n   Answered by: an answers file (a.yaml), set in advance, not chosen by a person at the time\n\n" +
		"2. Providers (Which providers?)\n   Selected: GitHub\n   Answered later: by a person, 0s after it was asked; the run had stopped to wait for it and was resumed\n\n"
	if !strings.HasPrefix(results[0].Content, want) {
		t.Errorf("the model was sent\n%s\nwant it to start\n%s", results[0].Content, want)
	}
}

func TestCancelledSetTellsTheModel(t *testing.T) {
	srv, prov, store, id := partlyAnswered(t)
	sess, err := store.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Cancel("busy this week"); err != nil {
		t.Fatal(err)
	}
	sess.Close()
	if sess, err = store.Open(id); err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if sum := sess.Summary(); sum.Status != session.StatusCancelled {
		t.Errorf("listed as %q after cancel", sum.Status)
	}
	// Nobody is asked: a stub without stubs fails the test on any question.
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t), Journal: sess, Now: fixedClock(t0)}, sess.State, nil)
	if out.Status != agentloop.StatusSuccess || out.Result != "Done." {
		t.Fatalf("resume after cancel: %s %q (%v), want the model to go on", out.Status, out.Result, out.Err)
	}
	results := srv.ToolResults()
	if len(results) != 1 || !strings.Contains(results[0].Content, "1. Method (Which method?)\n   Selected: JWT\n   Answered by: an answers file") ||
		!strings.Contains(results[0].Content, "2. Providers (Which providers?)\n   Declined: the user chose not to answer; their reason: busy this week\n") {
		t.Errorf("the model was sent %+v, want the file's answer and the declination", results)
	}
}
