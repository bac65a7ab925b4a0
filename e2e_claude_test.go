package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The end-to-end tests with the real Claude Code: each pinned version runs
// claude -p against the loopback fake Anthropic API, with askuser as its
// MCP server or hook, and the test asserts what the model (the fake)
// received as the tool result. They skip when the clients are not
// installed (scripts/install-clients.sh) and fail under CI=true.

const e2eDBInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational, robust"},{"label":"SQLite","description":"Embedded, simple"}],"multiSelect":false}]}`

// claudeCase is one claude -p run.
type claudeCase struct {
	turns []fakeprovider.Turn
	files map[string]string // written into the run's directory; $DIR and $ASKUSER are replaced
	args  []string          // after -p PROMPT; $DIR and $ASKUSER are replaced
}

// claudeResult is what one run left behind.
type claudeResult struct {
	srv    *fakeprovider.Server
	dir    string
	stdout string
}

// result returns the tool result the model received for id.
func (r claudeResult) result(t *testing.T, id string) fakeprovider.ToolResultSeen {
	t.Helper()
	return peerResult(t, r.srv, id, "claude's output: "+r.stdout)
}

// runClaude runs one case on version, bounded in time, in its own session
// (no controlling terminal, so askuser can never prompt the person running
// the tests).
func runClaude(t *testing.T, version string, c claudeCase) claudeResult {
	t.Helper()
	srv := fakeprovider.NewAnthropic(c.turns...)
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	expand := func(s string) string {
		return strings.NewReplacer("$DIR", dir, "$ASKUSER", askuserBin()).Replace(s)
	}
	for name, text := range c.files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(expand(text)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"-p", "Do the task.", "--output-format", "json"}
	for _, a := range c.args {
		args = append(args, expand(a))
	}
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := clients.ClaudeCommand(ctx, t, version, t.TempDir(), srv.URL, args...)
	cmd.Dir = dir
	stdout, _ := runPeer(t, "claude "+version+" -p", cmd)
	if srv.Remaining() != 0 {
		t.Errorf("claude made fewer model calls than scripted (%d turns left): %s", srv.Remaining(), stdout)
	}
	return claudeResult{srv: srv, dir: dir, stdout: stdout}
}

func toolCall(id, name, input string) fakeprovider.ToolCall {
	return fakeprovider.ToolCall{ID: id, Name: name, Input: json.RawMessage(input)}
}

// mcpServer is one stdio server of an --mcp-config; "$ASKUSER" is
// replaced by the binary under test.
type mcpServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	Timeout int      `json:"timeout,omitempty"`
}

func mcpConfig(servers map[string]mcpServer) string {
	b, _ := json.Marshal(map[string]any{"mcpServers": servers})
	return string(b)
}

// TestClaudeCode runs the bridges on each pinned version, in two claude -p
// runs per version (a permission-prompt tool is set once per run), all in
// parallel.
func TestClaudeCode(t *testing.T) {
	cases := map[string]func(t *testing.T, version string){
		"mcp_tool_and_hooks": claudeToolAndHooks,
		"approve":            claudeApprove,
	}
	for _, version := range clients.ClaudeVersions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			clients.Claude(t, version) // skip (or fail under CI) before building anything
			for name, run := range cases {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					run(t, version)
				})
			}
		})
	}
}

// claudeToolAndHooks is one run with three calls:
//   - (a) askuser's MCP tool, answered from an answers file: the model gets
//     askuser's standard text, saying the file answered;
//   - (c) the built-in AskUserQuestion, answered by the PreToolUse hook from
//     the file, with additionalContext naming the file;
//   - (d) an MCP server's form, answered by the Elicitation hook: the server
//     receives the exact enum values.
func claudeToolAndHooks(t *testing.T, version string) {
	hookCmd := `{"type":"command","command":"$ASKUSER hook --answers $DIR/ci.yaml --timeout 50s","timeout":60}`
	settings := `{"hooks":{"PreToolUse":[{"matcher":"AskUserQuestion","hooks":[` + hookCmd + `]}],"Elicitation":[{"matcher":"deploy","hooks":[` + hookCmd + `]}]}}`
	answers := "answers:\n  Database: SQLite\n  Environment: staging\n  Regions: [eu, us]\n  Confirm: \"Yes\"\n  Replicas: {other: \"3\"}\n  Note: {skip: true}\n"
	r := runClaude(t, version, claudeCase{
		turns: []fakeprovider.Turn{
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_mcp", "mcp__askuser__AskUserQuestion", e2eDBInput)}},
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_hook", "AskUserQuestion", e2eDBInput)}},
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_el", "mcp__deploy__deploy", `{}`)}},
			{Text: "done"},
		},
		files: map[string]string{"ci.yaml": answers, "settings.json": settings},
		args: []string{"--settings", "$DIR/settings.json", "--permission-prompt-tool", "stdio",
			"--allowedTools", "mcp__askuser__AskUserQuestion mcp__deploy__deploy",
			// The servers inline, as the manual shows it for CI.
			"--mcp-config", mcpConfig(map[string]mcpServer{
				"askuser": {Command: "$ASKUSER", Args: []string{"mcp", "--answers", "$DIR/ci.yaml"}},
				"deploy":  {Command: buildFixture(t)},
			})},
	})
	fileNote := "answers file (" + r.dir + "/ci.yaml)"

	want := "No person answered the following questions; they were answered as marked:\n\n" +
		"1. Database (Which database should we use?)\n   Selected: SQLite\n" +
		"   Answered by: an " + fileNote + ", set in advance, not chosen by a person at the time\n\n" +
		`Proceeding with these selections. Treat the answers marked "Answered by" as defaults the user has not confirmed.`
	if got := r.result(t, "toolu_mcp"); got.IsError || got.Content != want {
		t.Errorf("(a) the model got (is_error %v):\n%s\nwant:\n%s", got.IsError, got.Content, want)
	}
	// 2.1.330 defers MCP tools behind tool search unless alwaysLoad is set.
	if schema := r.srv.Requests()[0].ToolSchema("mcp__askuser__AskUserQuestion"); !bytes.Contains(schema, []byte(`"multiSelect"`)) {
		t.Errorf("(a) the model was not offered the tool with its schema: %s", schema)
	}

	if got := r.result(t, "toolu_hook"); got.IsError || !strings.Contains(got.Content, `"Which database should we use?"="SQLite"`) {
		t.Errorf("(c) the model got (is_error %v) %q", got.IsError, got.Content)
	}
	after, _ := r.srv.After("toolu_hook")
	if joined := strings.Join(after, "\n"); !strings.Contains(joined, fileNote) {
		t.Errorf("(c) after the tool result the model read %q; want the additionalContext naming the answers file", joined)
	}

	got := r.result(t, "toolu_el")
	var received struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	raw, _ := strings.CutPrefix(got.Content, "deploy received: ")
	if err := json.Unmarshal([]byte(raw), &received); err != nil {
		t.Fatalf("(d) the tool result %q is not the fixture's report: %v", got.Content, err)
	}
	content, _ := json.Marshal(received.Content)
	if want := `{"confirm":true,"env":"staging","regions":["eu","us"],"replicas":3}`; received.Action != "accept" || string(content) != want {
		t.Errorf("(d) the server received %s %s, want accept %s", received.Action, content, want)
	}
}

