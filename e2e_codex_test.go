package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The end-to-end test with the real Codex CLI (0.169.0): codex exec,
// headless, with askuser as its MCP server configured by README's block,
// against a loopback fake of the Responses API whose model calls the tool.
// It skips when Codex is not installed (scripts/install-clients.sh) and
// fails under CI=true.

// codexWrapped is how Codex 0.169 hands a tool's text to its model: a
// part "Wall time: … seconds\nOutput:" and a part with the text, which
// the fake joins with "\n".
var codexWrapped = regexp.MustCompile(`\AWall time: [0-9.]+ seconds\nOutput:\n`)

// TestCodex: README's block, as written, lets codex exec (approval policy
// "never") run askuser's tool, and the answers file's answer reaches the
// model word for word. Before AskUserQuestion carried readOnlyHint, Codex
// refused the call: "MCP tool call requires approval, but approval policy
// is never".
func TestCodex(t *testing.T) {
	t.Parallel()
	clients.Codex(t) // skip (or fail under CI) before building anything
	srv := fakeprovider.NewResponses(
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "call_ask", Namespace: "mcp__askuser", Name: "AskUserQuestion", Input: []byte(e2eDBInput)}}},
		fakeprovider.Turn{Text: "done"},
	)
	t.Cleanup(srv.Close)
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".codex", "config.toml"), readmeCIBlock(t, "### Codex", "toml"))
	writeFile(t, filepath.Join(dir, "ci", "answers.yaml"), "answers:\n  Database: SQLite\n")

	cmd := clients.CodexCommand(peerContext(t), t, home, srv.URL, "exec", "--skip-git-repo-check", "Do the task.")
	cmd.Dir = dir
	stdout, stderr := runPeer(t, "codex exec", cmd)
	if srv.Remaining() != 0 {
		t.Errorf("codex made fewer model calls than scripted (%d turns left)\nstdout: %s\nstderr: %s", srv.Remaining(), stdout, stderr)
	}
	if schema := srv.Requests()[0].ToolSchema("mcp__askuser.AskUserQuestion"); !bytes.Contains(schema, []byte(`"multiSelect"`)) {
		t.Errorf("the model was not offered askuser's tool in the namespace mcp__askuser with its schema; tools: %v", srv.Requests()[0].ToolNames())
	}
	got := peerResult(t, srv, "call_ask", "codex's output: "+stdout+stderr)
	want := fileAnswerText("ci/answers.yaml")
	if !codexWrapped.MatchString(got.Content) || codexWrapped.ReplaceAllString(got.Content, "") != want {
		t.Errorf("the model got:\n%s\nwant, after Codex's \"Wall time: … seconds\\nOutput:\\n\":\n%s", got.Content, want)
	}
}
