//go:build unix

package prompt

import (
	"errors"
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// errReadCancelled is what a cancelled ttyReader returns from Read. Ask
// never shows it: it reports ask.CtxErr(ctx) instead.
var errReadCancelled = errors.New("terminal read cancelled")

// ttyReader reads keys from a terminal and can be cancelled from another
// goroutine while a Read is blocked, which a plain *os.File cannot: survey
// blocks in Read for as long as a prompt is open, so without this a
// deadline could not end a prompt.
//
// Read waits with poll(2) on the terminal and on the read end of a
// self-pipe, and calls read(2) only once the terminal has input. Cancel
// writes a byte to the pipe, so a waiting Read wakes up and returns
// errReadCancelled, and every later Read does too: survey then unwinds
// through its defers, which restore the terminal mode and show the cursor.
// No goroutine is ever left blocked in read(2) on the terminal, where it
// would swallow the next key the person types for someone else.
type ttyReader struct {
	f  *os.File // kept so the terminal stays open while fd is in use
	fd int

	mu        sync.Mutex
	cancelled bool
	closed    bool
	wake      *os.File // read end of the self-pipe, polled
	poke      *os.File // write end, written once by Cancel
	wakeFd    int
}

// newTTYReader prepares a cancellable reader for the terminal f. Close
// releases the self-pipe; it does not close f.
func newTTYReader(f *os.File) (*ttyReader, error) {
	wake, poke, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	// Fd puts the descriptors in blocking mode, which is what read(2) after
	// poll(2) expects; the terminal is put there by survey's Fd call anyway.
	return &ttyReader{f: f, fd: int(f.Fd()), wake: wake, poke: poke, wakeFd: int(wake.Fd())}, nil
}

// Fd returns the terminal's descriptor, so survey can switch it to raw mode
// and back.
func (r *ttyReader) Fd() uintptr { return uintptr(r.fd) }

// Read reads what the terminal has, waiting until it has something or the
// reader is cancelled.
func (r *ttyReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if r.isCancelled() {
			return 0, errReadCancelled
		}
		fds := []unix.PollFd{
			{Fd: int32(r.fd), Events: unix.POLLIN},
			{Fd: int32(r.wakeFd), Events: unix.POLLIN},
		}
		if _, err := unix.Poll(fds, -1); err != nil {
			if err == unix.EINTR {
				continue
			}
			return 0, &os.PathError{Op: "poll", Path: r.f.Name(), Err: err}
		}
		if fds[1].Revents != 0 {
			return 0, errReadCancelled
		}
		if fds[0].Revents&unix.POLLNVAL != 0 {
			return 0, &os.PathError{Op: "poll", Path: r.f.Name(), Err: unix.EBADF}
		}
		if fds[0].Revents == 0 {
			continue
		}
		n, err := unix.Read(r.fd, p)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue // interrupted, or the input went away between poll and read
		case err == unix.EIO || (err == nil && n == 0):
			return 0, io.EOF // the terminal hung up
		case err != nil:
			return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: err}
		}
		return n, nil
	}
}

// Cancel makes a blocked Read, and every later one, return
// errReadCancelled. It is safe to call from any goroutine, more than once,
// and after Close.
func (r *ttyReader) Cancel() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancelled || r.closed {
		return
	}
	r.cancelled = true
	// One byte is enough: the pipe is never drained, so it stays readable.
	_, _ = r.poke.Write([]byte{0})
}

func (r *ttyReader) isCancelled() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cancelled
}

// Close releases the self-pipe. The caller must not Read after Close.
func (r *ttyReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	return errors.Join(r.poke.Close(), r.wake.Close())
}
