package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The agents people run, run by askuser (askuser run --agent): when nobody
// answers in time the agent stops, the session waits (exit 6), and a late
// answer continues it. Each host runs against its loopback fake model;
// the hosts' own tests (internal/hostflow) pin the host room, these the
// binary whole: flags, stderr, exit codes, sessions, resume.

// lateHost is one host's project: its fake model, HOME, folder and the
// environment askuser runs it in.
type lateHost struct {
	kind   string
	home   string
	srv    *fakeprovider.Server
	dir    string
	state  string
	env    []string
	args   []string // the agent's own, after --
	callID string   // the model's question call
}

// lateDBInput is the model's question.
const lateDBInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

// lateTurns: the model asks, reads "not answered yet" and ends its turn,
// then answers the continue (hosts without defer).
func lateTurns(call fakeprovider.ToolCall) []fakeprovider.Turn {
	return []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{call}}, {Text: "Waiting for the answer."}, {Text: "Using SQLite."}}
}

// newLateHost builds kind's project with the model scripted by turns (nil:
// the host's question, then "Using SQLite.").
func newLateHost(t testing.TB, kind string, turns []fakeprovider.Turn) *lateHost {
	t.Helper()
	home := t.TempDir()
	h := &lateHost{kind: kind, home: home, dir: t.TempDir(), state: filepath.Join(t.TempDir(), "state"), callID: "call_ask"}
	var cmd *exec.Cmd
	ctx := context.Background()
	switch kind {
	case "claude":
		h.callID = "toolu_ask"
		if turns == nil {
			turns = []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{toolCall(h.callID, "AskUserQuestion", lateDBInput)}}, {Text: "Using SQLite."}}
		}
		h.srv = fakeprovider.NewAnthropic(turns...)
		cmd = clients.ClaudeCommand(ctx, t, clients.ClaudeLatest, home, h.srv.URL, "-p", "pick a database")
	case "codex":
		if turns == nil {
			turns = lateTurns(fakeprovider.ToolCall{ID: h.callID, Namespace: "mcp__askuser", Name: "AskUserQuestion", Input: json.RawMessage(lateDBInput)})
		}
		h.srv = fakeprovider.NewResponses(turns...)
		cmd = clients.CodexCommand(ctx, t, home, h.srv.URL, "exec", "--skip-git-repo-check", "pick a database")
	case "gemini":
		if turns == nil {
			turns = lateTurns(fakeprovider.ToolCall{ID: h.callID, Name: "mcp_askuser_AskUserQuestion", Input: json.RawMessage(lateDBInput)})
		}
		h.srv = fakeprovider.NewGemini(turns...)
		cmd = clients.GeminiCommand(ctx, t, home, h.srv.URL, "--skip-trust", "-m", "gemini-fake", "-p", "pick a database")
	case "opencode":
		if turns == nil {
			turns = lateTurns(fakeprovider.ToolCall{ID: h.callID, Name: "askuser_AskUserQuestion", Input: json.RawMessage(lateDBInput)})
		}
		h.srv = fakeprovider.NewOpenAI(turns...)
		cmd = clients.OpenCodeCommand(ctx, t, home, h.srv.URL, "run", "pick a database")
	default:
		t.Fatalf("no host %s", kind)
	}
	t.Cleanup(h.srv.Close)
	h.args = cmd.Args[1:]
	// The host's own program first on PATH, as a person's would be.
	h.env = append(cmd.Env, "PATH="+filepath.Dir(cmd.Path)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ASKUSER_STATE_DIR="+h.state, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "NO_COLOR=1",
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD=")
	if kind == "opencode" {
		h.env = append(h.env, "PWD="+h.dir)
	}
	return h
}

