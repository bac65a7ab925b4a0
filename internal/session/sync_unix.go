//go:build unix

package session

import (
	"context"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/internal/statefile"
)

// syncDir makes a new journal's directory entry durable; failure is not
// fatal (the journal itself is synced).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// lock takes an exclusive lock on the journal so two processes never
// append to one session at once.
func lock(f *os.File) (func(), error) {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return nil, fmt.Errorf("session %s is %w; wait for it to finish", f.Name(), ErrInUse)
	}
	return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN) }, nil
}

// inUse reports whether a process holds the journal's lock. What is not
// a regular file is not opened, so never waited on.
func inUse(path string) bool {
	f, err := statefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
		return true
	}
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}

// lockPath takes an exclusive lock on the lock file at path, created if
// need be, waiting for it until ctx ends. A lock file deleted and made
// anew while this waited is locked anew, so two processes never both
// hold path.
func lockPath(ctx context.Context, path string) (func(), error) {
	for {
		f, err := statefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		for {
			err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
			if err != unix.EWOULDBLOCK && err != unix.EINTR {
				break
			}
			select {
			case <-ctx.Done():
				f.Close()
				return nil, ctx.Err()
			case <-time.After(2 * time.Millisecond):
			}
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if samePath(f, path) {
			return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
		}
		f.Close()
	}
}

// holdLock takes an exclusive lock on the lock file at path without
// waiting: held is false when another process holds it.
func holdLock(path string) (release func(), held bool, err error) {
	f, err := statefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if err == unix.EWOULDBLOCK {
			return nil, true, nil
		}
		return nil, false, err
	}
	return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, false, nil
}
