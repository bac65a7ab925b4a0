//go:build !unix

package inbox

import "os/exec"

// detach does nothing where process groups are not unix's.
func detach(*exec.Cmd) {}
