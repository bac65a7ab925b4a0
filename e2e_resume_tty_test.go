//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// authTurns are a model that asks the seed's two questions, saying
// first, then ends.
func authTurns(t *testing.T, first string) *fakeprovider.Server {
	t.Helper()
	input, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "questions", "auth.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovider.NewAnthropic(
		fakeprovider.Turn{Text: first, ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_auth", Name: "AskUserQuestion", Input: input}}},
		fakeprovider.Turn{Text: "Setting up authentication now."},
	)
	t.Cleanup(srv.Close)
	return srv
}

// TestTerminalResumeShowsContext stops a run on its questions (the prompt
// came on a pipe, nobody at a terminal), then runs `askuser resume` with
// no id at a terminal in the same directory: before the question, the
// terminal shows the original request, when the questions were asked and
// by whom, and what the agent last said, with the model's escape
// sequences removed.
func TestTerminalResumeShowsContext(t *testing.T) {
	t.Parallel()
	srv := authTurns(t, "Before I start I need two decisions.\x1b]0;pwned\x07 Pick what fits your users.")
	dir, state := t.TempDir(), filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state, "ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL=" + srv.URL}

	run := exec.Command(askuserBin(), "run", "-p")
	run.Dir, run.Env = dir, append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	run.Stdin = strings.NewReader("Add authentication to my app")
	out, err := run.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 6 {
		t.Fatalf("the first run: %v, want exit 6 (waiting)\n%s", err, out)
	}

	p := startTTYEnv(t, dir, nil, env, "resume")
	lines := []string{"Resuming session ", "Request: Add authentication to my app", "Asked 0s ago (",
		") by the agent: Auth Method, Providers", "It last said:", "Before I start I need two decisions. Pick what fits your users."}
	for _, s := range lines {
		p.expect(s)
	}
	p.prompt("Which authentication method should we use?")
	raw := p.raw.String()
	question := strings.Index(raw, "Which authentication method should we use?")
	for _, s := range lines {
		if i := strings.Index(raw, s); i < 0 || i > question {
			t.Errorf("%q is shown at %d, the question at %d; want the context first", s, i, question)
		}
	}
	if strings.Contains(raw, "pwned") || strings.Contains(raw, "\x1b]0;") {
		t.Errorf("the model's escape sequence reached the terminal:\n%q", raw)
	}
	p.send(keyCtrlC)
	if code, _ := p.exit(); code != 130 {
		t.Fatalf("exit code %d after Ctrl+C, want 130\nscreen:\n%s", code, p.screen.String())
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model calls, want 1: the question was not answered", n)
	}
}

// TestTerminalPipedPrompt pipes the prompt into `askuser run` at a
// terminal: stdin cannot carry answers, but the person is at the
// terminal, so the questions are asked there (on /dev/tty) rather than
// left waiting.
func TestTerminalPipedPrompt(t *testing.T) {
	t.Parallel()
	srv := authTurns(t, "Two decisions first.")
	env := []string{"ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL=" + srv.URL}
	p := startTTYIn(t, t.TempDir(), strings.NewReader("Add authentication to my app\n"), nil, env, "run")
	answerAuth(p)
	p.expect("Setting up authentication now.")
	code, after := p.exit()
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
	}
	if !p.restored(after) {
		t.Error("the terminal was not restored after the run")
	}
	results := srv.ToolResults()
	if len(results) != 1 || results[0].Content != strings.TrimSuffix(wantAuthJWT, "\n") {
		t.Errorf("the model was sent %+v, want the person's answers:\n%s", results, wantAuthJWT)
	}
	if body := string(srv.Requests()[0].Body); !strings.Contains(body, "Add authentication to my app") {
		t.Errorf("the piped prompt did not reach the model: %s", body)
	}
}
