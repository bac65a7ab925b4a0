package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// TestOpenCode: README's block, as written, in the project's
// opencode.json (merged over the user's, where the harness put the fake
// provider), lets opencode run call askuser's tool without a permission
// prompt, and the answers file's answer reaches the model word for word.
// It skips when OpenCode is not installed (scripts/install-clients.sh)
// and fails under CI=true.
func TestOpenCode(t *testing.T) {
	t.Parallel()
	clients.OpenCode(t) // skip (or fail under CI) before building anything
	srv := fakeprovider.NewOpenAI(
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "call_ask", Name: "askuser_AskUserQuestion", Input: []byte(e2eDBInput)}}},
		fakeprovider.Turn{Text: "done"},
	)
	t.Cleanup(srv.Close)
	home, dir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "opencode.json"), readmeCIBlock(t, "### OpenCode", "json"))
	writeFile(t, filepath.Join(dir, "ci", "answers.yaml"), "answers:\n  Database: SQLite\n")
	cmd := clients.OpenCodeCommand(peerContext(t), t, home, srv.URL, "run", "Do the task.")
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "PWD="+dir)
	stdout, stderr := runPeer(t, "opencode run", cmd)
	if srv.Remaining() != 0 {
		t.Errorf("opencode made fewer model calls than scripted (%d turns left)\nstdout: %s\nstderr: %s", srv.Remaining(), stdout, stderr)
	}
	if schema := srv.Requests()[0].ToolSchema("askuser_AskUserQuestion"); !bytes.Contains(schema, []byte(`"multiSelect"`)) {
		t.Errorf("the model was not offered askuser_AskUserQuestion with askuser's schema; tools: %v", srv.Requests()[0].ToolNames())
	}
	got := peerResult(t, srv, "call_ask", "opencode's output: "+stdout+stderr)
	if want := fileAnswerText("ci/answers.yaml"); got.Content != want {
		t.Errorf("the model got:\n%s\nwant:\n%s", got.Content, want)
	}
}
