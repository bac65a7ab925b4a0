package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmdutil"
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
		if code != cmdutil.ExitUsage || !strings.Contains(errOut, "--frontend: the "+channel.Title(s.Name)+" channel is not built into this askuser yet") {
			t.Errorf("exit %d: %s", code, errOut)
		}
	}
	code, _, errOut := runIn(t, vars, "mcp", "--frontend", "pigeon")
	names := append([]string{"survey", "file", "auto", "elicit", "web", "inbox"}, channelwire.Names()...) // the linked channels, testchan last
	want := `"pigeon" is not a frontend here; use ` + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, want) || !strings.HasSuffix(want, " or testchan") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	code, _, errOut = runIn(t, vars, "hook", "--frontend", "web")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, `"web" is not a frontend here`) {
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
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, "ASKUSER_TESTCHAN_USERS (or --testchan-users) is empty") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if code, _, errOut := runIn(t, vars, "ask", "--frontend", "testchan", "--testchan-token", "x", questionFile(t)); code != cmdutil.ExitUsage {
		t.Errorf("a token flag was taken: exit %d: %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "channels.env")
	os.WriteFile(file, []byte("ASKUSER_TESTCHAN_USERS=U-alice\n"), 0o644)
	vars["ASKUSER_CHANNELS_FILE"] = file
	code, _, errOut = runIn(t, vars, "channels", "test", "testchan")
	if code != cmdutil.ExitUsage || !strings.Contains(errOut, "chmod 600 "+file) {
		t.Errorf("a channels file others can read: exit %d: %s", code, errOut)
	}
	os.Chmod(file, 0o600)
	if code, out, errOut := runIn(t, vars, "channels", "test", "testchan"); code != cmdutil.ExitOK || out != "testchan: ok: the settings work and a sample question was sent\n" {
		t.Errorf("the allow-list from the file: exit %d: %s%s", code, out, errOut)
	}
}
