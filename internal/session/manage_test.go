package session_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

const authInput = `{"questions":[` +
	`{"question":"Which method?","header":"Method","options":[{"label":"JWT","description":"tokens"},{"label":"OAuth","description":"social"}],"multiSelect":false},` +
	`{"question":"Which providers?","header":"Providers","options":[{"label":"Google","description":"g"},{"label":"GitHub","description":"gh"}],"multiSelect":true}]}`

// authRequest is authInput's set.
func authRequest(t *testing.T, id string) ask.Request {
	in, err := ask.Parse(json.RawMessage(authInput))
	if err != nil {
		t.Fatal(err)
	}
	return ask.Request{ID: id, Questions: in.Questions}
}

// waitingWithChild journals a run stopped with three things pending: a set
// answered in part by a file, a sub-agent's set, and an AskUserQuestion
// call never asked (queued behind the first at a terminal).
func waitingWithChild(t *testing.T) []step {
	auth := authRequest(t, "toolu_auth")
	fileAnswer := ask.Answer{Question: "Which method?", Header: "Method", Selected: []string{"JWT"}, Source: ask.SourceFile, Via: "a.yaml"}
	child := dbRequest
	child.ID, child.Agent = "toolu_task/call_0", "Research databases"
	return []step{
		message(text(agentloop.RoleUser, "Add auth")),
		message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
			{Type: agentloop.BlockText, Text: "I need \x1b[31mdecisions\x1b[0m."},
			{Type: agentloop.BlockToolUse, ID: "toolu_auth", Name: ask.ToolName, Input: json.RawMessage(authInput)},
			{Type: agentloop.BlockToolUse, ID: "toolu_task", Name: agentloop.TaskName, Input: json.RawMessage(`{"description":"Research databases","prompt":"find one"}`)},
			{Type: agentloop.BlockToolUse, ID: "toolu_later", Name: ask.ToolName, Input: json.RawMessage(dbInput)},
		}}),
		func(s *session.Session) error { return s.Asked(auth, "toolu_auth", t0) },
		func(s *session.Session) error { return s.Partial("toolu_auth", []ask.Answer{fileAnswer}, []int{0}) },
		func(s *session.Session) error {
			return s.Child("toolu_task").Message(text(agentloop.RoleUser, "find one"))
		},
		func(s *session.Session) error { return s.Child("toolu_task").Message(askMessage("call_0")) },
		func(s *session.Session) error {
			return s.Child("toolu_task").Asked(child, "call_0", t0.Add(time.Minute))
		},
		status(agentloop.StatusWaiting),
	}
}

