//go:build unix

package session

import (
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
