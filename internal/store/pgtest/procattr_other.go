//go:build unix && !linux

package pgtest

import "syscall"

// dieWithParent: only Linux has a parent-death signal; elsewhere Run
// stops the server when the tests end.
func dieWithParent(*syscall.SysProcAttr) {}
