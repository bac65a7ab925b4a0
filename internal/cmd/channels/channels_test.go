package channels

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// runIn runs askuser channels in this process with an empty environment
// but for vars.
func runIn(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return cmdtest.RunIn(t, vars, args, cmdtest.Cmd(NewCmdChannels))
}

// testchanVars configure the test channel against srv, in a fresh state
// and config directory.
func testchanVars(t *testing.T, srv *channeltest.Server) map[string]string {
	return map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ASKUSER_STATE_DIR": t.TempDir(),
		"TESTCHAN_TOKEN": srv.Token, "ASKUSER_TESTCHAN_ROOM": "room-1", "ASKUSER_TESTCHAN_USERS": "U-alice",
		"ASKUSER_TESTCHAN_API_URL": srv.URL}
}

// askuser channels test says in one line what failed, without the token,
// even when the platform's error quotes it.
func TestChannelsTestSaysWhatFailed(t *testing.T) {
	srv := channeltest.NewServer("tok-0123456789")
	defer srv.Close()
	vars := testchanVars(t, srv)
	vars["TESTCHAN_TOKEN"] = "tok-wrong-98765"
	code, out, errOut := runIn(t, vars, "channels", "test", "testchan")
	if code != cmdutil.ExitError || !strings.Contains(errOut, "401 Unauthorized") || strings.Contains(errOut+out, "wrong-98765") || strings.Count(errOut, "\n") > 1 {
		t.Errorf("exit %d: %q", code, errOut)
	}
	code, out, _ = runIn(t, vars, "channels")
	if code != cmdutil.ExitOK || !strings.Contains(out, "testchan  yes       yes (ASKUSER_TESTCHAN_ROOM)") || !strings.Contains(out, "slack     yes       no") || !strings.Contains(out, "telegram  yes       no") {
		t.Errorf("channels: exit %d:\n%s", code, out)
	}
}
