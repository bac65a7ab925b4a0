package agenthost

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The tests with the real Claude Code: each pinned version runs in -p mode
// against the loopback fake Anthropic API, with the stand-in hook deciding
// through the package's ledger. They skip when Claude Code is not
// installed (scripts/install-clients.sh) and fail under CI=true.

// claudeRig is one Claude Code project: the fake, HOME, the folder, the
// stand-in's folder and the wiring.
type claudeRig struct {
	t       *testing.T
	srv     *fakeprovider.Server
	bin     string
	env     []string
	dir     string
	standin string
	w       Wiring
}

func newClaudeRig(t *testing.T, version string, turns ...fakeprovider.Turn) *claudeRig {
	t.Helper()
	srv := fakeprovider.NewAnthropic(turns...)
	t.Cleanup(srv.Close)
	cmd := clients.ClaudeCommand(context.Background(), t, version, t.TempDir(), srv.URL)
	standin := t.TempDir()
	return &claudeRig{t: t, srv: srv, bin: cmd.Path, env: cmd.Env, dir: t.TempDir(), standin: standin, w: standinWiring(t, standin)}
}

// start runs claude with args and returns the stopped session.
func (r *claudeRig) start(args ...string) (Session, Result) {
	r.t.Helper()
	run := &Run{Kind: Claude, Bin: r.bin, Dir: r.dir, Args: args, Env: r.env}
	cmd, err := claudeHost{}.Start(run, r.w)
	if err != nil {
		r.t.Fatal(err)
	}
	res := runHost(r.t, "claude", cmd)
	if res.ExitCode != 0 {
		r.t.Fatalf("claude exited %d\nstdout: %s\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	s, err := claudeHost{}.Stopped(context.Background(), run, res.Stdout)
	if err != nil {
		r.t.Fatalf("Stopped: %v\nstdout: %s", err, res.Stdout)
	}
	if s.ID != run.SessionID || s.Pending == nil {
		r.t.Fatalf("Stopped = %+v; want session %s with a pending call\nstdout: %s", s, run.SessionID, res.Stdout)
	}
	return s, res
}

// resume continues s with env (nil: the rig's) and returns the outcome.
func (r *claudeRig) resume(s Session, env []string) (Outcome, error) {
	r.t.Helper()
	if env == nil {
		env = r.env
	}
	cmd, err := claudeHost{}.Continue(context.Background(), s, Continuation{Env: env}, r.w)
	if err != nil {
		return Outcome{}, err
	}
	res := runHost(r.t, "claude --resume", cmd)
	return claudeHost{}.Outcome(s, env, res), nil
}

func call(id, name, input string) fakeprovider.ToolCall {
	return fakeprovider.ToolCall{ID: id, Name: name, Input: json.RawMessage(input)}
}

func TestAgentHostClaude(t *testing.T) {
	for _, version := range clients.ClaudeVersions {
		t.Run(version, func(t *testing.T) {
			clients.Claude(t, version)
			t.Run("question", func(t *testing.T) { claudeQuestion(t, version) })
			t.Run("bash_approval", func(t *testing.T) { claudeBash(t, version) })
			t.Run("two_calls_one_turn", func(t *testing.T) { claudeTwoCalls(t, version) })
			t.Run("another_machine", func(t *testing.T) { claudeMoved(t, version) })
			t.Run("prompt_while_waiting", func(t *testing.T) { claudeLost(t, version) })
			t.Run("tool_missing", func(t *testing.T) { claudeToolMissing(t, version) })
			t.Run("subagent", func(t *testing.T) { claudeSubagent(t, version) })
		})
	}
}

// claudeQuestion: text output says nothing, yet the session and its
// deferred AskUserQuestion are found; the continue gives the model the
// answer in that same call, with no new prompt; a second continue is
// refused, so nothing runs twice.
func claudeQuestion(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_ask", "AskUserQuestion", dbInput)}},
		fakeprovider.Turn{Text: "Using SQLite."})
	started := time.Now()
	s, res := r.start("pick a database")
	firstCall := r.srv.Requests()[0].Time.Sub(started)
	if string(res.Stdout) != "\n" || s.Pending.ID != "toolu_ask" || s.Pending.Name != "AskUserQuestion" || s.Version != version {
		t.Errorf("stdout %q; pending %+v, version %q", res.Stdout, s.Pending, s.Version)
	}
	if n := len(r.srv.Requests()); n != 1 {
		t.Fatalf("the model was called %d times before the stop, want 1", n)
	}
	writeAnswer(t, r.standin, "toolu_ask", allowWith(dbAnswered))
	started = time.Now()
	o, err := r.resume(s, nil)
	if err != nil || o.State != Done || o.Err != nil || o.Session.Pending != nil {
		t.Fatalf("continue: %v, outcome %+v", err, o)
	}
	if reqs := r.srv.Requests(); len(reqs) > 1 {
		// Not a timed test: what the continue costs next to a start, for
		// the record.
		cont := reqs[1].Time.Sub(started)
		t.Logf("claude %s: start to the first model call %v; continue to the continued call %v (%.2fx)", version,
			firstCall.Round(time.Millisecond), cont.Round(time.Millisecond), float64(cont)/float64(firstCall))
	}
	got, ok := toolResult(t, r.srv, "toolu_ask")
	if !ok || got.IsError || !strings.Contains(got.Content, `"Which database should we use?"="SQLite"`) || got.Request != 1 {
		t.Errorf("the model got %+v (found %v); want Claude Code's answered text in request 2", got, ok)
	}
	if text := lastUserText(r.srv); strings.Contains(text, "pick a database") && !strings.HasSuffix(text, "Continue from where you left off.") {
		t.Errorf("the continue sent a prompt: %q", text)
	}
	if _, err := r.resume(s, nil); !errors.Is(err, ErrAlreadyRan) {
		t.Errorf("a second continue: %v, want ErrAlreadyRan", err)
	}
	if n := len(r.srv.Requests()); n != 2 {
		t.Errorf("the model was called %d times, want 2", n)
	}
}

// claudeBash: an approval deferred the same way runs only at resume.
func claudeBash(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_bash", "Bash",
			`{"command":"echo wrote > made-by-bash.txt && echo wrote made-by-bash.txt","description":"write a file"}`)}},
		fakeprovider.Turn{Text: "Written."})
	s, _ := r.start("-p", "make the file", "--output-format", "json")
	made := filepath.Join(r.dir, "made-by-bash.txt")
	if _, err := os.Stat(made); err == nil || s.Pending.Name != "Bash" {
		t.Fatalf("before the answer: pending %+v; the file exists: %v", s.Pending, err == nil)
	}
	writeAnswer(t, r.standin, "toolu_bash", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`)
	if o, err := r.resume(s, nil); err != nil || o.State != Done {
		t.Fatalf("continue: %v, %+v", err, o)
	}
	if _, err := os.Stat(made); err != nil {
		t.Errorf("the approved command did not run at resume: %v", err)
	}
	if got, _ := toolResult(t, r.srv, "toolu_bash"); strings.TrimSpace(got.Content) != "wrote made-by-bash.txt" {
		t.Errorf("the model got %+v", got)
	}
}

// claudeTwoCalls: two calls of one message that both need a person. From
// 2.1.330 the first waits and the second is denied (Busy), so the model
// gets both results at resume instead of losing one; 2.1.197 would lose a
// waiting call that another follows, so there the first is denied
// (Followed) and the last waits.
func claudeTwoCalls(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_ask", "AskUserQuestion", dbInput),
			call("toolu_bash", "Bash", `{"command":"echo hi > f.txt","description":"write"}`)}},
		fakeprovider.Turn{Text: "Done."})
	s, _ := r.start("do both", "--output-format", "stream-json", "--verbose")
	waits, denied, want := "toolu_ask", "toolu_bash", "already waiting for the person's answer"
	if version == clients.ClaudeOld {
		waits, denied, want = "toolu_bash", "toolu_ask", "last call of its message"
	}
	if s.Pending.ID != waits {
		t.Fatalf("pending %+v, want %s", s.Pending, waits)
	}
	writeAnswer(t, r.standin, "toolu_ask", allowWith(dbAnswered))
	writeAnswer(t, r.standin, "toolu_bash", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`)
	if o, err := r.resume(s, nil); err != nil || o.State != Done {
		t.Fatalf("continue: %v, %+v", err, o)
	}
	if got, ok := toolResult(t, r.srv, denied); !ok || !got.IsError || !strings.Contains(got.Content, want) {
		t.Errorf("the denied call: %+v (found %v); want an error saying %q", got, ok, want)
	}
	if _, ok := toolResult(t, r.srv, waits); !ok {
		t.Errorf("the waiting call %s got no result at resume", waits)
	}
}

