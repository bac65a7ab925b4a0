//go:build !unix

package hostrun

import (
	"os"
	"os/exec"
)

func detachSignals(cmd *exec.Cmd) {}

func interrupt(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func signaled(ps *os.ProcessState) bool { return false }
