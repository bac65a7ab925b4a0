// The pty, expect and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// TestClaudeCodeAtTheTerminal: claude -p started from a shell, with askuser
// mcp and askuser hook and no answers file, in one run per version:
//   - the question appears on that shell's terminal (askuser opens
//     /dev/tty, as stdin and stdout carry MCP), the person picks an option
//     with the arrow keys, and the model gets a person's answer;
//   - the same for the built-in AskUserQuestion through the PreToolUse
//     hook, with no additionalContext (a person answered);
//   - a second server, "late", has a 1.5 s timeout in the MCP config: when
//     Claude Code gives up on its call (notifications/cancelled), the prompt
//     leaves the terminal, the person is told why, and the terminal is left
//     as it was.
func TestClaudeCodeAtTheTerminal(t *testing.T) {
	for _, version := range clients.ClaudeVersions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			srv := fakeprovider.NewAnthropic(
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_tty", "mcp__askuser__AskUserQuestion", e2eDBInput)}},
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_hook", "AskUserQuestion", e2eDBInput)}},
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_late", "mcp__late__AskUserQuestion", e2eDBInput)}},
				fakeprovider.Turn{Text: "done"},
			)
			defer srv.Close()
			dir := t.TempDir()
			mcp := mcpConfig(map[string]mcpServer{
				"askuser": {Command: askuserBin(), Args: []string{"mcp"}},
				"late":    {Command: askuserBin(), Args: []string{"mcp", "--name", "late"}, Timeout: 1500},
			})
			settings := `{"hooks":{"PreToolUse":[{"matcher":"AskUserQuestion","hooks":[{"type":"command","command":"` + askuserBin() + ` hook --timeout 50s","timeout":60}]}]}}`
			for name, text := range map[string]string{"mcp.json": mcp, "settings.json": settings} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			p, stdout := startClaudeTTY(t, version, dir, srv.URL, "-p", "Do the task.", "--output-format", "json",
				"--mcp-config", filepath.Join(dir, "mcp.json"), "--allowedTools", "mcp__askuser__AskUserQuestion mcp__late__AskUserQuestion",
				"--settings", filepath.Join(dir, "settings.json"), "--permission-prompt-tool", "stdio")
			p.prompt("Which database should we use?")
			p.send(keyDown, keyEnter)
			// The hook's prompt: the person takes the recommended option.
			p.prompt("Which database should we use?")
			p.send(keyEnter)
			p.expect("the question was withdrawn") // the second call's prompt
			code, after := p.exit()
			if code != 0 {
				t.Fatalf("claude exited %d\nstdout: %s\nscreen:\n%s", code, stdout, p.screen.String())
			}
			if !p.restored(after) {
				t.Error("the terminal was left in another mode than it started in")
			}
			results := srv.ToolResults()
			want := "User answered the following questions:\n\n1. Database (Which database should we use?)\n   Selected: SQLite\n\nProceeding with user selections."
			if len(results) != 3 || results[0].ToolUseID != "toolu_tty" || results[0].Content != want {
				t.Fatalf("the model got %+v; want first a person's answer:\n%s\nscreen:\n%s", results, want, p.screen.String())
			}
			if r := results[1]; r.IsError || !strings.Contains(r.Content, `"Which database should we use?"="PostgreSQL (Recommended)"`) {
				t.Errorf("the hook's answer reached the model as %+v", r)
			}
			if after, _ := srv.After("toolu_hook"); len(after) != 0 {
				t.Errorf("a person answered, yet the model was told %q", after)
			}
			if !results[2].IsError || !strings.Contains(results[2].Content, "timed out after 1s") {
				t.Errorf("the model got %+v for the abandoned call, want Claude Code's timeout", results[2])
			}
		})
	}
}

// startClaudeTTY starts the pinned Claude Code on a new terminal that is
// its controlling terminal and its stdin and stderr, as from a shell;
// stdout (the JSON result) is collected apart.
func startClaudeTTY(t *testing.T, version, dir, baseURL string, args ...string) (*ttyProc, *bytes.Buffer) {
	t.Helper()
	p := newTTY(t)
	c := p.c
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	cmd := clients.ClaudeCommand(ctx, t, version, t.TempDir(), baseURL, args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "TERM=xterm-256color", "NO_COLOR=1")
	stdout := &bytes.Buffer{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), stdout, c.Tty()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start claude: %v", err)
	}
	p.cmd = cmd
	t.Cleanup(reap(cmd, &p.err, p.done))
	return p, stdout
}
