//go:build askuser_testchan && unix

package hostrun

import (
	"os"
	"syscall"
)

// The end-to-end tests' build (tag askuser_testchan) kills askuser with
// SIGKILL at the step ASKUSER_TEST_CRASH_AT names, as a kill -9 there
// would: nothing after it runs, no deferred function, no cleanup.
func init() {
	if step := os.Getenv("ASKUSER_TEST_CRASH_AT"); step != "" {
		crashAt = func(at string) {
			if at == step {
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {}
			}
		}
	}
}
