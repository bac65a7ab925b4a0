package cmdutil

import (
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// Words for people, shared by the commands' messages and tables.

// Clip cuts s to n characters, marking the cut with "…".
func Clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}

// ClipLeft cuts s to n characters by its start, which a path can lose.
func ClipLeft(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return "…" + string(r[len(r)-n+1:])
	}
	return s
}

// Plural is "s" unless n is 1: "%d session%s".
func Plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// PluralVerb is a verb's "s" when n is 1: "%d wait%s".
func PluralVerb(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}

// Ago words an age for a table: "45s ago", "3m ago", "5h ago", "3d ago".
func Ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// Indent puts prefix before every line of s that is not empty.
func Indent(s, prefix string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "")
}

// ShortDuration writes 5m0s as 5m and 1h0m0s as 1h.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// TimeoutNote is the line that says nobody answered in time and the
// recommended options were taken, when answers came from that; else "".
func TimeoutNote(d time.Duration, answers []ask.Answer) string {
	for _, a := range answers {
		if d > 0 && a.Source == ask.SourcePolicy && a.Reason == ask.TimeoutReason(d) {
			return fmt.Sprintf("no answer within %s: took the recommended option", ShortDuration(d))
		}
	}
	return ""
}
