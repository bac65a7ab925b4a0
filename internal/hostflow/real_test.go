package hostflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
	"github.com/askuser/askuser/internal/hostrun"
	"github.com/askuser/askuser/internal/session"
)

// The tests with the real hosts run this test binary as the agent's
// askuser hook and askuser mcp: TestMain hands over to the run as askuser
// would (the command line wires the same; the end-to-end tests of the
// binary run it whole). They skip when a client is not installed and fail
// under CI=true.

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "hook" || os.Args[1] == "mcp") {
		os.Exit(child(os.Args[1]))
	}
	os.Exit(m.Run())
}

// child is askuser hook or mcp, handing over.
func child(kind string) int {
	path, err := hostrun.SocketFrom(os.Getenv(hostrun.EnvSocket))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if kind == "mcp" {
		if err := MCPChild(context.Background(), path, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	input, _ := io.ReadAll(os.Stdin)
	r := HookChild(context.Background(), path, input)
	os.Stdout.Write(r.Stdout)
	os.Stderr.WriteString(r.Stderr)
	return r.Exit
}

func (r *hostRig) serveOf() hostrun.Serve {
	if r.serve != nil {
		return r.serve
	}
	return testServe(r.st)
}

// testServe is the wiring the command line puts together.
func testServe(st *session.Store) hostrun.Serve {
	return Serve(Config{Store: st, Version: "test", Log: io.Discard})
}

const dbInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

// hostRig is one project of a host: the fake model, the store, the agent.
type hostRig struct {
	t     *testing.T
	srv   *fakeprovider.Server
	st    *session.Store
	agent hostrun.Agent
	serve hostrun.Serve
}

func (r *hostRig) start(args ...string) (*session.Session, hostrun.Outcome) {
	r.t.Helper()
	sess, err := r.st.Create(session.Meta{Host: string(r.agent.Kind), Cwd: r.agent.Dir, Machine: "here"})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out := hostrun.Start(ctx, r.st, sess, r.agent, args, deferred, r.serveOf())
	sess.Close()
	return sess, out
}

func (r *hostRig) cont(id session.ID, answers []ask.Answer) hostrun.Outcome {
	r.t.Helper()
	sess, err := r.st.Open(string(id))
	if err != nil {
		r.t.Fatal(err)
	}
	defer sess.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	given := func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		if answers == nil {
			return deferred(ctx, req)
		}
		return answers, nil
	}
	return hostrun.Continue(ctx, r.st, sess, r.agent, nil, given, r.serveOf())
}

func newHostRig(t *testing.T, kind agenthost.Kind, srv *fakeprovider.Server, bin string, env []string) *hostRig {
	t.Cleanup(srv.Close)
	var out strings.Builder
	return &hostRig{t: t, srv: srv, st: &session.Store{Dir: t.TempDir()},
		agent: hostrun.Agent{Kind: kind, Bin: bin, Dir: t.TempDir(), Env: env, Askuser: os.Args[0], Timeout: time.Minute,
			Matcher: "AskUserQuestion|Bash", Stdout: &out, Stderr: &out}}
}

// Claude Code: nobody answers in time, the hook defers the call, the run
// stops with the session waiting; the continue gives the model the answer
// in that very call, with no new prompt.
func TestHostRunClaude(t *testing.T) {
	version := clients.ClaudeLatest
	clients.Claude(t, version)
	srv := fakeprovider.NewAnthropic(
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_ask", Name: "AskUserQuestion", Input: json.RawMessage(dbInput)}}},
		fakeprovider.Turn{Text: "Using SQLite."})
	cmd := clients.ClaudeCommand(context.Background(), t, version, t.TempDir(), srv.URL)
	r := newHostRig(t, agenthost.Claude, srv, cmd.Path, cmd.Env)
	sess, out := r.start("-p", "pick a database")
	if out.Err != nil || !out.Waiting || len(out.Headers) != 1 {
		t.Fatalf("start: %+v\n%s", out, r.agent.Stdout)
	}
	if sum := sess.Summary(); sum.Status != session.StatusWaiting || sum.HostState != session.HostWaiting || sum.HostID == "" {
		t.Fatalf("summary %+v", sum)
	}
	person := []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson}}
	out = r.cont(sess.Meta.ID, person)
	if out.Err != nil || out.Waiting || out.Final != "Using SQLite." {
		t.Fatalf("continue: %+v\n%s", out, r.agent.Stdout)
	}
	var got string
	for _, tr := range srv.ToolResults() {
		if tr.ToolUseID == "toolu_ask" {
			got = tr.Content
		}
	}
	if !strings.Contains(got, `"Which database should we use?"="SQLite"`) {
		t.Errorf("the model read %q for its call", got)
	}
	again := r.cont(sess.Meta.ID, person)
	if again.Err == nil {
		t.Errorf("a second continue: %+v; want nothing to continue", again)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("the model was called %d times, want 2", n)
	}
}

