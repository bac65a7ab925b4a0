//go:build unix

package client

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

type groupSignal syscall.Signal

const (
	sigTerm = groupSignal(syscall.SIGTERM)
	sigKill = groupSignal(syscall.SIGKILL)
)

// ownGroup puts the command in a process group of its own: the terminal's
// Ctrl+C does not reach it (askuser shuts it down in order), and its
// children can be ended with it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup signals the process's group (its pid is the group's id).
func signalGroup(p *os.Process, sig groupSignal) {
	_ = syscall.Kill(-p.Pid, syscall.Signal(sig))
}

// endGroup ends what is left of a group whose leader has exited: SIGTERM,
// then SIGKILL to any member still there after wait.
func endGroup(pgid int, wait time.Duration) {
	if !groupAlive(pgid) {
		return
	}
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if !groupAlive(pgid) {
			return
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}
