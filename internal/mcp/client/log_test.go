//go:build unix

package client

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/statefile"
)

// TestServerLogNotFollowed: a server's log in the session's side
// directory, planted as a link to a file of the user's or as a FIFO, is
// refused naming it, never appended through or waited on.
func TestServerLogNotFollowed(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(precious, filepath.Join(dir, "mcp-linked.log")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "mcp-piped.log"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, server := range []string{"linked", "piped"} {
		l, err := openLog(dir, server, 1<<20)
		if !errors.Is(err, statefile.ErrNotRegular) {
			if l != nil {
				l.Close()
			}
			t.Errorf("server %s: %v, want its log refused as not a regular file", server, err)
		}
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file the log pointed to now holds %q", b)
	}
	l, err := openLog(dir, "plain", 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	l.Note("started")
	l.Close()
	if b, err := os.ReadFile(filepath.Join(dir, "mcp-plain.log")); err != nil || len(b) == 0 {
		t.Errorf("a plain log: %q, %v", b, err)
	}
}
