//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInboxAddressNotFollowed: serve.url planted as a link is never
// written through (the inbox warns and goes on without it), and one
// planted as a FIFO is never waited on by a run looking for the inbox.
func TestInboxAddressNotFollowed(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, serveURLFile)); err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	forget := leaveAddress(dir, "http://127.0.0.1:4242/?token=0123", &errOut)
	forget()
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file serve.url pointed to now holds %q", b)
	}
	if !strings.Contains(errOut.String(), "serve.url is a symbolic link") {
		t.Errorf("no warning naming the link: %q", errOut.String())
	}
	if got := inboxURL(dir, "x"); got != "" {
		t.Errorf("a link to another file gave the link %q", got)
	}
	fifo := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(fifo, serveURLFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := inboxURL(fifo, "x"); got != "" {
		t.Errorf("a FIFO gave the link %q", got)
	}
}

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
	code := Run(context.Background(), []string{"askuser", "demo", "--frontend", "auto"}, strings.NewReader(""), &out, &errOut)
	if code != ExitError || !strings.Contains(errOut.String(), "auth-demo.yaml is a symbolic link") {
		t.Errorf("exit %d, stderr %q; want exit 1 naming the link", code, errOut.String())
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file the demo's script pointed to now holds %q", b)
	}
}
