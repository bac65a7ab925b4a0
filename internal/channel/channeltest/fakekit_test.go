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

func TestNamedKeepsTheCallsOfOneName(t *testing.T) {
	calls := []string{"/send", "/taps", "/send", "/update"}
	self := func(c string) string { return c }
	if got := channeltest.Named(calls, "/send", self); strings.Join(got, " ") != "/send /send" {
		t.Errorf("Named(/send) gave %q; want both sends", got)
	}
	if got := channeltest.Named(calls, "", self); strings.Join(got, " ") != strings.Join(calls, " ") {
		t.Errorf("Named(\"\") gave %q; want every call, in order", got)
	}
	if got := channeltest.Named(calls, "/reply", self); got != nil {
		t.Errorf("Named(/reply) gave %q; want none", got)
	}
}
