//go:build !unix

package main

import (
	"os/exec"

	"github.com/rogpeppe/go-internal/testscript"
)

// ownGroup does nothing here: cancelling cmd kills it alone.
func ownGroup(cmd *exec.Cmd) {}

// cmdMkfifo fails: this system has no named pipes, and the scripts that
// make them say [!unix] skip.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("mkfifo: this system has no named pipes")
}
