//go:build !unix

package client

import (
	"os"
	"os/exec"
	"time"
)

type groupSignal int

const (
	sigTerm groupSignal = iota
	sigKill
)

// ownGroup does nothing where there are no process groups.
func ownGroup(*exec.Cmd) {}

// signalGroup can only kill the process itself here.
func signalGroup(p *os.Process, sig groupSignal) {
	if sig == sigKill {
		_ = p.Kill()
	}
}

// endGroup has no group to end here.
func endGroup(int, time.Duration) {}
