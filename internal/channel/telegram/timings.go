package telegram

import (
	"fmt"
	"strings"
	"time"
)

// parseTimings reads "poll=1s,grace=500ms,…" over base: how the
// end-to-end tests shorten the waits of the binary they run
// (ASKUSER_TELEGRAM_TEST_TIMINGS, read only in that build).
func parseTimings(s string, base Timings) (Timings, error) {
	t := base
	fields := map[string]*time.Duration{"poll": &t.Poll, "grace": &t.Grace, "call": &t.Call, "inline": &t.InlineWait, "retry": &t.RetryMax}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(kv), "=")
		f, ok := fields[k]
		if !ok {
			return base, fmt.Errorf("unknown timing %q (poll, grace, call, inline, retry)", k)
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return base, fmt.Errorf("timing %s=%q is not a positive duration", k, v)
		}
		*f = d
	}
	if t.Poll < time.Second || t.Poll%time.Second != 0 {
		return base, fmt.Errorf("poll=%s: getUpdates takes whole seconds, at least 1", t.Poll)
	}
	return t, nil
}
