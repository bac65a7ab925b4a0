//go:build unix

package fileread

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

const content = "answers:\n  Which database?: SQLite\n"

// readBounded runs Read and fails the test if it has not returned within
// 20 s: a read that blocks fails here instead of hanging.
func readBounded(t *testing.T, path string, limit int, timeout time.Duration) ([]byte, int64, error) {
	t.Helper()
	type result struct {
		data []byte
		size int64
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, size, err := Read(path, limit, timeout)
		done <- result{data, size, err}
	}()
	select {
	case r := <-done:
		return r.data, r.size, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("Read(%s) blocked", path)
		return nil, 0, nil
	}
}

func mkfifo(t *testing.T) string {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "answers.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return fifo
}

// pipeWith returns a /dev/fd path to a pipe whose writer sends text and
// closes it, as bash's <(…) gives one.
func pipeWith(t *testing.T, text string) string {
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

func wantContent(t *testing.T, data []byte, size int64, err error) {
	t.Helper()
	if err != nil || string(data) != content || size != Unknown {
		t.Errorf("Read = %q, size %d, %v; want the content, size unknown", data, size, err)
	}
}

// A named pipe is read like a file, whether its writer comes before the
// reader or after it.
func TestReadNamedPipe(t *testing.T) {
	for _, writerFirst := range []bool{true, false} {
		fifo := mkfifo(t)
		wrote := make(chan error, 1)
		write := func() {
			// Opening for writing blocks until Read opens for reading.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				_, err = w.WriteString(content)
				w.Close()
			}
			wrote <- err
		}
		if writerFirst {
			go write()
		} else {
			time.AfterFunc(100*time.Millisecond, write)
		}
		data, size, err := readBounded(t, fifo, 1000, PipeTimeout)
		wantContent(t, data, size, err)
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
	}
}

// A writer that comes and goes without writing leaves an empty file, said
// at once, not after the deadline.
func TestReadEmptyPipe(t *testing.T) {
	fifo := mkfifo(t)
	time.AfterFunc(100*time.Millisecond, func() {
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
	})
	data, _, err := readBounded(t, fifo, 1000, PipeTimeout)
	if err != nil || len(data) != 0 {
		t.Errorf("Read = %q, %v; want nothing, no error", data, err)
	}
}

// An anonymous pipe named by /dev/fd/N, as bash's <(…) and /dev/stdin give
// it, is read too.
func TestReadAnonymousPipe(t *testing.T) {
	data, size, err := readBounded(t, pipeWith(t, content), 1000, PipeTimeout)
	wantContent(t, data, size, err)
}

// A pipe that nobody writes to, or whose writer holds it open and sends
// nothing more, ends in an error naming it once the deadline passes.
func TestReadPipeDeadline(t *testing.T) {
	const timeout = 300 * time.Millisecond
	t.Run("no writer", func(t *testing.T) {
		fifo := mkfifo(t)
		_, _, err := readBounded(t, fifo, 1000, timeout)
		var pt *PipeTimeoutError
		want := "nothing arrived on " + fifo + " within 300ms; is anything writing to it?"
		if !errors.As(err, &pt) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Read = %v, want %q…", err, want)
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
		_, _, err = readBounded(t, path, 1000, timeout)
		want := path + " did not end within 300ms (9 bytes arrived); its writer must close it when done"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Read = %v, want %q…", err, want)
		}
	})
}

// A signal ends the wait for a pipe nobody writes to, a silent writer's
// too, within PollStep of it, not at the deadline.
func TestReadContextEndsWithItsContext(t *testing.T) {
	fifo := mkfifo(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	w.WriteString("answers:\n")
	for _, path := range []string{fifo, fmt.Sprintf("/dev/fd/%d", r.Fd())} {
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(200*time.Millisecond, func() { cancel(errors.New("interrupted by SIGTERM")) })
		start := time.Now()
		_, _, err := ReadContext(ctx, path, 1000, time.Minute)
		if took := time.Since(start); took > 5*time.Second || !errors.Is(err, ask.ErrCancelled) || !strings.Contains(err.Error(), "SIGTERM") {
			t.Errorf("%s: ReadContext = %v after %s, want the signal at once", path, err, took)
		}
	}
}

// At most one byte past the limit is read, from a pipe or a file, however
// much there is.
func TestReadLimit(t *testing.T) {
	if data, _, err := readBounded(t, pipeWith(t, strings.Repeat("x", 1<<20)), 100, PipeTimeout); err != nil || len(data) != 101 {
		t.Errorf("pipe: read %d bytes, %v; want 101", len(data), err)
	}
	path := filepath.Join(t.TempDir(), "huge")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 50<<20); err != nil { // sparse: no 50 MB written
		t.Fatal(err)
	}
	if data, size, err := readBounded(t, path, 100, PipeTimeout); err != nil || len(data) != 101 || size != 50<<20 {
		t.Errorf("file: read %d bytes of %d, %v; want 101 of %d", len(data), size, err, 50<<20)
	}
}

// Directories, sockets and devices are refused, without being read.
func TestReadNotAFile(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets here:", err)
	}
	defer l.Close()
	for path, what := range map[string]string{dir: "a directory", sock: "a socket", "/dev/zero": "a device"} {
		_, _, err := readBounded(t, path, 100, PipeTimeout)
		var nf *NotFileError
		if !errors.As(err, &nf) || err.Error() != path+" is "+what {
			t.Errorf("Read(%s) = %v, want %q", path, err, path+" is "+what)
		}
	}
}

// A regular file swapped for a FIFO after Read looked at it is read as
// what it now is, a pipe, within the deadline: the open does not wait
// for a writer that never comes.
func TestReadFileSwappedForFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	afterStat = func() {
		if err := os.Remove(path); err != nil {
			t.Error(err)
		}
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(func() { afterStat = func() {} })
	_, _, err := readBounded(t, path, 1000, 300*time.Millisecond)
	var pt *PipeTimeoutError
	if !errors.As(err, &pt) {
		t.Errorf("Read = %v; want a *PipeTimeoutError", err)
	}
}

// A small file costs what it holds, not the limit: Read allocates for
// the bytes there are.
func TestReadSmallFileAllocatesLittle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	const limit = 64 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	data, size, err := Read(path, limit, PipeTimeout)
	runtime.ReadMemStats(&after)
	if err != nil || string(data) != content || size != int64(len(content)) {
		t.Fatalf("Read = %q, %d, %v", data, size, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("reading %d bytes allocated %d bytes; want a small part of the %d limit", len(content), got, limit)
	}
}
