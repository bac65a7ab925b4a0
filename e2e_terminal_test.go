//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// repoRoot is the directory the tests run in: the repository root, where
// the README's commands are run from.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// wantAuthJWT is the tool result for JWT with Google and GitHub, chosen
// by a person.
const wantAuthJWT = `User answered the following questions:

1. Auth Method (Which authentication method should we use?)
   Selected: JWT

2. Providers (Which OAuth providers should we support?)
   Selected: Google, GitHub

Proceeding with user selections.
`

// answerAuth answers the seed's two questions at the prompt: JWT (one
// down from the recommended default), then Google and GitHub, and
// submits them at the review.
func answerAuth(p *ttyProc) {
	p.t.Helper()
	p.prompt("Which authentication method should we use?")
	p.send(keyDown, keyEnter)
	p.prompt("Which OAuth providers should we support?")
	p.send(keySpace, keyDown, keySpace, keyEnter)
	p.prompt("Review your answers")
	p.send(keyEnter)
}

// TestTerminalAskToFile runs `askuser ask auth.json > out.txt` at a
// terminal: the prompt is drawn on the terminal, the tool result goes to
// the file, and the terminal is left as it was.
func TestTerminalAskToFile(t *testing.T) {
	t.Parallel()
	out, outPath := outFile(t)
	p := startTTY(t, repoRoot(t), out, "ask", "testdata/questions/auth.json")
	answerAuth(p)
	code, after := p.exit()
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
	}
	if !p.restored(after) {
		t.Error("the terminal was not restored to its mode before the prompt")
	}
	got, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != wantAuthJWT {
		t.Errorf("out.txt =\n%s\nwant\n%s", got, wantAuthJWT)
	}
	raw := p.raw.String()
	for _, s := range []string{"Auth Method", "OAuth 2.0 (Recommended)", "Industry standard, supports social login",
		"Question 2 of 2", "Apple", "Other", "Auth Method: JWT", "Providers: Google, GitHub"} {
		if !strings.Contains(raw, s) {
			t.Errorf("the terminal never showed %q\nscreen:\n%s", s, p.screen.String())
		}
	}
	if strings.Contains(raw, "User answered") {
		t.Error("the tool result was written to the terminal as well as to stdout")
	}
	if strings.Contains(string(got), "\x1b") {
		t.Errorf("out.txt holds escape sequences: %q", got)
	}
}

// TestTerminalAskCtrlC presses Ctrl+C at the prompt: exit 130, nothing on
// stdout, the terminal restored.
func TestTerminalAskCtrlC(t *testing.T) {
	t.Parallel()
	out, outPath := outFile(t)
	p := startTTY(t, repoRoot(t), out, "ask", "testdata/questions/auth.json")
	p.prompt("Which authentication method should we use?")
	p.send(keyDown, keyCtrlC)
	code, after := p.exit()
	if code != 130 {
		t.Fatalf("exit code %d, want 130\nscreen:\n%s", code, p.screen.String())
	}
	if !p.restored(after) {
		t.Error("the terminal was left in raw mode after Ctrl+C")
	}
	if got, _ := os.ReadFile(outPath); len(got) != 0 {
		t.Errorf("stdout after Ctrl+C = %q, want nothing", got)
	}
	if !strings.Contains(p.screen.String(), "cancelled") {
		t.Errorf("the terminal does not say the prompt was cancelled\nscreen:\n%s", p.screen.String())
	}
}

