//go:build unix

package inbox

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/askuser/askuser/internal/session"
)

// TestInboxLogNotFollowed plants serve.log as a link to a file of the
// user's, as a FIFO, and the side directory as a link to another
// directory. Answering on the page writes through none of them and never
// waits on the FIFO: the resume is not started, the page says why, and
// the set stays pending.
func TestInboxLogNotFollowed(t *testing.T) {
	g := newInboxRig(t)
	precious := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(precious, []byte("keep me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	for _, tc := range []struct {
		what  string
		plant func(side string) error
		kind  string
	}{
		{"serve.log a link", func(side string) error {
			return firstErr(os.MkdirAll(side, 0o700), os.Symlink(precious, filepath.Join(side, logName)))
		}, "serve.log is a symbolic link"},
		{"serve.log a FIFO", func(side string) error {
			return firstErr(os.MkdirAll(side, 0o700), syscall.Mkfifo(filepath.Join(side, logName), 0o600))
		}, "serve.log is a named pipe (FIFO)"},
		{"the side directory a link", func(side string) error { return os.Symlink(elsewhere, side) }, ".d is a symbolic link"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			id := g.waiting("Add auth", authSet("toolu_1"))
			sid, err := session.ParseID(id)
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.plant(g.store.SideDir(sid)); err != nil {
				t.Fatal(err)
			}
			res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}, "q1": {"0"}})
			page := g.get("/s/" + id).Body.String()
			if !strings.Contains(page, "could not start askuser resume: ") || !strings.Contains(page, tc.kind) || !strings.Contains(page, `data-state="open"`) {
				t.Errorf("answer: status %d; the page does not say the resume could not start because %s, with the set open:\n%s", res.Code, tc.kind, page)
			}
		})
	}
	if b, _ := os.ReadFile(precious); string(b) != "keep me\n" {
		t.Errorf("the file serve.log pointed to now holds %q", b)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("the directory the side directory pointed to got %v", entries)
	}
	if _, err := os.Stat(filepath.Join(g.dir, "stdin-1")); err == nil {
		t.Error("askuser resume was started")
	}
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
