package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// TestClaudeCodeRules: the real Claude Code asks askuser hook about its
// Bash calls, and an answers file's rules decide them as a shell reads the
// command: a deny rule stops rm after &&, an allow rule for echo does not
// cover a redirection to a file, and the model reads each decision in one
// sentence.
func TestClaudeCodeRules(t *testing.T) {
	for _, version := range clients.ClaudeVersions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			clients.Claude(t, version)
			hook := `{"type":"command","command":"$ASKUSER hook --answers $DIR/ci.yaml --timeout 50s","timeout":60}`
			r := runClaude(t, version, claudeCase{
				turns: []fakeprovider.Turn{
					{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_and", "Bash", `{"command":"echo ok && rm -f victim.txt","description":"d"}`)}},
					{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_redir", "Bash", `{"command":"echo ok > written.txt","description":"d"}`)}},
					{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_echo", "Bash", `{"command":"echo allowed","description":"d"}`)}},
					{Text: "done"},
				},
				files: map[string]string{
					"ci.yaml":       "approvals:\n  allow: [\"Bash(echo:*)\"]\n  deny: [\"Bash(rm:*)\"]\nunanswered: error\n",
					"settings.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[` + hook + `]}]}}`,
					"victim.txt":    "keep me",
				},
				args: []string{"--settings", "$DIR/settings.json"},
			})
			file := r.dir + "/ci.yaml"
			for id, want := range map[string]string{
				"toolu_and":   "Bash was not run: rule Bash(rm:*) (" + file + " line 3) denies it; do not retry it, and continue without it or ask the user to change the rule.",
				"toolu_redir": "Bash was not run: the answers file " + file + " has no approval rule that allows it; do not retry it, and continue without it (no rule under approvals: allow: can allow it, since it redirects to or from a file (>written.txt); a person must approve such a call).",
			} {
				// 2.1.330 puts its own label before a hook's denial; 2.1.197 does not.
				got := r.result(t, id)
				if text := strings.TrimPrefix(got.Content, "PreToolUse:Bash hook error: "); !got.IsError || text != want {
					t.Errorf("%s: the model read (is_error %v)\n %q\nwant %q", id, got.IsError, got.Content, want)
				}
			}
			if got := r.result(t, "toolu_echo"); got.IsError || got.Content != "allowed" {
				t.Errorf("the allowed echo: the model read (is_error %v) %q", got.IsError, got.Content)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "victim.txt")); err != nil {
				t.Errorf("the denied rm ran: %v", err)
			}
			if _, err := os.Stat(filepath.Join(r.dir, "written.txt")); err == nil {
				t.Error("the redirection no rule allows ran")
			}
		})
	}
}