// claudeMoved: the transcript exported on one machine and imported into
// another HOME continues there; the first HOME's copy still waits.
func claudeMoved(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_ask", "AskUserQuestion", dbInput)}},
		fakeprovider.Turn{Text: "Using SQLite."})
	s, _ := r.start("pick a database")
	tr, err := claudeHost{}.Export(context.Background(), s, r.env)
	if err != nil || len(tr.Files) == 0 {
		t.Fatalf("export: %v, %d files", err, len(tr.Files))
	}
	b, _ := json.Marshal(tr) // as the team store keeps it
	var stored Transcript
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	env2 := withEnv(r.env, "HOME", t.TempDir())
	if err := (claudeHost{}).Import(context.Background(), s, stored, env2); err != nil {
		t.Fatal(err)
	}
	writeAnswer(t, r.standin, "toolu_ask", allowWith(dbAnswered))
	if o, err := r.resume(s, env2); err != nil || o.State != Done {
		t.Fatalf("continue in the other HOME: %v, %+v", err, o)
	}
	if got, _ := toolResult(t, r.srv, "toolu_ask"); !strings.Contains(got.Content, `="SQLite"`) {
		t.Errorf("the model got %+v", got)
	}
	sc, err := scanClaude(s.Transcript)
	if err != nil || sc.state("toolu_ask") != statePending {
		t.Errorf("the first machine's transcript: %v, state %v; want it still waiting", err, sc.state("toolu_ask"))
	}
}

