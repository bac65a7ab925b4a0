package session_test

import (
	"encoding/json"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// The records of an open call (a question set asked by it and answered, a
// step, a session value) load back into the State the loop had, and the
// call-scoped ones are dropped once its results message is journaled.
func TestRoundTripOpenCall(t *testing.T) {
	st := newStore(t)
	answers := []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourceFile}}
	req := dbRequest
	req.ID = "toolu_1/approval"
	w := create(t, st, session.Meta{},
		message(text(agentloop.RoleUser, "go")),
		message(askMessage("toolu_1")),
		func(s *session.Session) error { return s.Asked(req, "toolu_1", t0) },
		func(s *session.Session) error { return s.Replied(req.ID, answers) },
		func(s *session.Session) error { return s.Step("toolu_1", "started", json.RawMessage(`true`)) },
		func(s *session.Session) error { return s.Step("", "grant:mcp__fs", json.RawMessage(`{"by":"person"}`)) },
	)
	s := open(t, st, w.Meta.ID)
	if got := s.State.AskedBy[req.ID]; got != "toolu_1" {
		t.Errorf("asked by %q, want toolu_1", got)
	}
	if got := s.State.Replies[req.ID]; len(got) != 1 || got[0].Source != ask.SourceFile || got[0].Selected[0] != "SQLite" {
		t.Errorf("replies %+v, want the recorded answer", got)
	}
	if got := string(s.State.Steps["toolu_1"]["started"]); got != "true" {
		t.Errorf("step %q, want true", got)
	}
	if len(s.State.PendingQuestions()) != 0 {
		t.Errorf("pending questions %+v; the set was answered", s.State.PendingQuestions())
	}
	r, _ := answerResult("toolu_1")
	if err := s.Answered("toolu_1", r, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{r}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, st, w.Meta.ID)
	if len(s.State.Steps) != 0 || len(s.State.Replies) != 0 || len(s.State.AskedBy) != 0 {
		t.Errorf("steps %v, replies %v, asked %v after the results message; want none", s.State.Steps, s.State.Replies, s.State.AskedBy)
	}
	if got, _ := s.State.Session.Get("grant:mcp__fs"); string(got) != `{"by":"person"}` {
		t.Errorf("session value %q, want it kept for the rest of the session", got)
	}
}
