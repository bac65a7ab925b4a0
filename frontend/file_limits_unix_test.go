//go:build unix

package frontend

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const pipeAnswers = "answers:\n  Which database?: SQLite\n"

// loadBounded runs LoadFile(path) and fails the test if it has not
// returned within 20 s: a read that blocks fails here instead of hanging.
func loadBounded(t *testing.T, path string) (*File, error) {
	t.Helper()
	type result struct {
		f   *File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := LoadFile(path)
		done <- result{f, err}
	}()
	select {
	case r := <-done:
		return r.f, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("LoadFile(%s) blocked", path)
		return nil, nil
	}
}

// shortPipeTimeout shortens the pipe read deadline for one test.
func shortPipeTimeout(t *testing.T) {
	t.Helper()
	saved := pipeReadTimeout
	pipeReadTimeout = 300 * time.Millisecond
	t.Cleanup(func() { pipeReadTimeout = saved })
}

func mkfifo(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "answers.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return fifo
}

// wantAnswer checks that f answers the one question of pipeAnswers.
func wantAnswer(t *testing.T, f *File, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("LoadFile = %v", err)
	}
	if len(f.entries) != 1 {
		t.Errorf("%d entries read, want 1", len(f.entries))
	}
}

// A named pipe is read like a file, whether its writer comes before the
// reader or after it.
func TestLoadFileNamedPipe(t *testing.T) {
	for _, writerFirst := range []bool{true, false} {
		fifo := mkfifo(t)
		wrote := make(chan error, 1)
		write := func() {
			// Opening for writing blocks until LoadFile opens for reading.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				_, err = w.WriteString(pipeAnswers)
				w.Close()
			}
			wrote <- err
		}
		if writerFirst {
			go write()
		} else {
			time.AfterFunc(100*time.Millisecond, write)
		}
		f, err := loadBounded(t, fifo)
		wantAnswer(t, f, err)
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
	}
}

// A writer that comes and goes without writing leaves an empty file, which
// is said at once, not after the deadline.
func TestLoadFileEmptyPipe(t *testing.T) {
	fifo := mkfifo(t)
	time.AfterFunc(100*time.Millisecond, func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	})
	_, err := loadBounded(t, fifo)
	if !errors.Is(err, ErrBadAnswers) || !strings.Contains(err.Error(), fifo+":1:1: the file is empty") {
		t.Errorf("LoadFile = %v", err)
	}
}

// An anonymous pipe named by /dev/fd/N, as bash's <(…) and /dev/stdin give
// it, is read too.
func TestLoadFileAnonymousPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.WriteString(pipeAnswers)
		w.Close()
	}()
	f, err := loadBounded(t, fmt.Sprintf("/dev/fd/%d", r.Fd()))
	wantAnswer(t, f, err)
}

// A pipe that nobody writes to, or whose writer holds it open and sends
// nothing (or stops part-way), ends in an error naming it once the read
// deadline passes.
func TestLoadFilePipeDeadline(t *testing.T) {
	shortPipeTimeout(t)
	t.Run("no writer", func(t *testing.T) {
		fifo := mkfifo(t)
		_, err := loadBounded(t, fifo)
		want := "read answers file: nothing arrived on " + fifo + " within 300ms"
		if err == nil || errors.Is(err, ErrBadAnswers) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("LoadFile = %v, want %q…", err, want)
		}
	})
	t.Run("silent writer", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		w.WriteString("answers:\n")
		path := fmt.Sprintf("/dev/fd/%d", r.Fd())
		_, err = loadBounded(t, path)
		want := "read answers file: " + path + " did not end within 300ms (9 bytes arrived)"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("LoadFile = %v, want %q…", err, want)
		}
	})
}

// A writer that sends more than the limit is cut off there, as a file is.
func TestLoadFilePipeLimit(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		w.WriteString("answers:\n  Database: " + strings.Repeat("x", 1<<20))
		w.Close()
	}()
	path := fmt.Sprintf("/dev/fd/%d", r.Fd())
	_, err = loadBounded(t, path)
	want := path + ":2:65528: the file passes the 64 KiB limit here"
	if !errors.Is(err, ErrBadAnswers) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadFile = %.300v, want %q…", err, want)
	}
}

// Sockets and devices are still refused, without being read.
func TestLoadFileSocketAndDevice(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets here:", err)
	}
	defer l.Close()
	for path, what := range map[string]string{sock: "a socket", "/dev/null": "a device"} {
		_, err := loadBounded(t, path)
		if err == nil || !strings.Contains(err.Error(), path+" is "+what+"; give the path of a YAML file") {
			t.Errorf("LoadFile(%s) = %v", path, err)
		}
	}
}
