//go:build unix

package fileread

import (
	"fmt"
	"io/fs"
	"time"

	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/ask"
)

// readPipe reads at most max bytes of the pipe or FIFO at path, and gives
// up after timeout.
//
// It opens without blocking (a FIFO's open otherwise waits for a writer)
// and waits with poll(2), which, unlike a read, tells a writer that has not
// come yet (no event) from one that came and left (POLLHUP): a read
// returns 0 in both cases. So a writer may open the FIFO before askuser or
// after it; once bytes have arrived, a read of 0 is the end of the file.
func readPipe(path string, max int, timeout time.Duration) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, openError(path, &fs.PathError{Op: "open", Path: path, Err: err})
	}
	defer unix.Close(fd)
	deadline := time.Now().Add(timeout)
	data := make([]byte, max)
	n, hup := 0, false
	for n < len(data) {
		k, err := unix.Read(fd, data[n:])
		switch {
		case k > 0:
			n += k
			continue
		case err == unix.EINTR:
			continue
		case err == nil && (n > 0 || hup):
			return data[:n], nil // the writer closed it
		case err != nil && err != unix.EAGAIN:
			return nil, fmt.Errorf("read %s: %w", ask.Display(path), err)
		}
		// Nothing yet, or no writer yet: wait for one, or for its bytes.
		left := time.Until(deadline)
		if left <= 0 {
			return nil, &PipeTimeoutError{Path: path, Timeout: timeout, Got: n}
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(left.Milliseconds())+1); err != nil && err != unix.EINTR {
			return nil, fmt.Errorf("read %s: %w", ask.Display(path), err)
		}
		hup = hup || fds[0].Revents&unix.POLLHUP != 0
	}
	return data[:n], nil
}
