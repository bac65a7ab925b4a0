//go:build unix

package inbox

import (
	"os/exec"
	"syscall"
)

// detach puts a resume in its own process group: Ctrl+C at the terminal
// of askuser serve stops serving, not a session half-way through resuming.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
