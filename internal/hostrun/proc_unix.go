//go:build unix

package hostrun

import (
	"os"
	"os/exec"
	"syscall"
	"time"
)

// detachSignals leaves the agent in askuser's process group: Ctrl+C at
// the terminal reaches both, as it would reach the agent run alone.
func detachSignals(cmd *exec.Cmd) {}

// interrupt ends the agent when askuser is told to stop (SIGTERM, or
// Ctrl+C, which the agent got too): SIGTERM after a moment's grace.
func interrupt(cmd *exec.Cmd) {
	time.Sleep(2 * time.Second)
	if cmd.ProcessState == nil {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	}
}

// signaled reports whether a signal ended the process.
func signaled(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled()
}