// TestTerminalRunDemo runs the README's first command (the built binary
// instead of go run) at a terminal, in a directory outside the checkout,
// and answers both questions.
func TestTerminalRunDemo(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(readme), "```sh\n")
	if first, _, _ := strings.Cut(block, "#"); strings.TrimSpace(first) != "go run . demo" {
		t.Fatalf("README's first command is %q; this test runs askuser demo", strings.TrimSpace(first))
	}
	p := startTTY(t, t.TempDir(), nil, "demo")
	p.expect("Before I add authentication, I need two decisions from you.")
	answerAuth(p)
	// The agent writes its plan through the demo's MCP file server: the
	// person approves the write with the focused option, Allow.
	p.prompt("Allow mcp__files__write_file to run?")
	p.send(keyEnter)
	p.expect("That is the whole loop")
	code, after := p.exit()
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
	}
	if !p.restored(after) {
		t.Error("the terminal was not restored after the run")
	}
	raw := p.raw.String()
	// The scripted model echoes the tool result it was sent.
	for _, s := range []string{"User answered the following questions:", "Selected: JWT", "Selected: Google, GitHub",
		"Proceeding with user selections.", "Wrote ", "[FILE] AUTH_PLAN.md"} {
		if !strings.Contains(raw, s) {
			t.Errorf("the terminal never showed %q\nscreen:\n%s", s, p.screen.String())
		}
	}
	// The visible change: the plan, with the person's answers, in the
	// folder the demo named.
	_, rest, _ := strings.Cut(raw, "the agent's folder is ")
	dir, _, _ := strings.Cut(rest, "\r")
	plan, err := os.ReadFile(filepath.Join(strings.TrimSpace(dir), "AUTH_PLAN.md"))
	if err != nil || !strings.Contains(string(plan), "Selected: JWT") {
		t.Errorf("the demo's folder %q holds no plan with the answers: %v\n%s", dir, err, plan)
	}
}

// TestTerminalBell checks --bell: with always, a BEL is written before the
// question is drawn; with never, none at all.
func TestTerminalBell(t *testing.T) {
	t.Parallel()
	for _, bell := range []string{"always", "never"} {
		t.Run(bell, func(t *testing.T) {
			t.Parallel()
			p := startTTY(t, repoRoot(t), nil, "run", "--bell", bell, "--script", "testdata/auth-demo.yaml", "Add authentication to my app")
			answerAuth(p)
			if code, _ := p.exit(); code != 0 {
				t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
			}
			raw := p.raw.String()
			bellAt := strings.Index(raw, "\a")
			questionAt := strings.Index(raw, "Which authentication method should we use?")
			if questionAt < 0 {
				t.Fatalf("the question was never drawn:\n%q", raw)
			}
			switch {
			case bell == "always" && (bellAt < 0 || bellAt > questionAt):
				t.Errorf("--bell always: BEL at %d, question at %d; want a BEL before the question\n%q", bellAt, questionAt, raw[:questionAt])
			case bell == "never" && bellAt >= 0:
				t.Errorf("--bell never: BEL written at %d\n%q", bellAt, raw)
			}
		})
	}
}

// TestTerminalRunAnthropic is the "done when": with an Anthropic
// endpoint (a loopback server speaking its wire format), `askuser run
// "Add authentication to my app"` streams the model's text, asks at the
// terminal, and sends the answers back as the tool result.
func TestTerminalRunAnthropic(t *testing.T) {
	t.Parallel()
	input, err := os.ReadFile(filepath.Join(repoRoot(t), "testdata", "questions", "auth.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakeprovider.NewAnthropic(
		fakeprovider.Turn{Text: "Two decisions before I start.", ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_auth", Name: "AskUserQuestion", Input: input}}},
		fakeprovider.Turn{Text: "Setting up JWT with Google and GitHub sign-in now."},
	)
	defer srv.Close()
	p := startTTYEnv(t, repoRoot(t), nil, []string{"ANTHROPIC_API_KEY=test-key", "ANTHROPIC_BASE_URL=" + srv.URL},
		"run", "Add authentication to my app")
	p.expect("Two decisions before I start.")
	answerAuth(p)
	p.expect("Setting up JWT with Google and GitHub sign-in now.")
	code, after := p.exit()
	if code != 0 {
		t.Fatalf("exit code %d, want 0\nscreen:\n%s", code, p.screen.String())
	}
	if !p.restored(after) {
		t.Error("the terminal was not restored after the run")
	}
	results := srv.ToolResults()
	if len(results) != 1 || results[0].ToolUseID != "toolu_auth" || results[0].IsError ||
		results[0].Content != strings.TrimSuffix(wantAuthJWT, "\n") {
		t.Errorf("the model was sent %+v, want one tool_result for toolu_auth:\n%s", results, wantAuthJWT)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d model calls, want 2", n)
	}
}
