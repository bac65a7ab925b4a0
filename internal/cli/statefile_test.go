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

// TestInboxAddressNotFollowed: serve.url planted as a link is replaced,
// never written through; one planted as a FIFO is never waited on by a
// run looking for the inbox, nor is serve.token by askuser serve.
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
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file serve.url pointed to now holds %q", b)
	}
	if got := inboxURL(dir, "x"); got != "http://127.0.0.1:4242/s/x?token=0123" {
		t.Errorf("after replacing the link, the link is %q (%s)", got, errOut.String())
	}
	forget()
	fifo := t.TempDir()
	for _, name := range []string{serveURLFile, serveTokenFile} {
		if err := syscall.Mkfifo(filepath.Join(fifo, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := inboxURL(fifo, "x"); got != "" {
		t.Errorf("a FIFO gave the link %q", got)
	}
	if _, err := serveToken(filepath.Join(fifo, serveTokenFile), false); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a FIFO as the token file: %v", err)
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
