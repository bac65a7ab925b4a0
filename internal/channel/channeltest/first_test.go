package channeltest_test

import (
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// once is a fake's waitFor whose messages never change: it reports cond
// of them as they are.
func once(ms []string) func(time.Duration, func([]string) bool) ([]string, bool) {
	return func(_ time.Duration, cond func([]string) bool) ([]string, bool) { return ms, cond(ms) }
}

func TestFirstFindsTheFirstMatch(t *testing.T) {
	sent := []string{"Database?", "Features: 1", "Features: 2"}
	got, ok := channeltest.First(once(sent), time.Second, func(m string) bool { return strings.HasPrefix(m, "Features") })
	if !ok || got != "Features: 1" {
		t.Errorf("First gave %q, %v; want the first match, Features: 1", got, ok)
	}
	got, ok = channeltest.First(once(sent), time.Second, func(m string) bool { return m == "Region?" })
	if ok || got != "" {
		t.Errorf("First with no match gave %q, %v; want nothing, false", got, ok)
	}
}
