//go:build unix

package demo

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// TestDemoScriptNotFollowed: the demo writes its scripted model into the
// state directory; a link planted there is refused, never written
// through, before anything starts.
func TestDemoScriptNotFollowed(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "demo"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, "demo", "auth-demo.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ASKUSER_STATE_DIR", dir)
	var out, errOut bytes.Buffer
	code := cmdtest.Run(context.Background(), []string{"askuser", "demo", "--frontend", "auto"}, strings.NewReader(""), &out, &errOut, cmdtest.Cmd(NewCmdDemo))
	if code != cmdutil.ExitError || !strings.Contains(errOut.String(), "auth-demo.yaml is a symbolic link") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the link", code, errOut.String())
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file the demo's script pointed to now holds %q", b)
	}
}
