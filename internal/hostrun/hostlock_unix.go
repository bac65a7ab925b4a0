//go:build unix

package hostrun

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/internal/statefile"
)

// The host lock says whether a host session's agent still runs: the
// askuser that starts the agent takes a lock on a file of the state
// directory and gives the agent the open file (an inherited descriptor),
// so the lock is held until the agent and every process it started have
// ended, even when that askuser was killed. A later askuser that finds the
// session's holder gone tries the lock before it reads where the agent
// stopped: an agent still running is waited for, never continued twice.

// hostLock is a held host lock.
type hostLock struct{ f *os.File }

func lockPath(dir string, id string) string { return filepath.Join(dir, "hosts", "run", id+".lock") }

// takeHostLock takes session id's host lock in state directory dir, or
// reports that the agent still runs (errAgentRuns).
func takeHostLock(dir, id string) (*hostLock, error) {
	p := lockPath(dir, id)
	if err := statefile.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return nil, err
	}
	f, err := statefile.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errAgentRuns
		}
		return nil, err
	}
	return &hostLock{f: f}, nil
}

// file is what the agent inherits to hold the lock with.
func (l *hostLock) file() *os.File { return l.f }

// release closes this process's descriptor of the lock: the lock itself
// is held until every process that inherited it has ended too (an
// explicit unlock would free it for the agent's processes as well).
func (l *hostLock) release() {
	if l != nil {
		l.f.Close()
	}
}
