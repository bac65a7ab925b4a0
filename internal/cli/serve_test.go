package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// askuser serve leaves its address for runs' notifications; a run links to
// the session's page in it, and the address goes when that inbox stops.
func TestInboxAddress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if got := inboxURL(dir, "abc"); got != "" {
		t.Errorf("no inbox serves the directory, yet the link is %q", got)
	}
	var errOut bytes.Buffer
	forget := leaveAddress(dir, "http://127.0.0.1:4242/?token=0123", &errOut)
	if got, want := inboxURL(dir, "5fc8-id"), "http://127.0.0.1:4242/s/5fc8-id?token=0123"; got != want {
		t.Errorf("link %q, want %q", got, want)
	}
	if fi, err := os.Stat(filepath.Join(dir, serveURLFile)); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Errorf("the address file has mode %v; want 0600, it holds the token", fi.Mode())
	}
	// Another inbox started on the same directory since: this one's
	// leaving does not take the newer address away.
	os.WriteFile(filepath.Join(dir, serveURLFile), []byte("http://127.0.0.1:5000/?token=99\n"), 0o600)
	forget()
	if inboxURL(dir, "x") == "" {
		t.Error("stopping one inbox removed the address of another")
	}
	forget = leaveAddress(dir, "http://127.0.0.1:6000/?token=77", &errOut)
	forget()
	if inboxURL(dir, "x") != "" || errOut.Len() > 0 {
		t.Errorf("the address outlived its inbox (%q)", errOut.String())
	}
	os.WriteFile(filepath.Join(dir, serveURLFile), []byte("javascript:alert(1)\n"), 0o600)
	if got := inboxURL(dir, "x"); got != "" {
		t.Errorf("a file that is not an inbox's address gave the link %q", got)
	}
}
