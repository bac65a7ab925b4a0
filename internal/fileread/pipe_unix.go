//go:build unix

package fileread

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/ask"
)

// readOpen opens path without blocking (a FIFO's open otherwise waits for
// a writer) and reads at most maxBytes bytes of it as what the open file is: a
// pipe (readPipe) or a regular file. Anything else, swapped in since
// Read's Stat, is refused.
func readOpen(ctx context.Context, path string, maxBytes int, timeout time.Duration) ([]byte, int64, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, 0, openError(path, &fs.PathError{Op: "open", Path: path, Err: err})
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, 0, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFIFO:
		defer unix.Close(fd)
		data, err := readPipe(ctx, fd, path, maxBytes, timeout)
		return data, Unknown, err
	case unix.S_IFREG:
		if err := unix.SetNonblock(fd, false); err != nil {
			unix.Close(fd)
			return nil, 0, &fs.PathError{Op: "fcntl", Path: path, Err: err}
		}
		f := os.NewFile(uintptr(fd), path)
		defer f.Close()
		data, err := readRegular(f, path, maxBytes, st.Size)
		return data, max(st.Size, int64(len(data))), err
	}
	unix.Close(fd)
	return nil, 0, notFile(path, fileMode(uint32(st.Mode)))
}

// fileMode is the type of a file that is neither regular nor a pipe, as
// fs words it, from its stat mode.
func fileMode(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR, unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// readPipe reads at most max bytes of the pipe or FIFO open as fd (path),
// and gives up after timeout, or when ctx ends: poll(2) is not woken by a
// signal Go's runtime takes on another thread, so it waits PollStep at a
// time.
//
// fd was opened without blocking, and readPipe waits with poll(2), which,
// unlike a read, tells a writer that has not come yet (no event) from one
// that came and left (POLLHUP): a read returns 0 in both cases. So a
// writer may open the FIFO before askuser or after it; once bytes have
// arrived, a read of 0 is the end of the file.
func readPipe(ctx context.Context, fd int, path string, max int, timeout time.Duration) ([]byte, error) {
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
		if err := ctx.Err(); err != nil {
			return nil, ask.CtxErr(ctx)
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, &PipeTimeoutError{Path: path, Timeout: timeout, Got: n}
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if _, err := unix.Poll(fds, int(min(left, PollStep).Milliseconds())+1); err != nil && err != unix.EINTR {
			return nil, fmt.Errorf("read %s: %w", ask.Display(path), err)
		}
		hup = hup || fds[0].Revents&unix.POLLHUP != 0
	}
	return data[:n], nil
}