// (b) approve as --permission-prompt-tool, under --frontend auto: the
// built-in AskUserQuestion is answered with the exact label and a note
// that the policy chose it; a write is denied (the policy never approves);
// askuser's own MCP tool, not in --allowedTools, is allowed at once; and
// a second askuser server with --frontend elicit reports the form claude -p
// cancels as unanswered.
func claudeApprove(t *testing.T, version string) {
	r := runClaude(t, version, claudeCase{
		turns: []fakeprovider.Turn{
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_ask", "AskUserQuestion", e2eDBInput)}},
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_w", "Bash", `{"command":"touch written.txt","description":"write a file"}`)}},
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_own", "mcp__askuser__AskUserQuestion", e2eDBInput)}},
			{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_form", "mcp__form__AskUserQuestion", e2eDBInput)}},
			{Text: "done"},
		},
		files: map[string]string{"mcp.json": mcpConfig(map[string]mcpServer{
			"askuser": {Command: "$ASKUSER", Args: []string{"mcp", "--frontend", "auto"}},
			"form":    {Command: "$ASKUSER", Args: []string{"mcp", "--frontend", "elicit", "--name", "form"}},
		})},
		args: []string{"--mcp-config", "$DIR/mcp.json", "--permission-prompt-tool", "mcp__askuser__approve", "--allowedTools", "mcp__form__AskUserQuestion"},
	})
	ask := r.result(t, "toolu_ask")
	if ask.IsError || !strings.Contains(ask.Content, `"Which database should we use?"="PostgreSQL (Recommended)"`) ||
		!strings.Contains(ask.Content, "recommended-option policy") {
		t.Errorf("AskUserQuestion through approve: the model got (is_error %v) %q; want the exact label and who chose it", ask.IsError, ask.Content)
	}
	if w := r.result(t, "toolu_w"); !w.IsError || !strings.Contains(w.Content, "no person approved it") {
		t.Errorf("the write: the model got (is_error %v) %q; want a denial saying no person approved it", w.IsError, w.Content)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "written.txt")); err == nil {
		t.Error("the denied write ran")
	}
	// --frontend elicit: claude -p cancels a form no Elicitation hook answers.
	if form := r.result(t, "toolu_form"); !form.IsError || !strings.Contains(form.Content, "dismissed without an answer") || strings.Contains(form.Content, "Selected") {
		t.Errorf("the host's form in claude -p: the model got (is_error %v) %q; want a no-answer saying the form was dismissed", form.IsError, form.Content)
	}
	if own := r.result(t, "toolu_own"); own.IsError || !strings.HasPrefix(own.Content, "No person answered") || !strings.Contains(own.Content, "Selected: PostgreSQL") {
		t.Errorf("askuser's own tool through approve: the model got (is_error %v) %q", own.IsError, own.Content)
	}
}

var (
	fixtureOnce sync.Once
	fixturePath string
	fixtureErr  error
)

// buildFixture builds testdata/mcpfixture once per test binary.
func buildFixture(t *testing.T) string {
	t.Helper()
	fixtureOnce.Do(func() {
		fixturePath = filepath.Join(binDir, "mcpfixture")
		out, err := exec.Command("go", "build", "-o", fixturePath, "./testdata/mcpfixture").CombinedOutput()
		if err != nil {
			fixtureErr = err
			fixturePath = string(out)
		}
	})
	if fixtureErr != nil {
		t.Fatalf("build the MCP fixture: %v\n%s", fixtureErr, fixturePath)
	}
	return fixturePath
}
