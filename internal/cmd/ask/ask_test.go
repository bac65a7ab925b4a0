package ask

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// runIn runs askuser ask in this process with an empty environment but
// for vars.
func runIn(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return cmdtest.RunIn(t, vars, args, cmdtest.Cmd(NewCmdAsk))
}

func questionFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "q.json")
	os.WriteFile(path, []byte(`{"questions":[{"question":"Which?","header":"Which","multiSelect":false,"options":[{"label":"A","description":""},{"label":"B","description":""}]}]}`), 0o600)
	return path
}

// A question asked through the inbox with no askuser serve to show it
// says so, rather than waiting in silence; --timeout still ends it.
func TestInboxWithoutServeSaysSo(t *testing.T) {
	vars := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "ASKUSER_STATE_DIR": t.TempDir()}
	code, _, errOut := runIn(t, vars, "ask", "--frontend", "inbox", "--timeout", "300ms", questionFile(t))
	if code != cmdutil.ExitTimeout || !strings.Contains(errOut, "which no askuser serve shows now: start askuser serve there") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}
