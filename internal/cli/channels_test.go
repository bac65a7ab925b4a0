package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// testchanVars configure the test channel against srv, in a fresh state
// and config directory.
func testchanVars(t *testing.T, srv *channeltest.Server) map[string]string {
	return map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ASKUSER_STATE_DIR": t.TempDir(),
		"TESTCHAN_TOKEN": srv.Token, "ASKUSER_TESTCHAN_ROOM": "room-1", "ASKUSER_TESTCHAN_USERS": "U-alice",
		"ASKUSER_TESTCHAN_API_URL": srv.URL}
}

func questionFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "q.json")
	os.WriteFile(path, []byte(`{"questions":[{"question":"Which?","header":"Which","multiSelect":false,"options":[{"label":"A","description":""},{"label":"B","description":""}]}]}`), 0o600)
	return path
}

// A channel askuser knows but was built without says so; an unknown one
// lists what there is.
func TestFrontendNamesAChannelNotBuiltIn(t *testing.T) {
	vars := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	// A channel not linked in, if this build has one (once Slack,
	// Telegram and WhatsApp are all linked, channel.Spec.NotLinked's own
	// test is what is left).
	for _, s := range channel.Specs() {
		if s.New != nil {
			continue
		}
		code, _, errOut := runIn(t, vars, "ask", "--frontend", "survey,"+s.Name, questionFile(t))
		if code != ExitUsage || !strings.Contains(errOut, "--frontend: the "+channel.Title(s.Name)+" channel is not built into this askuser yet") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	}
	code, _, errOut := runIn(t, vars, "mcp", "--frontend", "pigeon")
	names := append([]string{"survey", "file", "auto", "elicit", "web", "inbox"}, channelNames()...) // the linked channels, testchan last
	want := `"pigeon" is not a frontend here; use ` + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if code != ExitUsage || !strings.Contains(errOut, want) || !strings.HasSuffix(want, " or testchan") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, _, errOut = runIn(t, vars, "hook", "--frontend", "web")
	if code != ExitUsage || !strings.Contains(errOut, `"web" is not a frontend here`) {
		t.Errorf("hook --frontend web: exit %d: %s", code, errOut)
	}
}

// A channel without an allow-list refuses to start and names the variable;
// a secret is never a flag (the process list shows flags).
func TestChannelSettingsAreChecked(t *testing.T) {
	srv := channeltest.NewServer("tok-0123456789")
	defer srv.Close()
	vars := testchanVars(t, srv)
	delete(vars, "ASKUSER_TESTCHAN_USERS")
	code, _, errOut := runIn(t, vars, "ask", "--frontend", "testchan", questionFile(t))
	if code != ExitUsage || !strings.Contains(errOut, "ASKUSER_TESTCHAN_USERS (or --testchan-users) is empty") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runIn(t, vars, "ask", "--frontend", "testchan", "--testchan-token", "x", questionFile(t)); code != ExitUsage {
		t.Errorf("a token flag was taken: exit %d: %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "channels.env")
	os.WriteFile(file, []byte("ASKUSER_TESTCHAN_USERS=U-alice\n"), 0o644)
	vars["ASKUSER_CHANNELS_FILE"] = file
	code, _, errOut = runIn(t, vars, "channels", "test", "testchan")
	if code != ExitUsage || !strings.Contains(errOut, "chmod 600 "+file) {
		t.Errorf("a channels file others can read: exit %d: %s", code, errOut)
	}
	os.Chmod(file, 0o600)
	if code, out, errOut := runIn(t, vars, "channels", "test", "testchan"); code != ExitOK || out != "testchan: ok: the settings work and a sample question was sent\n" {
		t.Errorf("the allow-list from the file: exit %d: %s%s", code, out, errOut)
	}
}

// askuser channels test says in one line what failed, without the token,
// even when the platform's error quotes it.
func TestChannelsTestSaysWhatFailed(t *testing.T) {
	srv := channeltest.NewServer("tok-0123456789")
	defer srv.Close()
	vars := testchanVars(t, srv)
	vars["TESTCHAN_TOKEN"] = "tok-wrong-98765"
	code, out, errOut := runIn(t, vars, "channels", "test", "testchan")
	if code != ExitError || !strings.Contains(errOut, "401 Unauthorized") || strings.Contains(errOut+out, "wrong-98765") || strings.Count(errOut, "\n") > 1 {
		t.Errorf("exit %d: %q", code, errOut)
	}
	code, out, _ = runIn(t, vars, "channels")
	if code != ExitOK || !strings.Contains(out, "testchan  yes       yes (ASKUSER_TESTCHAN_ROOM)") || !strings.Contains(out, "slack     yes       no") || !strings.Contains(out, "telegram  yes       no") {
		t.Errorf("channels: exit %d:\n%s", code, out)
	}
}

// A question asked through the inbox with no askuser serve to show it
// says so, rather than waiting in silence; --timeout still ends it.
func TestInboxWithoutServeSaysSo(t *testing.T) {
	vars := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ASKUSER_STATE_DIR": t.TempDir()}
	code, _, errOut := runIn(t, vars, "ask", "--frontend", "inbox", "--timeout", "300ms", questionFile(t))
	if code != ExitTimeout || !strings.Contains(errOut, "which no askuser serve shows now: start askuser serve there") {
		t.Errorf("exit %d: %s", code, errOut)
	}
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
