//go:build !unix

package main

import "os/exec"

// ownGroup does nothing here: cancelling cmd kills it alone.
func ownGroup(cmd *exec.Cmd) {}
