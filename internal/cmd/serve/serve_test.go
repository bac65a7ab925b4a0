package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/session"
)

// askuser serve leaves its address for runs' notifications; a run links to
// the session's page in it, and the address goes when that inbox stops.
func TestInboxAddress(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if got := channelwire.InboxURL(dir, "abc"); got != "" {
		t.Errorf("no inbox serves the directory, yet the link is %q", got)
	}
	var errOut bytes.Buffer
	forget := leaveAddress(dir, "http://127.0.0.1:4242/?token=0123", &errOut)
	if got, want := channelwire.InboxURL(dir, "5fc8-id"), "http://127.0.0.1:4242/s/5fc8-id?token=0123"; got != want {
		t.Errorf("link %q, want %q", got, want)
	}
	// What chats and notifications carry names the page, not the token.
	if got, want := channelwire.SetLink(dir, session.Entry{Session: "5fc8-id"}), "http://127.0.0.1:4242/s/5fc8-id"; got != want {
		t.Errorf("a chat's link %q, want %q", got, want)
	}
	if got, want := channelwire.SetLink(dir, session.Entry{Key: "abcdefghij"}), "http://127.0.0.1:4242/q/abcdefghij"; got != want {
		t.Errorf("a chat's link to a set asked outside a session %q, want %q", got, want)
	}
	if fi, err := os.Stat(filepath.Join(dir, channelwire.AddressFile)); err != nil {
		t.Error(err)
	} else if fi.Mode().Perm() != 0o600 {
		t.Errorf("the address file has mode %v; want 0600, it holds the token", fi.Mode())
	}
	// Another inbox started on the same directory since: this one's
	// leaving does not take the newer address away.
	os.WriteFile(filepath.Join(dir, channelwire.AddressFile), []byte("http://127.0.0.1:5000/?token=99\n"), 0o600)
	forget()
	if channelwire.InboxURL(dir, "x") == "" {
		t.Error("stopping one inbox removed the address of another")
	}
	forget = leaveAddress(dir, "http://127.0.0.1:6000/?token=77", &errOut)
	forget()
	if channelwire.InboxURL(dir, "x") != "" || errOut.Len() > 0 {
		t.Errorf("the address outlived its inbox (%q)", errOut.String())
	}
	os.WriteFile(filepath.Join(dir, channelwire.AddressFile), []byte("javascript:alert(1)\n"), 0o600)
	if got := channelwire.InboxURL(dir, "x"); got != "" {
		t.Errorf("a file that is not an inbox's address gave the link %q", got)
	}
	// A link planted where the address goes is replaced, not written
	// through: the file it points to keeps what it held.
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious\n"), 0o644)
	os.Remove(filepath.Join(dir, channelwire.AddressFile))
	if err := os.Symlink(victim, filepath.Join(dir, channelwire.AddressFile)); err != nil {
		t.Fatal(err)
	}
	forget = leaveAddress(dir, "http://127.0.0.1:7000/?token=88", &errOut)
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Errorf("leaving the address wrote through a link: the file it named now holds %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, channelwire.AddressFile)); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("the address file after a link was planted: %v, %v", fi.Mode(), err)
	}
	forget()
}

// askuser serve keeps its token in a file of the user's own: made once,
// read back at every start, replaced by --new-token; a file others may
// read, a link or a directory is refused, saying how to fix it.
func TestServeToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	path := filepath.Join(dir, serveTokenFile)
	first, err := serveToken(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode() != 0o600 {
		t.Fatalf("the token file: %v, mode %v; want a regular file, 0600", err, fi.Mode())
	}
	if again, err := serveToken(path, false); err != nil || again != first {
		t.Errorf("a restart got token %q (%v), want the kept %q", again, err, first)
	}
	fresh, err := serveToken(path, true)
	if err != nil || fresh == first {
		t.Fatalf("--new-token kept %q (%v)", fresh, err)
	}
	if kept, _ := serveToken(path, false); kept != fresh {
		t.Errorf("after --new-token the file holds %q, want %q", kept, fresh)
	}

	os.Chmod(path, 0o644)
	if _, err := serveToken(path, false); err == nil || !strings.Contains(err.Error(), "has mode 0644") ||
		!strings.Contains(err.Error(), "chmod 600 "+path) {
		t.Errorf("a token file others may read: %v", err)
	}
	// --new-token is one way out: the file is replaced, 0600 again.
	if _, err := serveToken(path, true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("--new-token left mode %v", fi.Mode())
	}

	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	os.WriteFile(elsewhere, []byte(first+"\n"), 0o600)
	link := filepath.Join(dir, "link.token")
	os.Symlink(elsewhere, link)
	if _, err := serveToken(link, false); err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("a link: %v", err)
	}
	if _, err := serveToken(dir, false); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	junk := filepath.Join(dir, "junk.token")
	os.WriteFile(junk, []byte("hunter2-but-longer-secret\n"), 0o600)
	if _, err := serveToken(junk, false); err == nil || !strings.Contains(err.Error(), "does not hold a token") ||
		strings.Contains(err.Error(), "hunter2") {
		t.Errorf("a file without a token: %v (and never quoting it)", err)
	}
	// Another user's file, even at 0600: only root can make one here.
	theirs := filepath.Join(dir, "theirs.token")
	os.WriteFile(theirs, []byte(first+"\n"), 0o600)
	if os.Chown(theirs, 65534, 65534) == nil {
		if _, err := serveToken(theirs, false); err == nil || !strings.Contains(err.Error(), "belongs to another user") {
			t.Errorf("another user's file: %v", err)
		}
	}
}
