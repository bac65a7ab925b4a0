//go:build unix

package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/channelwire"
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
	if err := os.Symlink(precious, filepath.Join(dir, channelwire.AddressFile)); err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	forget := leaveAddress(dir, "http://127.0.0.1:4242/?token=0123", &errOut)
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file serve.url pointed to now holds %q", b)
	}
	if got := channelwire.InboxURL(dir, "x"); got != "http://127.0.0.1:4242/s/x?token=0123" {
		t.Errorf("after replacing the link, the link is %q (%s)", got, errOut.String())
	}
	forget()
	fifo := t.TempDir()
	for _, name := range []string{channelwire.AddressFile, serveTokenFile} {
		if err := syscall.Mkfifo(filepath.Join(fifo, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := channelwire.InboxURL(fifo, "x"); got != "" {
		t.Errorf("a FIFO gave the link %q", got)
	}
	if _, err := serveToken(filepath.Join(fifo, serveTokenFile), false); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
		t.Errorf("a FIFO as the token file: %v", err)
	}
}
