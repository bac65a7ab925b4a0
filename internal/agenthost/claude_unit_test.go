package agenthost

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func TestClaudeProjectName(t *testing.T) {
	long := "/home/alice/" + strings.Repeat("projects/very-long-folder-name/", 8) + "app"
	for path, want := range map[string]string{
		"/tmp/i32/c1/proj": "-tmp-i32-c1-proj",
		// Node computed these with Claude Code 2.1.332's own function.
		"/tmp/a.b/ç😀x": "-tmp-a-b----x",
		long: "-home-alice-projects-very-long-folder-name-projects-very-long-folder-name-projects-very-long-folder-name-" +
			"projects-very-long-folder-name-projects-very-long-folder-name-projects-very-long-folder-name-pr-y9kukx",
	} {
		if got := claudeProjectName(path); got != want {
			t.Errorf("claudeProjectName(%q) =\n%q\nwant\n%q", path, got, want)
		}
	}
}

// A transcript in Claude Code's shape, cut to the lines the room reads.
const (
	lineAsk      = `{"type":"assistant","version":"2.1.332","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_ask","name":"AskUserQuestion","input":{}}]}}`
	lineBash     = `{"type":"assistant","version":"2.1.332","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_bash","name":"Bash","input":{}}]}}`
	lineMarker   = `{"type":"attachment","attachment":{"type":"hook_deferred_tool","toolUseID":"toolu_ask","toolName":"AskUserQuestion","toolInput":{"questions":[]},"hookEvent":"PreToolUse"}}`
	lineDenied   = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_bash","content":"denied","is_error":true}]}}`
	lineAnswered = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_ask","content":"Your questions have been answered"}]}}`
	linePrompt   = `{"type":"user","message":{"content":"what now?"}}`
	lineMissing  = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_ask","content":"[Tool result missing due to internal error]","is_error":true},{"type":"text","text":"what now?"}]}}`
	lineQueue    = `{"type":"queue-operation","operation":"enqueue","content":"x"}`
)

func writeTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestClaudeCallState(t *testing.T) {
	for name, c := range map[string]struct {
		lines   []string
		want    callState
		pending bool
	}{
		"deferred":                         {[]string{lineAsk, lineMarker, lineQueue}, statePending, true},
		"deferred, its neighbour denied":   {[]string{lineAsk, lineBash, lineMarker, lineDenied}, statePending, true},
		"answered at resume":               {[]string{lineAsk, lineMarker, lineAnswered}, stateRan, false},
		"deferred again at resume":         {[]string{lineAsk, lineMarker, lineQueue, lineMarker}, statePending, true},
		"a prompt while it waited":         {[]string{lineAsk, lineMarker, linePrompt}, stateLost, false},
		"Claude Code's missing result":     {[]string{lineAsk, lineMarker, lineMissing}, stateLost, false},
		"never deferred":                   {[]string{lineAsk, lineAnswered}, stateRan, false},
		"no marker, no result":             {[]string{lineAsk}, stateUnknown, false},
		"a line Claude Code could not end": {[]string{lineAsk, lineMarker, `{"type":"user","mess`}, statePending, true},
	} {
		sc, err := scanClaude(writeTranscript(t, c.lines...))
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.state("toolu_ask"); got != c.want || (sc.pending() != nil) != c.pending {
			t.Errorf("%s: state %v pending %v; want %v %v", name, got, sc.pending(), c.want, c.pending)
		}
	}
}

// hookInput is a PreToolUse event as Claude Code 2.1.332 sends it; a
// subagent's call adds agent_id and agent_type (2.1.197 too).
func hookInput(id, transcript string, subagent bool) []byte {
	in := map[string]any{"session_id": "5e9d1c2a-0000-4000-8000-000000000001", "transcript_path": transcript, "cwd": "/p",
		"prompt_id": "p1", "permission_mode": "default", "effort": map[string]any{"level": "medium"}, "hook_event_name": "PreToolUse",
		"tool_name": "AskUserQuestion", "tool_input": map[string]any{"questions": []any{}}, "tool_use_id": id}
	if subagent {
		in["agent_id"], in["agent_type"] = "ac0f9a7747f779d82", "general-purpose"
	}
	b, _ := json.Marshal(in)
	return b
}

