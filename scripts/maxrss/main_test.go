package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A report path that looks like a flag ("maxrss -- prog") is refused: it
// used to leave a report file named "--" wherever maxrss ran.
func TestReportLikeAFlagIsRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, report := range []string{"--", "-o"} {
		if code := run([]string{report, "/bin/true"}); code != 2 {
			t.Errorf("maxrss %s /bin/true exited %d, want 2", report, code)
		}
		if _, err := os.Stat(report); err == nil {
			t.Errorf("maxrss %s /bin/true wrote a report file named %q", report, report)
		}
	}
	report := filepath.Join(t.TempDir(), "report")
	if code := run([]string{report, "/bin/true"}); code != 0 {
		t.Fatalf("maxrss REPORT /bin/true exited %d", code)
	}
	if data, err := os.ReadFile(report); err != nil || len(data) == 0 {
		t.Errorf("report %q, %v", data, err)
	}
}
