// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hook's denial under an answers file advises only what no rule there
// covers, and never a rule that would allow a command blindly: the model
// reads the advice, and may relay it or act on it.
func TestHookDenialAdvisesOnlyWhatNoRuleCovers(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "ci.yaml")
	if err := os.WriteFile(answers, []byte("approvals:\n  allow:\n    - Bash(git status:*)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"ASKUSER_STATE_DIR=" + t.TempDir()}
	for _, tc := range []struct {
		command      string
		want, absent []string
	}{
		{"git status && rm -rf x", []string{"rm -rf x needs a person's approval each time"}, []string{"Bash(git status:*)", "Bash(rm"}},
		{"git status; npm test", []string{"they may add Bash(npm test:*) under approvals: allow: in " + answers, "do not change that file yourself"},
			[]string{"Bash(git status:*)"}},
		{"sudo make install", []string{"needs a person's approval each time"}, []string{"Bash(sudo", "Bash(make"}},
	} {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s", "cwd": dir, "tool_name": "Bash",
			"tool_use_id": "toolu_1", "tool_input": map[string]any{"command": tc.command}})
		out, errOut, code := pipedRun(t, env, string(ev), "hook", "--answers", answers)
		var d hookDecision
		if err := json.Unmarshal([]byte(out), &d); code != 0 || err != nil || d.HookSpecificOutput.Decision != "deny" {
			t.Fatalf("%s: exit %d\n%s\n%s", tc.command, code, out, errOut)
		}
		reason := d.HookSpecificOutput.Reason
		for _, w := range tc.want {
			if !strings.Contains(reason, w) {
				t.Errorf("%s: the denial lacks %q:\n%s", tc.command, w, reason)
			}
		}
		for _, a := range tc.absent {
			if strings.Contains(reason, a) {
				t.Errorf("%s: the denial advises %q:\n%s", tc.command, a, reason)
			}
		}
	}
}
