// The pty, expect and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"

	"github.com/askuser/askuser/internal/clients"
)

// TestTerminalApprovesMCPCalls: at a terminal, a person approves the
// writes of a real MCP server (@modelcontextprotocol/server-filesystem)
// with the arrow keys: the first with "Allow for the rest of this
// session", so the second write of the same tool is not asked again; a
// third call, of another tool, is denied with Deny, and the model sees the
// denial.
func TestTerminalApprovesMCPCalls(t *testing.T) {
	fs := clients.FilesystemServer(t)
	t.Parallel()
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fs": map[string]any{"command": fs, "args": []string{work}}}})
	script := `model: scripted-fs
turns:
  - tool_calls:
      - {name: mcp__fs__write_file, input: {path: one.txt, content: "one\n"}}
  - tool_calls:
      - {name: mcp__fs__write_file, input: {path: two.txt, content: "two\n"}}
      - {name: mcp__fs__create_directory, input: {path: sub}}
  - text: "Model received: {{tool_results}}"
`
	files := map[string]string{"fs.json": string(cfg), "script.yaml": script}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := startTTY(t, dir, nil, "run", "--script", "script.yaml", "--mcp-config", "fs.json", "Write the notes")
	p.prompt("Allow mcp__fs__write_file to run?")
	p.send(keyDown, keyEnter) // Allow for the rest of this session
	p.prompt("Allow mcp__fs__create_directory to run?")
	p.send(keyDown, keyDown, keyEnter) // Deny
	p.expect("Model received:")
	if code, _ := p.exit(); code != 0 {
		t.Fatalf("exit %d\nscreen:\n%s", code, p.screen.String())
	}
	for _, f := range []string{"one.txt", "two.txt"} {
		if _, err := os.Stat(filepath.Join(work, f)); err != nil {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "sub")); err == nil {
		t.Error("the denied create_directory ran")
	}
	raw := p.raw.String()
	if n := strings.Count(raw, "Allow mcp__fs__write_file to run?"); n < 1 || strings.Contains(raw, "two.txt\r\n\r\n❯") {
		t.Errorf("write_file asked %d times; the second write is covered by the session grant", n)
	}
	if !strings.Contains(raw, "mcp__fs__create_directory was not run: the user denied it") {
		t.Errorf("the model never saw the denial\nscreen:\n%s", p.screen.String())
	}
}

// TestTerminalSubagentsAskInTurn: two sub-agents ask at once; at a
// terminal their questions come one at a time, each labelled with the
// sub-agent that asks, and each answer reaches the sub-agent that asked.
func TestTerminalSubagentsAskInTurn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := `model: scripted-subagents
turns:
  - tool_calls:
      - {id: toolu_a, name: Task, input: {description: Pick the database, prompt: pick db}}
      - {id: toolu_b, name: Task, input: {description: Pick the auth, prompt: pick auth}}
  - text: "Parent received: {{tool_results}}"
subagents:
  pick db:
    turns:
      - tool_calls:
          - name: AskUserQuestion
            input: {questions: [{question: Which database?, header: Database, multiSelect: false,
              options: [{label: PostgreSQL, description: relational}, {label: SQLite, description: embedded}]}]}
      - text: Database chosen.
  pick auth:
    turns:
      - tool_calls:
          - name: AskUserQuestion
            input: {questions: [{question: Which auth?, header: Auth, multiSelect: false,
              options: [{label: OAuth, description: social}, {label: JWT, description: tokens}]}]}
      - text: Auth chosen.
`
	if err := os.WriteFile(filepath.Join(dir, "script.yaml"), []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startTTY(t, dir, nil, "run", "--script", "script.yaml", "Set up the project")
	// Whichever asks first is answered first; the other waits its turn.
	answers := map[string][]string{"Which database?": {keyDown, keyEnter}, "Which auth?": {keyDown, keyEnter}}
	labels := map[string]string{"Which database?": "asked by sub-agent: Pick the database", "Which auth?": "asked by sub-agent: Pick the auth"}
	for range 2 {
		var open []string
		for q := range answers {
			open = append(open, q)
		}
		q := p.promptOneOf(open...)
		if !strings.Contains(p.screen.String(), labels[q]) {
			t.Errorf("the prompt for %q does not say %q\nscreen:\n%s", q, labels[q], p.screen.String())
		}
		p.send(answers[q]...)
		delete(answers, q)
	}
	p.expect("Parent received:")
	if code, _ := p.exit(); code != 0 {
		t.Fatalf("exit %d\nscreen:\n%s", code, p.screen.String())
	}
	raw := p.raw.String()
	for _, want := range []string{"Database chosen.", "Selected: SQLite", "Auth chosen.", "Selected: JWT"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the parent's result lacks %q\nscreen:\n%s", want, p.screen.String())
		}
	}
}

// promptOneOf waits for a prompt showing one of qs (and for the terminal
// to be put in raw mode) and returns which.
func (p *ttyProc) promptOneOf(qs ...string) string {
	p.t.Helper()
	out, err := p.c.Expect(expect.String(qs...))
	if err != nil {
		p.t.Fatalf("waiting for any of %q: %v\nscreen:\n%s", qs, err, p.screen.String())
	}
	q, at := "", -1
	for _, c := range qs {
		if i := strings.LastIndex(out, c); i > at {
			q, at = c, i
		}
	}
	for deadline := time.Now().Add(waitLimit); p.restored(p.termios()); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("terminal not put in raw mode after %q\nscreen:\n%s", q, p.screen.String())
		}
	}
	return q
}