// peerRun: a host without defer: the model reads "not answered yet" and
// ends its turn; the continue gives it the continuation prompt, marked
// with who answered.
func peerRun(t *testing.T, r *hostRig, args ...string) {
	sess, out := r.start(args...)
	if out.Err != nil || !out.Waiting {
		t.Fatalf("start: %+v\n%s", out, r.agent.Stdout)
	}
	results := r.srv.ToolResults()
	if len(results) != 1 || !strings.Contains(results[0].Content, "NOT ANSWERED YET") {
		t.Fatalf("the model read %+v", results)
	}
	person := []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"},
		Source: ask.SourcePerson, Via: "@alice on testchan"}}
	out = r.cont(sess.Meta.ID, person)
	if out.Err != nil || out.Waiting {
		t.Fatalf("continue: %+v\n%s", out, r.agent.Stdout)
	}
	reqs := r.srv.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(last, `You previously asked: Which database should we use?\nThe user answered: SQLite (via @alice on testchan).\nContinue.`) {
		t.Errorf("the continued request lacks the continuation prompt:\n%s", last)
	}
	if again := r.cont(sess.Meta.ID, person); again.Err == nil {
		t.Errorf("a second continue: %+v; want nothing to continue", again)
	}
}

// peerTurns: the model asks, reads "not answered yet" and ends its turn,
// then answers the continue.
func peerTurns(askCall fakeprovider.ToolCall) []fakeprovider.Turn {
	return []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{askCall}}, {Text: "Waiting for the answer."}, {Text: "Using SQLite."}}
}

func TestHostRunCodex(t *testing.T) {
	clients.Codex(t)
	srv := fakeprovider.NewResponses(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Namespace: "mcp__askuser", Name: "AskUserQuestion", Input: json.RawMessage(dbInput)})...)
	cmd := clients.CodexCommand(context.Background(), t, t.TempDir(), srv.URL, "exec", "--skip-git-repo-check", "pick a database")
	r := newHostRig(t, agenthost.Codex, srv, cmd.Path, cmd.Env)
	peerRun(t, r, cmd.Args[1:]...)
}

func TestHostRunGemini(t *testing.T) {
	clients.Gemini(t)
	srv := fakeprovider.NewGemini(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Name: "mcp_askuser_AskUserQuestion", Input: json.RawMessage(dbInput)})...)
	cmd := clients.GeminiCommand(context.Background(), t, t.TempDir(), srv.URL, "--skip-trust", "-m", "gemini-fake", "-p", "pick a database")
	r := newHostRig(t, agenthost.Gemini, srv, cmd.Path, cmd.Env)
	peerRun(t, r, cmd.Args[1:]...)
}

func TestHostRunOpenCode(t *testing.T) {
	clients.OpenCode(t)
	srv := fakeprovider.NewOpenAI(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Name: "askuser_AskUserQuestion", Input: json.RawMessage(dbInput)})...)
	cmd := clients.OpenCodeCommand(context.Background(), t, t.TempDir(), srv.URL, "run", "pick a database")
	r := newHostRig(t, agenthost.OpenCode, srv, cmd.Path, cmd.Env)
	peerRun(t, r, cmd.Args[1:]...)
}

func deferred(context.Context, ask.Request) ([]ask.Answer, error) {
	return nil, fmt.Errorf("%w: nobody answered within 1s (--ask-timeout)", ask.ErrDeferred)
}

// Claude Code's Bash call waits for its approval like a question: the
// command runs only at resume, once, with the person's approval; an
// answers file's deny rule given at resume still stops it.
func TestHostRunClaudeBash(t *testing.T) {
	version := clients.ClaudeLatest
	clients.Claude(t, version)
	for _, c := range []struct {
		name  string
		rules *approval.Policy
		ran   bool
	}{{"approved", nil, true}, {"denied_by_a_rule_at_resume", &approval.Policy{Deny: mustRules(t, "Bash(echo:*)")}, false}} {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeprovider.NewAnthropic(
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_bash", Name: "Bash",
					Input: json.RawMessage(`{"command":"echo made > made-by-bash.txt && echo wrote it","description":"d"}`)}}},
				fakeprovider.Turn{Text: "Done."})
			cmd := clients.ClaudeCommand(context.Background(), t, version, t.TempDir(), srv.URL)
			r := newHostRig(t, agenthost.Claude, srv, cmd.Path, cmd.Env)
			sess, out := r.start("-p", "make a file")
			if out.Err != nil || !out.Waiting {
				t.Fatalf("start: %+v\n%s", out, r.agent.Stdout)
			}
			if _, err := os.Stat(filepath.Join(r.agent.Dir, "made-by-bash.txt")); err == nil {
				t.Fatal("the command ran before anyone approved it")
			}
			approve := []ask.Answer{{Question: "x", Header: "Approve", Selected: []string{approval.LabelAllow}, Source: ask.SourcePerson}}
			r.serve = Serve(Config{Store: r.st, Version: "test", Log: io.Discard, Rules: c.rules})
			out = r.cont(sess.Meta.ID, approve)
			if out.Err != nil || out.Waiting {
				t.Fatalf("continue: %+v\n%s", out, r.agent.Stdout)
			}
			_, err := os.Stat(filepath.Join(r.agent.Dir, "made-by-bash.txt"))
			if ran := err == nil; ran != c.ran {
				t.Errorf("the command ran: %v, want %v", ran, c.ran)
			}
			var got fakeprovider.ToolResultSeen
			for _, tr := range srv.ToolResults() {
				if tr.ToolUseID == "toolu_bash" {
					got = tr
				}
			}
			if c.ran && (got.IsError || !strings.Contains(got.Content, "wrote it")) || !c.ran && !strings.Contains(got.Content, "Bash(echo:*)") {
				t.Errorf("the model read %+v", got)
			}
		})
	}
}

func mustRules(t *testing.T, list string) []approval.Rule {
	rs, err := approval.ParseRules(list, "test")
	if err != nil {
		t.Fatal(err)
	}
	return rs
}
