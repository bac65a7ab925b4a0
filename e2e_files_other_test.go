//go:build !unix

package main

import (
	"os/exec"

	"github.com/rogpeppe/go-internal/testscript"
)

// ownGroup does nothing here: cancelling cmd kills it alone.
func ownGroup(cmd *exec.Cmd) {}

// cmdMkfifo skips the script: this system has no named pipes.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Skip("no named pipes here")
}
