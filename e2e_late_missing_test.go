package main

import (
	"strings"
	"testing"
)

// An agent whose program is not installed: run --agent says which program
// it looked for and how to install it (exit 8), for each host.
func TestLateAnswerAgentNotInstalled(t *testing.T) {
	for agent, c := range map[string]struct{ pkg, args string }{"claude": {"@anthropic-ai/claude-code", "-p hi"},
		"codex": {"@openai/codex", "exec hi"}, "gemini": {"@google/gemini-cli", "-p hi"}, "opencode": {"opencode-ai", "run hi"}} {
		pkg := c.pkg
		env := []string{"PATH=" + t.TempDir(), "HOME=" + t.TempDir(), "ASKUSER_STATE_DIR=" + t.TempDir()}
		args := append([]string{"run", "--agent", agent, "--frontend", "inbox", "--"}, strings.Fields(c.args)...)
		code, _, stderr := runAskuser(t, env, "", args...)
		want := `cannot find ` + agent + `'s program "` + agent + `" on PATH: install it (npm install -g ` + pkg + `)`
		if code != 8 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 8 and %q", agent, code, stderr, want)
		}
	}
}
