//go:build unix

package main

import (
	"os/exec"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// ownGroup starts cmd in a process group of its own and makes cancelling
// it kill the whole group, so that what it started dies with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}

// cmdMkfifo makes a named pipe: mkfifo FILE
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo FILE")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o600))
}
