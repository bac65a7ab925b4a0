package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The end-to-end tests with the real Gemini CLI (0.61.0): gemini -p,
// headless, with askuser as its MCP server configured by README's block
// in the project's .gemini/settings.json, against a loopback fake of the
// Gemini API whose model calls the tool. They skip when Gemini CLI is not
// installed (scripts/install-clients.sh) and fail under CI=true.

// geminiSetup puts README's Gemini block, with the answers file its text
// says to give in args, in the user's settings (home/.gemini, merged into
// the harness's own) or in a new project directory's .gemini, writes the
// answers file into the project, and returns the project directory.
func geminiSetup(t *testing.T, home string, user bool) string {
	t.Helper()
	dir := t.TempDir()
	ci := readmeCIBlock(t, "### Gemini CLI", "json")
	path := filepath.Join(dir, ".gemini", "settings.json")
	if user {
		path = filepath.Join(home, ".gemini", "settings.json")
		ci = mergeJSON(t, path, ci)
	}
	writeFile(t, path, ci)
	writeFile(t, filepath.Join(dir, "ci", "answers.yaml"), "answers:\n  Database: SQLite\n")
	return dir
}

// mergeJSON returns the JSON object in the file at path with the keys of
// the object text added.
func mergeJSON(t *testing.T, path, text string) string {
	t.Helper()
	var base, add map[string]any
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &base)
	}
	if err == nil {
		err = json.Unmarshal([]byte(text), &add)
	}
	if err != nil {
		t.Fatalf("merge %s into %s: %v", text, path, err)
	}
	maps.Copy(base, add)
	out, _ := json.Marshal(base)
	return string(out)
}

// TestGemini: README's block, as written, lets gemini -p run askuser's
// tool, and the answers file's answer reaches the model word for word,
// also when the call carries the wait_for_previous that Gemini CLI adds to
// every tool. Before askuser ignored that field, the second call got
// "wait_for_previous: is not a field of AskUserQuestion input" and nothing
// was asked. Both places README names are run, each with the way out of
// the trust check that works there: --skip-trust does not trust the
// folder, and Gemini CLI 0.61 reads no project settings in a folder it
// does not trust.
func TestGemini(t *testing.T) {
	t.Parallel()
	clients.Gemini(t) // skip (or fail under CI) before building anything
	for _, c := range []struct {
		name string
		user bool
	}{{"user_settings_skip_trust", true}, {"project_settings_trust_workspace", false}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			geminiAsks(t, c.user)
		})
	}
}

func geminiAsks(t *testing.T, user bool) {
	waiting := strings.Replace(e2eDBInput, `{"questions"`, `{"wait_for_previous":true,"questions"`, 1)
	srv := fakeprovider.NewGemini(
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "call_plain", Name: "mcp_askuser_AskUserQuestion", Input: []byte(e2eDBInput)}}},
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "call_wait", Name: "mcp_askuser_AskUserQuestion", Input: []byte(waiting)}}},
		fakeprovider.Turn{Text: "done"},
	)
	t.Cleanup(srv.Close)
	home := t.TempDir()
	args := []string{"-m", "gemini-fake", "-p", "Do the task."}
	if user {
		args = append([]string{"--skip-trust"}, args...)
	}
	cmd := clients.GeminiCommand(peerContext(t), t, home, srv.URL, args...)
	if !user {
		cmd.Env = append(cmd.Env, "GEMINI_CLI_TRUST_WORKSPACE=true")
	}
	cmd.Dir = geminiSetup(t, home, user)
	stdout, stderr := runPeer(t, "gemini -p", cmd)
	if srv.Remaining() != 0 {
		t.Errorf("gemini made fewer model calls than scripted (%d turns left)\nstdout: %s\nstderr: %s", srv.Remaining(), stdout, stderr)
	}
	schema := srv.Requests()[0].ToolSchema("mcp_askuser_AskUserQuestion")
	if !bytes.Contains(schema, []byte(`"multiSelect"`)) || !bytes.Contains(schema, []byte(`"wait_for_previous"`)) {
		t.Errorf("the model was not offered mcp_askuser_AskUserQuestion with askuser's schema and Gemini's wait_for_previous: %s\ntools: %v",
			schema, srv.Requests()[0].ToolNames())
	}
	want := "<untrusted_context>\n" + fileAnswerText("ci/answers.yaml") + "\n</untrusted_context>"
	for _, id := range []string{"call_plain", "call_wait"} {
		got := peerResult(t, srv, id, "gemini's output: "+stdout+stderr)
		var response map[string]string
		if err := json.Unmarshal([]byte(got.Content), &response); err != nil || len(response) != 1 || response["output"] != want {
			t.Errorf("%s: the model got (error %v):\n%s\nwant {\"output\": …} holding:\n%s", id, got.IsError, got.Content, want)
		}
	}
}

// TestGeminiUntrustedFolder: as README says, gemini -p in a folder it was
// not told to trust exits 55 before calling the model, and names the two
// ways out.
func TestGeminiUntrustedFolder(t *testing.T) {
	t.Parallel()
	clients.Gemini(t)
	srv := fakeprovider.NewGemini()
	t.Cleanup(srv.Close)
	home := t.TempDir()
	cmd := clients.GeminiCommand(peerContext(t), t, home, srv.URL, "-m", "gemini-fake", "-p", "Do the task.")
	cmd.Dir = geminiSetup(t, home, false)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 55 {
		t.Fatalf("gemini -p in an untrusted folder: %v, want exit 55\nstderr: %s", err, &stderr)
	}
	for _, way := range []string{"--skip-trust", "GEMINI_CLI_TRUST_WORKSPACE=true"} {
		if !strings.Contains(stderr.String(), way) {
			t.Errorf("stderr does not name %s: %s", way, &stderr)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the model was called %d times", n)
	}
}
