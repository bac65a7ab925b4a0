//go:build askuser_testchan

package telegram

import (
	"fmt"
	"os"
)

// The end-to-end build shortens the channel's waits, so a test of a long
// poll gone silent or a rate limit does not sleep through production
// timeouts. The released binary has no such variable.
func init() {
	v := os.Getenv("ASKUSER_TELEGRAM_TEST_TIMINGS")
	if v == "" {
		return
	}
	t, err := parseTimings(v, DefaultTimings)
	if err != nil {
		fmt.Fprintln(os.Stderr, "askuser: ASKUSER_TELEGRAM_TEST_TIMINGS:", err)
		return
	}
	timings = t
}
