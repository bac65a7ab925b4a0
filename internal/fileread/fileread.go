// Package fileread reads a file a person names on the command line (an
// answers file, a question file, a model script, an MCP configuration)
// within a size bound, whatever the path turns out to be.
//
// Design and invariants:
//   - At most limit+1 bytes are ever read, one past the limit so that the
//     caller can say where a file passes it, however large the file is or
//     however it grows.
//   - A regular file is read as it is, allocating for what it holds, not
//     for the limit. A pipe (/dev/stdin with input piped in, bash's <(…)
//     as /dev/fd/N, a FIFO) is read too, as shells pass files, but within
//     a deadline: its writer may never come, or never close it, and a
//     read must not wait for ever.
//   - The file is opened without blocking and read as what the open file
//     is (fstat), not what the path was a moment before: a regular file
//     swapped for a FIFO in between is read as a pipe, within the
//     deadline, instead of an open that waits for a writer.
//   - A directory, a device or a socket is refused without being opened:
//     opening a device can block or have effects, and reading /dev/zero
//     never ends.
//   - Errors name the path through ask.Display and say what to do; the
//     caller adds what the file is for ("read answers file: …").
package fileread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/askuser/askuser/ask"
)

// Unknown is the size Read reports for a pipe, which has none.
const Unknown = -1

// PipeTimeout is how long a pipe may take to deliver its file: its writer
// is a program printing a few KB (cat, a heredoc, a generator, a
// decrypting tool), which takes milliseconds, so 10 s is generous, and a
// FIFO that nobody writes to ends in an error instead of a hang. A
// regular file has no such bound: it cannot block.
const PipeTimeout = 10 * time.Second

// Read reads at most limit+1 bytes of the file at path, and returns them
// with the file's size (Unknown for a pipe). A pipe that has not ended
// within timeout is a *PipeTimeoutError; a path that is neither a regular
// file nor a pipe is a *NotFileError; a path that names nothing says so
// (errors.Is fs.ErrNotExist); the system's other errors (no permission)
// are returned wrapped, naming the path.
func Read(path string, limit int, timeout time.Duration) (data []byte, size int64, err error) {
	return ReadContext(context.Background(), path, limit, timeout)
}

// ReadContext is Read, which also ends when ctx does (a signal): a pipe
// nobody writes to is given up within PollStep of it, with ask.CtxErr's
// error, rather than at the end of its timeout.
func ReadContext(ctx context.Context, path string, limit int, timeout time.Duration) (data []byte, size int64, err error) {
	// Stat before opening: opening a device could block or have effects.
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, 0, &missingError{path: path}
	case err != nil:
		return nil, 0, err
	}
	if mode := info.Mode(); !mode.IsRegular() && mode&fs.ModeNamedPipe == 0 {
		return nil, 0, notFile(path, mode)
	}
	afterStat()
	return readOpen(ctx, path, limit+1, timeout)
}

// PollStep is how often a pipe's read looks whether its context ended.
const PollStep = 100 * time.Millisecond

// readRegular reads at most maxBytes bytes of the regular file f (path), size
// bytes long when it was opened. It allocates for the bytes there are,
// not for maxBytes, and reads on if the file grew meanwhile.
func readRegular(f *os.File, path string, maxBytes int, size int64) ([]byte, error) {
	data := make([]byte, 0, min(int64(maxBytes), size+1))
	for len(data) < maxBytes {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew since it was opened
		}
		n, err := f.Read(data[len(data):min(cap(data), maxBytes)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", ask.Display(path), err)
		}
	}
	return data, nil
}

// openError words a failure to open path.
func openError(path string, err error) error {
	if os.IsPermission(err) {
		return fmt.Errorf("%w; make %s readable by this user", err, ask.Display(path))
	}
	return err
}

// missingError is a path that names nothing. It says so without the
// system's "stat …: no such file or directory", and is still
// fs.ErrNotExist for errors.Is.
type missingError struct{ path string }

func (e *missingError) Error() string { return ask.Display(e.path) + " does not exist; check the path" }
func (e *missingError) Unwrap() error { return fs.ErrNotExist }

// NotFileError is a path that names neither a regular file nor a pipe.
type NotFileError struct {
	Path string
	// What it is: "a directory", "a device", "a socket", or "not a regular
	// file".
	What string
}

func (e *NotFileError) Error() string { return ask.Display(e.Path) + " is " + e.What }

func notFile(path string, mode fs.FileMode) *NotFileError {
	what := "not a regular file"
	switch {
	case mode.IsDir():
		what = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe" // only where pipes cannot be read (readPipe)
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	}
	return &NotFileError{Path: path, What: what}
}

// PipeTimeoutError is a pipe that did not end within the deadline.
type PipeTimeoutError struct {
	Path    string
	Timeout time.Duration
	// Got is how many bytes arrived.
	Got int
}

func (e *PipeTimeoutError) Error() string {
	name := ask.Display(e.Path)
	if e.Got == 0 {
		return fmt.Sprintf("nothing arrived on %s within %s; is anything writing to it? "+
			"If its writer needs longer, have it write to a file and give that file's path", name, e.Timeout)
	}
	return fmt.Sprintf("%s did not end within %s (%d bytes arrived); its writer must close it when done, "+
		"or write to a file and give that file's path", name, e.Timeout, e.Got)
}

// afterStat is called between the Stat and the open, where a test swaps
// the file.
var afterStat = func() {}
