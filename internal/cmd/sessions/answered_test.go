package sessions

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// runIn runs askuser sessions in this process with an empty environment
// but for vars.
func runIn(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return cmdtest.RunIn(t, vars, args, cmdtest.Cmd(NewCmdSessions))
}

// askuser sessions says who answered a set whose answer waits in its
// mailbox for the session to take it.
func TestSessionsShowWhoAnswered(t *testing.T) {
	dir := t.TempDir()
	store := &session.Store{Dir: dir}
	s, err := store.Create(session.Meta{FirstPrompt: "Pick a database"})
	if err != nil {
		t.Fatal(err)
	}
	q := ask.Question{Question: "Which database?", Header: "Database", Options: []ask.Option{{Label: "A"}, {Label: "B"}}}
	in, _ := json.Marshal(ask.Input{Questions: []ask.Question{q}})
	s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockToolUse, ID: "toolu_1", Name: ask.ToolName, Input: in}}})
	at := time.Now().Add(-time.Hour)
	s.Asked(ask.Request{ID: "toolu_1", Questions: []ask.Question{q}}, "toolu_1", at)
	s.SetStatus(string(agentloop.StatusWaiting), "", 1, agentloop.Usage{})
	s.Close()
	a, _ := ask.Selection(q, []string{"B"}, "", ask.SourcePerson)
	a.Via = "@alice on Slack"
	if err := store.Mailbox().Post(context.Background(), session.Box{Session: string(s.Meta.ID), Key: relay.Key(string(s.Meta.ID), "toolu_1", at)},
		session.Delivery{Answers: []ask.Answer{a}, By: a.Via, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"ASKUSER_STATE_DIR": dir}
	if _, out, _ := runIn(t, vars, "sessions"); !strings.Contains(out, "answered by @alice on Slack: Database (taken when it goes on: askuser resume)") {
		t.Errorf("sessions:\n%s", out)
	}
	if _, out, _ := runIn(t, vars, "sessions", "--json"); !strings.Contains(out, `"answered_by":"@alice on Slack"`) {
		t.Errorf("sessions --json:\n%s", out)
	}
}
