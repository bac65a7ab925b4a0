//go:build unix && !linux

package client

import (
	"errors"
	"syscall"
)

// groupAlive reports whether any process of the group is left (an
// exited member not yet reaped counts as left).
func groupAlive(pgid int) bool {
	return !errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