func TestPartialAnswersLoad(t *testing.T) {
	st := newStore(t)
	create(t, st, session.Meta{ID: tid("b"), Cwd: "/src/app"}, waitingWithChild(t)...)
	s, err := st.Load("b")
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Summary()
	if sum.Status != session.StatusWaiting || sum.Title != "Add auth" || sum.Cwd != "/src/app" {
		t.Errorf("summary %+v, want waiting, titled Add auth, in /src/app", sum)
	}
	var got [][]string
	for _, w := range sum.Questions {
		got = append(got, append([]string{w.ID, w.Agent, w.Tool}, w.Headers...))
	}
	want := [][]string{{"toolu_auth", "", ask.ToolName, "Providers"}, {"toolu_task/call_0", "Research databases", ask.ToolName, "Database"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("waiting sets %q, want %q (the set answered in part lists only what is left; the tool is the call's that asked)", got, want)
	}
	if w := sum.Questions[1]; !w.AskedAt.Equal(t0.Add(time.Minute)) || w.LastText != "One question first." {
		t.Errorf("the sub-agent's set was asked at %v after %q", w.AskedAt, w.LastText)
	}
	if !reflect.DeepEqual(sum.Agents, []string{"Research databases"}) {
		t.Errorf("agents %q", sum.Agents)
	}
	if qs := s.State.PendingQuestions(); len(qs) != 2 || len(qs[0].Questions) != 1 || qs[0].Questions[0].Header != "Providers" {
		t.Errorf("pending questions %+v, want Providers alone first", qs)
	}
}

func TestCancelDeclinesEverySet(t *testing.T) {
	st := newStore(t)
	create(t, st, session.Meta{ID: tid("c")}, waitingWithChild(t)...)
	s := open(t, st, tid("c"))
	declined, err := s.Cancel("  not needed \x1b[31many more\x1b[0m\n")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range declined {
		ids = append(ids, r.ID)
	}
	if want := []string{"toolu_auth", "toolu_later", "toolu_task/call_0"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("declined %q, want %q", ids, want)
	}
	s.Close()

	loaded, err := st.Load(string(tid("c")))
	if err != nil {
		t.Fatal(err)
	}
	sum := loaded.Summary()
	if sum.Status != session.StatusCancelled || sum.CancelReason != "not needed any more" || len(sum.Questions) != 0 {
		t.Errorf("after cancel: %+v, want cancelled with the cleaned reason and nothing waiting", sum)
	}
	auth := loaded.State.Replies["toolu_auth"]
	if len(auth) != 2 || auth[0].Source != ask.SourceFile || auth[0].Declined != nil || auth[1].Declined == nil || auth[1].Declined.Reason != "not needed any more" {
		t.Errorf("toolu_auth's answers %+v: want the file's answer kept, the other declined", auth)
	}
	if later := loaded.State.Replies["toolu_later"]; len(later) != 1 || later[0].Declined == nil {
		t.Errorf("the call never asked was not declined: %+v", later)
	}
	child := loaded.State.Children["toolu_task"]
	if c := child.Replies["toolu_task/call_0"]; len(c) != 1 || c[0].Declined == nil {
		t.Errorf("the sub-agent's set was not declined: %+v", c)
	}
	if len(loaded.State.Pending()) != 3 {
		t.Error("cancel answered the calls themselves; resume must run them, so the model is told")
	}

	// The session goes on (resume): no longer listed as cancelled.
	s = open(t, st, tid("c"))
	if err := s.Message(text(agentloop.RoleAssistant, "Understood.")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if again, _ := st.Load(string(tid("c"))); again.Summary().Status == session.StatusCancelled {
		t.Error("a session resumed after cancel is still listed as cancelled")
	}
}

func TestRemove(t *testing.T) {
	st := newStore(t)
	gone, heldID := tid("90e1"), tid("4e1d")
	create(t, st, session.Meta{ID: gone}, finishedSteps("p")...)
	create(t, st, session.Meta{ID: heldID}, waitingSteps("p")...)
	side := st.SideDir(gone)
	if err := os.MkdirAll(filepath.Join(side, "mcp"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(side, "mcp", "server.log"), []byte("log"), 0o600); err != nil {
		t.Fatal(err)
	}
	if id, err := st.Remove("90e"); err != nil || id != string(gone) {
		t.Fatalf("Remove(90e) = %q, %v", id, err)
	}
	for _, p := range []string{filepath.Join(st.Dir, "sessions", string(gone)+".jsonl"), side} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (%v)", p, err)
		}
	}
	if _, err := st.Remove(string(gone)); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("second Remove: err %v, want ErrNotFound", err)
	}

	held := open(t, st, heldID)
	_, err := st.Remove(string(heldID))
	if !errors.Is(err, session.ErrInUse) || !strings.Contains(err.Error(), "session "+string(heldID)+" is in use by another askuser process") {
		t.Errorf("Remove of a held session: err %v, want it refused as in use", err)
	}
	if _, err := st.Load(string(heldID)); err != nil {
		t.Errorf("the held session was damaged by the refused remove: %v", err)
	}
	held.Close()
	if _, err := st.Remove(string(heldID)); err != nil {
		t.Errorf("Remove once released: %v", err)
	}

	// A journal whose name is not an id is listed, and removed, by it.
	odd := filepath.Join(st.Dir, "sessions", "odd name.jsonl")
	if err := os.WriteFile(odd, []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Remove("odd name"); err != nil {
		t.Errorf("Remove of a listed damaged journal: %v", err)
	}
	for _, bad := range []string{"..", "../x", "*"} {
		if _, err := st.Remove(bad); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("Remove(%q): err %v, want ErrNotFound", bad, err)
		}
	}
}

func TestTitle(t *testing.T) {
	for in, want := range map[string]string{
		"  Add   auth\n\tnow ":      "Add auth now",
		"\x1b]0;pwned\x07Fix it":    "Fix it",
		strings.Repeat("word ", 30): strings.TrimSpace(strings.Repeat("word ", 12)) + "…",
	} {
		if got := session.Title(in); got != want {
			t.Errorf("Title(%q) = %q, want %q", in, got, want)
		}
	}
	st := newStore(t)
	s := create(t, st, session.Meta{FirstPrompt: "Add\nauthentication"})
	if s.Meta.Title != "Add authentication" {
		t.Errorf("created with title %q", s.Meta.Title)
	}
}

func TestSameDir(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip(err)
	}
	if !session.SameDir(dir, link) || !session.SameDir(dir, dir+"/") || session.SameDir(dir, t.TempDir()) || session.SameDir("", "") {
		t.Error("SameDir is wrong about a link, a trailing slash, another directory or nothing")
	}
}
