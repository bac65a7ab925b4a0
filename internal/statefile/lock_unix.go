//go:build unix

package statefile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// TryLock opens the lock file at path (created 0600 if need be, never
// through a link) and takes an exclusive flock on it without waiting. The
// lock is held until the returned file is closed, or the process ends;
// while another process holds it, TryLock fails with ErrLocked.
func TryLock(path string) (*os.File, error) {
	f, err := OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	switch {
	case err == unix.EWOULDBLOCK:
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrLocked)
	case err != nil:
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	return f, nil
}
