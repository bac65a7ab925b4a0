//go:build unix

package inbox

import (
	"net/http"
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
// waits on the FIFO. With serve.log planted, the answer is kept in the
// session's mailbox and the page says why the resume could not start;
// with the side directory planted, the answer is refused (500) naming the
// link, and the set stays open.
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
		code  int
		state string
	}{
		{"serve.log a link", func(side string) error {
			return firstErr(os.MkdirAll(side, 0o700), os.Symlink(precious, filepath.Join(side, logName)))
		}, "serve.log is a symbolic link", http.StatusOK, "sent"},
		{"serve.log a FIFO", func(side string) error {
			return firstErr(os.MkdirAll(side, 0o700), syscall.Mkfifo(filepath.Join(side, logName), 0o600))
		}, "serve.log is a named pipe (FIFO)", http.StatusOK, "sent"},
		{"the side directory a link", func(side string) error { return os.Symlink(elsewhere, side) },
			".d is a symbolic link", http.StatusInternalServerError, "open"},
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
			said := res.Body.String() + page
			if res.Code != tc.code || !strings.Contains(said, tc.kind) || !strings.Contains(page, `data-state="`+tc.state+`"`) {
				t.Errorf("answer: status %d, want %d; want %q said and the set %s:\n%s\n%s", res.Code, tc.code, tc.kind, tc.state, res.Body, page)
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