// claudeLost: a prompt sent while the call waited (claude -p PROMPT
// --resume, not askuser) drops the call; Continue then refuses.
func claudeLost(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_ask", "AskUserQuestion", dbInput)}},
		fakeprovider.Turn{Text: "Carrying on."})
	s, _ := r.start("pick a database")
	args, err := claudeWire(scan([]string{"-p", "what now?", "--resume", s.ID}, claudeOptions), r.dir, r.w)
	if err != nil {
		t.Fatal(err)
	}
	cmd := clients.ClaudeCommand(context.Background(), t, version, "", r.srv.URL, args...)
	cmd.Env, cmd.Dir = r.env, r.dir
	if res := runHost(t, "claude -p PROMPT --resume", cmd); res.ExitCode != 0 {
		t.Fatalf("the prompt while waiting: exit %d: %s", res.ExitCode, res.Stderr)
	}
	if _, err := r.resume(s, nil); !errors.Is(err, ErrCallLost) {
		t.Errorf("continue after the call was dropped: %v, want ErrCallLost", err)
	}
}

// claudeToolMissing: the waiting call's MCP server is gone at resume: the
// outcome names the server and the flag; back again, the call runs once.
func claudeToolMissing(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_dep", "mcp__deploy__deploy", `{}`)}},
		fakeprovider.Turn{Text: "Deployed."})
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"deploy": map[string]any{
		"command": r.w.Askuser, "args": []string{"mcp", standinFlag, r.standin, "deploy"}}}})
	s, _ := r.start("deploy it", "--output-format", "json", "--mcp-config", string(config))
	if s.Pending.Name != "mcp__deploy__deploy" {
		t.Fatalf("pending %+v", s.Pending)
	}
	writeAnswer(t, r.standin, "toolu_dep", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`)
	gone := filepath.Join(r.standin, "gone")
	if err := os.WriteFile(gone, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	o, err := r.resume(s, nil)
	if err != nil || o.State != Failed || !errors.Is(o.Err, ErrToolUnavailable) ||
		!strings.Contains(o.Err.Error(), `"deploy"`) || !strings.Contains(o.Err.Error(), "--mcp-config") {
		t.Fatalf("continue without the server: %v, %+v", err, o)
	}
	os.Remove(gone)
	if o, err := r.resume(s, nil); err != nil || o.State != Done {
		t.Fatalf("continue with the server back: %v, %+v", err, o)
	}
	calls := readLines[struct {
		Meta map[string]any `json:"_meta"`
	}](t, filepath.Join(r.standin, "calls.jsonl"))
	if len(calls) != 1 || calls[0].Meta["claudecode/toolUseId"] != "toolu_dep" {
		t.Errorf("the server got %d calls (%+v), want 1, naming the deferred call", len(calls), calls)
	}
}

// claudeSubagent: a subagent's call is never deferred (Claude Code would
// end the subagent and lose it): the hook denies it at its deadline with a
// message that hands the question back to the main agent.
func claudeSubagent(t *testing.T, version string) {
	r := newClaudeRig(t, version,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_agent", "Agent",
			`{"description":"make the file","prompt":"make the file","subagent_type":"general-purpose","run_in_background":false}`)}},
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{call("toolu_sub", "Bash", `{"command":"echo hi > sub.txt","description":"write"}`)}},
		fakeprovider.Turn{Text: "The person must be asked by the main agent."},
		fakeprovider.Turn{Text: "I will ask."})
	run := &Run{Kind: Claude, Bin: r.bin, Dir: r.dir, Args: []string{"make the file", "--output-format", "json"}, Env: r.env}
	cmd, err := claudeHost{}.Start(run, r.w)
	if err != nil {
		t.Fatal(err)
	}
	if res := runHost(t, "claude", cmd); res.ExitCode != 0 {
		t.Fatalf("exit %d: %s %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	s, err := claudeHost{}.Stopped(context.Background(), run, nil)
	if err != nil || s.Pending != nil {
		t.Errorf("Stopped: %+v, %v; want the session with no deferred call", s, err)
	}
	var verdict string
	for _, l := range readLines[hookLog](t, filepath.Join(r.standin, "hook.jsonl")) {
		if l.Call.ToolUseID == "toolu_sub" {
			verdict = l.Verdict
			if !l.Call.Subagent() || l.Call.AgentType != "general-purpose" {
				t.Errorf("the subagent's call: %+v", l.Call)
			}
		}
	}
	got, ok := toolResult(t, r.srv, "toolu_sub")
	if verdict != "subagent" || !ok || !got.IsError || !strings.Contains(got.Content, "A subagent cannot wait") {
		t.Errorf("verdict %q; the subagent got %+v (found %v)", verdict, got, ok)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "sub.txt")); err == nil {
		t.Error("the subagent's call ran")
	}
}