func TestParseHookCall(t *testing.T) {
	c, err := ParseHookCall(hookInput("toolu_1", "/t.jsonl", true))
	if err != nil || !c.Subagent() || c.ToolUseID != "toolu_1" || c.SessionID == "" || c.PromptID != "p1" {
		t.Errorf("subagent's call: %+v, %v", c, err)
	}
	if c, _ := ParseHookCall(hookInput("toolu_1", "", false)); c.Subagent() {
		t.Error("the main agent's call is taken for a subagent's")
	}
	for _, bad := range []string{`[]`, `{"hook_event_name":"PreToolUse"}`, `{"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_use_id":"t"}`} {
		if _, err := ParseHookCall([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestLedgerOneDeferredCallPerSession: of two calls claimed at once, one
// is deferred and the other told to wait its turn; the deferred one is
// deferred again at resume, released once decided, and a record whose
// call ran no longer blocks.
func TestLedgerOneDeferredCallPerSession(t *testing.T) {
	l := Ledger{Dir: t.TempDir()}
	transcript := writeTranscript(t, lineAsk, lineBash)
	a, _ := ParseHookCall(hookInput("toolu_ask", transcript, false))
	b, _ := ParseHookCall(hookInput("toolu_bash", transcript, false))
	var wg sync.WaitGroup
	verdicts := make([]Verdict, 2)
	for i, c := range []HookCall{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, _, err := l.Claim(c)
			if err != nil {
				t.Error(err)
			}
			verdicts[i] = v
		}()
	}
	wg.Wait()
	if !reflect.DeepEqual(verdicts, []Verdict{Defer, Busy}) && !reflect.DeepEqual(verdicts, []Verdict{Busy, Defer}) {
		t.Fatalf("verdicts %v; want one Defer and one Busy", verdicts)
	}
	first := a
	if verdicts[1] == Defer {
		first = b
	}
	if v, d, _ := l.Claim(first); v != DeferAgain || d.ToolUseID != first.ToolUseID {
		t.Errorf("the deferred call asked again: %v %+v", v, d)
	}
	if v, _, _ := l.Peek(HookCall{SessionID: a.SessionID, ToolUseID: "toolu_other", ToolName: "Bash"}); v != Busy {
		t.Errorf("Peek while a call waits: %v, want Busy", v)
	}
	if err := l.Release(first); err != nil {
		t.Fatal(err)
	}
	if d, _ := l.Pending(a.SessionID); d != nil {
		t.Errorf("released, yet pending: %+v", d)
	}
	// A record whose call has its result in the transcript is stale.
	ran := writeTranscript(t, lineAsk, lineMarker, lineAnswered)
	old, _ := ParseHookCall(hookInput("toolu_ask", ran, false))
	if v, _, _ := l.Claim(old); v != Defer {
		t.Fatal(v)
	}
	next, _ := ParseHookCall(hookInput("toolu_next", ran, false))
	if v, _, _ := l.Claim(next); v != Defer {
		t.Errorf("a new call after the recorded one ran: %v, want Defer", v)
	}
	if v, _, _ := l.Claim(HookCall{SessionID: "../x", ToolUseID: "t"}); v != Busy {
		t.Errorf("a session id that is a path: %v", v)
	}
}

func TestLedgerSubagentAndFollowed(t *testing.T) {
	l := Ledger{Dir: t.TempDir()}
	sub, _ := ParseHookCall(hookInput("toolu_sub", "", true))
	if v, _, _ := l.Claim(sub); v != SubagentCall {
		t.Errorf("a subagent's call: %v", v)
	}
	old := strings.NewReplacer(`"2.1.332"`, `"2.1.197"`)
	transcript := writeTranscript(t, old.Replace(lineAsk), old.Replace(lineBash))
	first, _ := ParseHookCall(hookInput("toolu_ask", transcript, false))
	if v, _, _ := l.Claim(first); v != Followed {
		t.Errorf("2.1.197, a call followed by another: %v, want Followed", v)
	}
	last, _ := ParseHookCall(hookInput("toolu_bash", transcript, false))
	if v, _, _ := l.Claim(last); v != Defer {
		t.Errorf("2.1.197, the last call: %v, want Defer", v)
	}
	newer := writeTranscript(t, lineAsk, lineBash)
	first.TranscriptPath, first.SessionID = newer, "5e9d1c2a-0000-4000-8000-000000000002"
	if v, _, _ := l.Claim(first); v != Defer {
		t.Errorf("2.1.332, a call followed by another: %v, want Defer", v)
	}
}

func TestClaudeArgs(t *testing.T) {
	for flag, args := range map[string][]string{"--fork-session": {"-p", "x", "--fork-session"},
		"--no-session-persistence": {"--no-session-persistence", "-p", "x"}, "--bg": {"--bg", "x"}} {
		if err := (claudeHost{}).Check(args); err == nil || !strings.Contains(err.Error(), flag) {
			t.Errorf("%q: %v; want an error naming %s", args, err, flag)
		}
	}
	// The prompt is wherever commander leaves it: after a greedy option it
	// is one of that option's values, as claude itself reads it.
	tokens := scan([]string{"-p", "--model", "opus", "fix it", "--allowedTools", "Bash", "Edit", "-d", "--", "-x"}, claudeOptions)
	var prompts []string
	for _, tk := range tokens {
		if tk.positional() {
			prompts = append(prompts, tk.raw[0])
		}
	}
	if !reflect.DeepEqual(prompts, []string{"fix it", "-x"}) {
		t.Errorf("positionals %q", prompts)
	}
	if got := flatten(drop(tokens, true, claudeResumeDropped...)); !reflect.DeepEqual(got, []string{"--model", "opus", "--allowedTools", "Bash", "Edit", "-d"}) {
		t.Errorf("kept for the continue: %q", got)
	}
}

// TestClaudeWiringKeepsThePersonsSettings: askuser's hook is added to the
// person's --settings, whose file is not touched.
func TestClaudeWiringKeepsThePersonsSettings(t *testing.T) {
	dir := t.TempDir()
	own := `{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"mine"}]}]}}`
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	w := Wiring{Askuser: "/opt/ask user/askuser", Args: []string{"--state-dir", "it's here"}}
	run := &Run{Kind: Claude, Dir: dir, Args: []string{"fix it", "--settings", "s.json"}}
	cmd, err := claudeHost{}.Start(run, w)
	if err != nil {
		t.Fatal(err)
	}
	args := cmd.Args[1:]
	if args[0] != "-p" || !uuidRE().MatchString(run.SessionID) || !containsRun(args, "--session-id", run.SessionID) || !containsRun(args, "--permission-prompt-tool", "stdio") {
		t.Errorf("args %q", args)
	}
	var settings struct {
		Model string `json:"model"`
		Hooks struct {
			PreToolUse []struct {
				Matcher string `json:"matcher"`
				Hooks   []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"PreToolUse"`
		} `json:"hooks"`
	}
	i := indexOf(args, "--settings")
	if err := json.Unmarshal([]byte(args[i+1]), &settings); err != nil || settings.Model != "opus" || len(settings.Hooks.PreToolUse) != 2 {
		t.Fatalf("settings %s: %v", args[i+1], err)
	}
	if got := settings.Hooks.PreToolUse[1].Hooks[0].Command; got != `'/opt/ask user/askuser' hook --state-dir 'it'\''s here'` {
		t.Errorf("hook command %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "s.json")); string(b) != own {
		t.Errorf("the person's settings file changed: %s", b)
	}
}

func containsRun(args []string, a, b string) bool {
	i := indexOf(args, a)
	return i >= 0 && i+1 < len(args) && args[i+1] == b
}

func indexOf(args []string, a string) int {
	for i, x := range args {
		if x == a {
			return i
		}
	}
	return -1
}

// TestClaudeContinueRefuses: a prompt or a fork among the extra flags is
// refused before anything runs, and so is a call no longer waiting.
func TestClaudeContinueRefuses(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home}
	s := Session{Host: Claude, ID: "5e9d1c2a-0000-4000-8000-000000000003", Dir: dir, Args: []string{"fix it"}, Pending: &Call{ID: "toolu_ask", Name: "AskUserQuestion"}}
	if err := (claudeHost{}).Import(context.Background(), s, Transcript{Host: Claude, ID: s.ID, Files: []File{{Path: s.ID + ".jsonl", Data: []byte(lineAsk + "\n" + lineMarker + "\n")}}}, env); err != nil {
		t.Fatal(err)
	}
	w := Wiring{Askuser: "askuser"}
	for _, extra := range [][]string{{"and also this"}, {"--fork-session"}, {"--resume", "x"}} {
		if _, err := (claudeHost{}).Continue(context.Background(), s, Continuation{Env: env, Extra: extra}, w); err == nil {
			t.Errorf("extra %q: no error", extra)
		}
	}
	cmd, err := claudeHost{}.Continue(context.Background(), s, Continuation{Env: env, Extra: []string{"--model", "opus"}}, w)
	if err != nil || !reflect.DeepEqual(cmd.Args[1:4], []string{"-p", "--resume", s.ID}) || cmd.Dir != dir || cmd.Stdin != nil {
		t.Fatalf("continue: %v %q", err, cmd.Args)
	}
	for _, a := range cmd.Args {
		if a == "fix it" {
			t.Errorf("the first prompt is sent again: %q", cmd.Args)
		}
	}
	path, _ := claudeTranscript(env, dir, s.ID)
	if err := os.WriteFile(path, []byte(lineAsk+"\n"+lineMarker+"\n"+lineAnswered+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (claudeHost{}).Continue(context.Background(), s, Continuation{Env: env}, w); !errors.Is(err, ErrAlreadyRan) {
		t.Errorf("after the call ran: %v, want ErrAlreadyRan", err)
	}
}

// TestClaudeOutcome reads what a continue came to from the transcript and
// the exit, as Claude Code 2.1.332 printed it.
func TestClaudeOutcome(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home}
	s := Session{Host: Claude, ID: "5e9d1c2a-0000-4000-8000-000000000004", Dir: dir, Pending: &Call{ID: "toolu_ask", Name: "AskUserQuestion"}}
	put := func(lines ...string) {
		t.Helper()
		config, _ := claudeConfigDir(env)
		p := filepath.Join(config, "projects", claudeProjectName(dir), s.ID+".jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	unavailable := `{"type":"result","is_error":true,"stop_reason":"tool_deferred_unavailable","terminal_reason":"tool_deferred_unavailable",` +
		`"session_id":"` + s.ID + `","result":"AskUserQuestion isn't available, so its deferred call didn't run."}`
	nextMarker := strings.ReplaceAll(lineMarker, "toolu_ask", "toolu_next")
	for name, c := range map[string]struct {
		lines   []string
		res     Result
		state   State
		err     error
		pending string
	}{
		"answered":                {[]string{lineAsk, lineMarker, lineAnswered}, Result{}, Done, nil, ""},
		"deferred again":          {[]string{lineAsk, lineMarker, lineQueue, lineMarker}, Result{}, Waiting, nil, "toolu_ask"},
		"answered, then new wait": {[]string{lineAsk, lineMarker, lineAnswered, nextMarker}, Result{}, Waiting, nil, "toolu_next"},
		"tool missing":            {[]string{lineAsk, lineMarker}, Result{ExitCode: 1, Stdout: []byte(unavailable)}, Failed, ErrToolUnavailable, "toolu_ask"},
		"another continue ran it": {[]string{lineAsk, lineMarker, lineAnswered}, Result{ExitCode: 1, Stderr: []byte("Error: No deferred tool marker found in the resumed session.")}, Failed, ErrAlreadyRan, ""},
		"lost":                    {[]string{lineAsk, lineMarker, linePrompt}, Result{}, Failed, ErrCallLost, ""},
	} {
		put(c.lines...)
		o := claudeHost{}.Outcome(s, env, c.res)
		pending := ""
		if o.Session.Pending != nil {
			pending = o.Session.Pending.ID
		}
		if o.State != c.state || (c.err != nil) != (o.Err != nil) || (c.err != nil && !errors.Is(o.Err, c.err)) || pending != c.pending {
			t.Errorf("%s: %+v (pending %q); want %s %v %q", name, o, pending, c.state, c.err, c.pending)
		}
		if c.err == ErrToolUnavailable && !strings.Contains(o.Err.Error(), "--permission-prompt-tool") {
			t.Errorf("%s: %v does not say what to reconnect", name, o.Err)
		}
	}
}

func TestClaudePermissions(t *testing.T) {
	allow, deny, bypass := ClaudePermissions([]string{"-p", "--allowedTools", "Bash(git status:*)", "Read", "--disallowedTools=Bash(rm:*)", "task"})
	if len(allow) != 2 || allow[0] != "Bash(git status:*)" || len(deny) != 1 || deny[0] != "Bash(rm:*)" || bypass {
		t.Errorf("allow %q deny %q bypass %v", allow, deny, bypass)
	}
	if _, _, bypass := ClaudePermissions([]string{"--permission-mode", "bypassPermissions", "-p", "x"}); !bypass {
		t.Error("--permission-mode bypassPermissions is not a bypass")
	}
}
