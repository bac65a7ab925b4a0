//go:build unix

package session

import (
	"context"
	"errors"
	"fmt"
	"os"

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
		if err := flockWait(ctx, f); err != nil {
			return nil, err
		}
		if samePath(f, path) {
			return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
		}
		f.Close()
	}
}

// flockWait takes f's exclusive lock, waiting until it is free or ctx
// ends; on an error f is closed. The wait sleeps in the kernel (a
// blocking flock) rather than polling, so a waiter costs nothing and
// wakes as soon as the holder lets go. A blocking flock cannot be called
// off: when ctx ends first, it is left to return in its own goroutine,
// which then closes f, letting go of the lock it took.
func flockWait(ctx context.Context, f *os.File) error {
	fd := int(f.Fd())
	err := flock(fd, unix.LOCK_EX|unix.LOCK_NB)
	switch {
	case err == unix.EWOULDBLOCK && ctx.Done() == nil:
		err = flock(fd, unix.LOCK_EX)
	case err == unix.EWOULDBLOCK:
		done := make(chan error, 1)
		go func() { done <- flock(fd, unix.LOCK_EX) }()
		select {
		case err = <-done:
		case <-ctx.Done():
			go func() { <-done; f.Close() }()
			return ctx.Err()
		}
	}
	if err != nil {
		f.Close()
	}
	return err
}

// flock is unix.Flock, retried when a signal interrupts it.
func flock(fd, how int) error {
	for {
		if err := unix.Flock(fd, how); err != unix.EINTR {
			return err
		}
	}
}

// holdLock takes an exclusive lock on the lock file at path without
// waiting (statefile.TryLock). held is true, and release nil, when
// another process (or another open of the file in this one) holds it
// already.
func holdLock(path string) (release func(), held bool, err error) {
	f, err := statefile.TryLock(path)
	switch {
	case errors.Is(err, statefile.ErrLocked):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	}
	return func() { _ = unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, false, nil
}
