//go:build unix

package frontend

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// pipePath returns a /dev/fd path to a pipe carrying text, as bash's <(…)
// gives one.
func pipePath(t *testing.T, text string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		w.WriteString(text)
		w.Close()
	}()
	return fmt.Sprintf("/dev/fd/%d", r.Fd())
}

// An answers file may be a pipe; one past the limit is refused at the
// limit, saying more arrived, since a pipe has no size to tell.
func TestLoadFileFromPipe(t *testing.T) {
	f, err := LoadFile(pipePath(t, "answers:\n  Which database?: SQLite\n"))
	if err != nil || len(f.entries) != 1 {
		t.Fatalf("LoadFile = %v, %v; want one entry", f, err)
	}
	path := pipePath(t, "answers:\n  Database: "+strings.Repeat("x", 1<<20))
	_, err = LoadFile(path)
	want := path + ":2:65528: the file passes the 64 KiB limit here: more than 65536 bytes (64 KiB) arrived"
	if !errors.Is(err, ErrBadAnswers) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadFile = %.300v, want %q…", err, want)
	}
}
