package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoTakesRunsListFlags: askuser demo hands run's flags to the run,
// list flags too. --allowedTools mcp__files__write_file lets the demo's
// agent write its plan with nobody asked (under --frontend auto, which
// never approves a tool, the write is refused without it). demo used to
// pass each flag on as --name=value from the value's print, which for a
// list flag is Go's print of its struct ({[mcp__files__write_file] true
// false}), a rule nothing matches.
func TestDemoTakesRunsListFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args  []string
		wrote bool
	}{
		{[]string{"--allowedTools", "mcp__files__write_file"}, true},
		{nil, false},
	} {
		tmp := t.TempDir()
		env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TMPDIR=" + tmp, "NO_COLOR=1",
			"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
		args := append([]string{"demo", "-p", "--frontend", "auto"}, tc.args...)
		code, _, stderr := runAskuser(t, env, "", args...)
		if code != 0 {
			t.Fatalf("askuser %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		plans, _ := filepath.Glob(filepath.Join(tmp, "askuser-demo-*", "AUTH_PLAN.md"))
		if wrote := len(plans) == 1; wrote != tc.wrote {
			t.Errorf("askuser %s: the plan was written: %v, want %v\n%s", strings.Join(args, " "), wrote, tc.wrote, stderr)
		}
	}
}