// askuser runs askuser in the project with extra environment, to its end
// (within two minutes), in its own session (no controlling terminal).
func (h *lateHost) askuser(t testing.TB, extraEnv []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, askuserBin(), args...)
	cmd.Dir, cmd.Env = h.dir, append(append([]string(nil), h.env...), extraEnv...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	t.Logf("askuser %s (%s) took %v", args[0], h.kind, time.Since(start).Round(time.Millisecond))
	if ctx.Err() != nil {
		t.Fatalf("askuser %v did not end: %v\nstderr: %s", args, err, &errOut)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

var resumeHint = regexp.MustCompile(`askuser resume ([0-9A-Za-z_-]+)`)

// stop runs the agent until it stops to wait on its question, nobody
// answering within a second, and returns the session's id.
func (h *lateHost) stop(t testing.TB, frontend string) string {
	t.Helper()
	args := []string{"run", "--agent", h.kind, "--frontend", frontend, "--ask-timeout", "1s", "--on-timeout", "suspend", "--"}
	if frontend == "" {
		// No flags, no terminal: nobody can answer now, so the question waits.
		args = []string{"run", "--agent", h.kind, "--"}
	}
	args = append(args, h.args...)
	code, stdout, stderr := h.askuser(t, nil, args...)
	m := resumeHint.FindStringSubmatch(stderr)
	if code != 6 || m == nil {
		t.Fatalf("run --agent %s: exit %d, want 6 and how to continue on stderr\nstdout: %s\nstderr: %s", h.kind, code, stdout, stderr)
	}
	if h.kind != "claude" {
		// The model was told the question waits, not given an answer.
		if r := peerResult(t, h.srv, h.callID, stdout); !strings.Contains(r.Content, "NOT ANSWERED YET") {
			t.Errorf("the model read %q", r.Content)
		}
	}
	return m[1]
}

// answered checks the model got the person's (or the file's) answer: in
// its very call for Claude Code, in the continuation prompt otherwise,
// which holds by (who answered, as the prompt words it).
func (h *lateHost) answered(t testing.TB, by, output string) {
	t.Helper()
	if h.kind == "claude" {
		r := peerResult(t, h.srv, h.callID, output)
		if !strings.Contains(r.Content, `"Which database should we use?"="SQLite"`) {
			t.Errorf("the model read %q for its call", r.Content)
		}
		return
	}
	reqs := h.srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{"You previously asked", by, `Continue.`} {
		if !strings.Contains(last, want) {
			t.Errorf("the continued request lacks %q; it ends:\n%s\n%s", want, last[max(0, len(last)-800):], output)
		}
	}
}

// Every host: stopped when nobody answers (exit 6, a waiting session that
// askuser sessions lists naming the host), continued by resume --answers
// (the answer marked as the file's), and a second resume runs nothing.
func TestLateAnswerResumeAnswers(t *testing.T) {
	for _, kind := range []string{"claude", "codex", "gemini", "opencode"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			frontend := "inbox"
			if kind == "codex" || kind == "claude" {
				frontend = "" // the default
			}
			id := h.stop(t, frontend)
			code, stdout, stderr := h.askuser(t, nil, "sessions")
			if code != 0 || !strings.Contains(stdout, id[:8]) || !strings.Contains(stdout, "agent: "+kind+" session ") {
				t.Errorf("askuser sessions (exit %d) does not list %s naming %s:\n%s%s", code, id, kind, stdout, stderr)
			}
			writeFile(t, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
			code, stdout, stderr = h.askuser(t, nil, "resume", id, "--answers", "answers.yaml")
			if code != 0 {
				t.Fatalf("resume: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
			}
			h.answered(t, "Answered by: an answers file (answers.yaml)", stdout+stderr)
			if !strings.Contains(stdout, "Using SQLite.") {
				t.Errorf("the agent's output did not pass through: %q", stdout)
			}
			before := len(h.srv.Requests())
			if code, _, stderr = h.askuser(t, nil, "resume", id, "--answers", "answers.yaml"); code == 0 {
				t.Errorf("a second resume: exit 0, want a refusal: %s", stderr)
			}
			if n := len(h.srv.Requests()); n != before {
				t.Errorf("a second resume called the model %d more times", n-before)
			}
		})
	}
}

// Claude Code without the wrapper: the person's own settings run askuser
// hook --ask-timeout 1s --on-timeout suspend; nobody answers, claude -p
// ends with the call deferred, and askuser resume ID continues that very
// call in its folder, with the extra claude flags given after --.
func TestLateAnswerHookStandalone(t *testing.T) {
	t.Parallel()
	h := newLateHost(t, "claude", nil)
	home := envValue(h.env, "HOME")
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"AskUserQuestion","hooks":[`+
		`{"type":"command","command":"askuser hook --frontend inbox --ask-timeout 1s --on-timeout suspend"}]}]}}`)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	claude := exec.CommandContext(ctx, clients.Claude(t, clients.ClaudeLatest), "-p", "pick a database", "--output-format", "json", "--permission-prompt-tool", "stdio")
	claude.Dir = h.dir
	claude.Env = append(append([]string(nil), h.env...), "PATH="+binDir+string(os.PathListSeparator)+envValue(h.env, "PATH"))
	out, err := claude.Output()
	if err != nil || !strings.Contains(string(out), `"terminal_reason":"tool_deferred"`) {
		t.Fatalf("claude -p: %v; want the call deferred:\n%s", err, out)
	}
	code, stdout, stderr := h.askuser(t, nil, "sessions", "--json")
	m := regexp.MustCompile(`"id":"([^"]+)"`).FindStringSubmatch(stdout)
	if code != 0 || m == nil || !strings.Contains(stdout, `"host":"claude"`) {
		t.Fatalf("askuser sessions --json (exit %d) lists no session of claude's:\n%s%s", code, stdout, stderr)
	}
	writeFile(t, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
	code, stdout, stderr = h.askuser(t, nil, "resume", m[1], "--answers", "answers.yaml", "--", "--output-format", "json")
	if code != 0 || !strings.Contains(stdout, `"result":"Using SQLite."`) {
		t.Fatalf("resume: exit %d; want claude's json output (the flag after --)\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	h.answered(t, "", stdout)
}

// envValue is the last value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// Codex with askuser mcp in its own config.toml, --on-timeout suspend:
// nobody answers, the model reads NOT ANSWERED YET and ends its turn; the
// call named its thread, so askuser sessions lists a session of codex's,
// and askuser resume ID continues that thread with the continuation
// prompt (the extra codex flag after --).
func TestLateAnswerMCPStandaloneCodex(t *testing.T) {
	t.Parallel()
	h := newLateHost(t, "codex", nil)
	codexHome := envValue(h.env, "CODEX_HOME")
	writeFile(t, filepath.Join(codexHome, "config.toml"), `model = "`+clients.CodexModel+`"
model_provider = "fake"
[model_providers.fake]
name = "fake"
base_url = "`+h.srv.URL+`"
env_key = "FAKEPROVIDER_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
[features]
plugins = false
[analytics]
enabled = false
[mcp_servers.askuser]
command = "`+askuserBin()+`"
args = ["mcp", "--frontend", "inbox", "--ask-timeout", "1s", "--on-timeout", "suspend"]
tool_timeout_sec = 60
env = { ASKUSER_STATE_DIR = "`+h.state+`" }
`)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	codex := exec.CommandContext(ctx, clients.Codex(t), "exec", "--skip-git-repo-check", "pick a database")
	codex.Dir, codex.Env = h.dir, h.env
	if out, err := codex.CombinedOutput(); err != nil {
		t.Fatalf("codex exec: %v\n%s", err, out)
	}
	if r := peerResult(t, h.srv, h.callID, ""); !strings.Contains(r.Content, "NOT ANSWERED YET") {
		t.Fatalf("the model read %q", r.Content)
	}
	id := h.onlySession(t)
	code, stdout, stderr := h.askuser(t, nil, "sessions")
	if code != 0 || !strings.Contains(stdout, "codex") {
		t.Errorf("askuser sessions does not name codex:\n%s%s", stdout, stderr)
	}
	writeFile(t, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
	code, stdout, stderr = h.askuser(t, nil, "resume", id, "--answers", "answers.yaml", "--", "--skip-git-repo-check")
	if code != 0 {
		t.Fatalf("resume: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	h.answered(t, "Answered by: an answers file (answers.yaml)", stdout+stderr)
}

// An answer at hand: run --agent with --answers answers in the call, the
// agent finishes (exit 0), its output passes through, and nothing waits.
func TestLateAnswerNotNeeded(t *testing.T) {
	t.Parallel()
	turns := []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{{ID: "call_ask", Namespace: "mcp__askuser", Name: "AskUserQuestion",
		Input: json.RawMessage(lateDBInput)}}}, {Text: "Using SQLite."}}
	h := newLateHost(t, "codex", turns)
	writeFile(t, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
	args := append([]string{"run", "--agent", "codex", "--answers", "answers.yaml", "--"}, h.args...)
	code, stdout, stderr := h.askuser(t, nil, args...)
	if code != 0 || !strings.Contains(stdout, "Using SQLite.") {
		t.Fatalf("run --agent codex --answers: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if r := peerResult(t, h.srv, h.callID, stdout); !strings.Contains(r.Content, "Answered by: an answers file (answers.yaml)") {
		t.Errorf("the model read %q", r.Content)
	}
	if code, stdout, _ = h.askuser(t, nil, "sessions", "--waiting"); code != 0 || strings.Contains(stdout, "waiting") {
		t.Errorf("something waits:\n%s", stdout)
	}
}
