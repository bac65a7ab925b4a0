package agenthost

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// The tests with the hosts that have no defer (Codex CLI, Gemini CLI,
// OpenCode): the stand-in MCP server answers the model's AskUserQuestion
// "not answered yet", the run ends, Stopped finds the session and the
// call whatever the output format, and Continue gives the model the
// continuation prompt as a new user message; then the transcript is
// exported, imported into another HOME and continued there. They skip
// when a client is not installed and fail under CI=true.

// peerCase is one host's run of the late answer.
type peerCase struct {
	host Host
	srv  *fakeprovider.Server
	// harness returns the host's program, arguments and environment for
	// home, as internal/clients prepares them.
	harness func(home string) (bin string, args, env []string)
	// moveEnv returns the environment of another machine's HOME.
	moveEnv func(env []string, home string) []string
	// checkCall, when set, checks the params of the MCP call against s.
	checkCall func(t *testing.T, params json.RawMessage, s Session)
}

// peerTurns: the model asks, reads "not answered yet" and ends its turn;
// then it answers each continue.
func peerTurns(askCall fakeprovider.ToolCall) []fakeprovider.Turn {
	return []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{askCall}}, {Text: "I asked; waiting for the answer."},
		{Text: "Using SQLite."}, {Text: "Still SQLite."}}
}

func lateAnswer(t *testing.T, c peerCase) {
	standin := t.TempDir()
	w := standinWiring(t, standin)
	home, dir := t.TempDir(), t.TempDir()
	bin, args, env := c.harness(home)
	run := &Run{Kind: c.host.Kind(), Bin: bin, Dir: dir, Args: args, Env: env}
	cmd, err := c.host.Start(run, w)
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	res := runHost(t, string(c.host.Kind()), cmd)
	firstCall := c.srv.Requests()[0].Time.Sub(started)
	if res.ExitCode != 0 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", res.ExitCode, res.Stdout, res.Stderr)
	}
	calls := readLines[json.RawMessage](t, filepath.Join(standin, "calls.jsonl"))
	if len(calls) != 1 {
		t.Fatalf("the stand-in got %d calls, want 1\nstdout: %s\nstderr: %s", len(calls), res.Stdout, res.Stderr)
	}
	s, err := c.host.Stopped(context.Background(), run, nil) // as if the output were not kept
	if err != nil {
		t.Fatalf("Stopped: %v", err)
	}
	in, err := questionsOf(s.Pending)
	if err != nil || s.ID == "" || in.Questions[0].Question != "Which database should we use?" {
		t.Fatalf("Stopped = %+v (%v); want the session and its askuser call", s, err)
	}
	if c.checkCall != nil {
		c.checkCall(t, calls[0], s)
	}
	stored, _ := json.Marshal(s) // as askuser's session keeps it
	s = Session{}
	if err := json.Unmarshal(stored, &s); err != nil {
		t.Fatal(err)
	}
	want := Prompt(in, personSQLite)
	cont := func(env []string) {
		t.Helper()
		cmd, err := c.host.Continue(context.Background(), s, Continuation{Answers: personSQLite, Env: env}, w)
		if err != nil {
			t.Fatal(err)
		}
		n := len(c.srv.Requests())
		started := time.Now()
		res := runHost(t, "continue", cmd)
		if reqs := c.srv.Requests(); len(reqs) > n {
			// Not a timed test: what the continue costs next to a start of
			// the same host, for the record.
			t.Logf("%s: start to the first model call %v; continue to the continued call %v (%.2fx)", c.host.Kind(),
				firstCall.Round(time.Millisecond), reqs[n].Time.Sub(started).Round(time.Millisecond), float64(reqs[n].Time.Sub(started))/float64(firstCall))
		}
		if o := c.host.Outcome(s, env, res); o.State != Done {
			dumpTree(t, envValue(cmd.Env, "HOME"), envValue(cmd.Env, "GEMINI_CLI_HOME"))
			t.Fatalf("outcome %+v\nstdout: %s\nstderr: %s\nargs: %q\nenv GEMINI_CLI_HOME=%s HOME=%s", o, res.Stdout, res.Stderr, cmd.Args, envValue(cmd.Env, "GEMINI_CLI_HOME"), envValue(cmd.Env, "HOME"))
		}
		if got := lastUserText(c.srv); got != want {
			t.Errorf("the model's last user message:\n%q\nwant the continuation prompt:\n%q", got, want)
		}
		if c.srv.Remaining() != 4-len(c.srv.Requests()) {
			t.Errorf("%d model calls, %d turns left", len(c.srv.Requests()), c.srv.Remaining())
		}
	}
	cont(env)

	tr, err := c.host.Export(context.Background(), s, env)
	if err != nil || len(tr.Files) == 0 {
		t.Fatalf("export: %v (%d files)", err, len(tr.Files))
	}
	env2 := c.moveEnv(env, t.TempDir())
	if err := c.host.Import(context.Background(), s, tr, env2); err != nil {
		t.Fatalf("import: %v", err)
	}
	cont(env2)
	if n := len(c.srv.Requests()); n != 4 {
		t.Errorf("the model was called %d times, want 4", n)
	}
}

func TestAgentHostCodex(t *testing.T) {
	for _, version := range clients.CodexVersions {
		t.Run(version, func(t *testing.T) {
			clients.CodexAt(t, version)
			srv := fakeprovider.NewResponses(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Namespace: "mcp__askuser",
				Name: "AskUserQuestion", Input: json.RawMessage(dbInput)})...)
			t.Cleanup(srv.Close)
			lateAnswer(t, peerCase{host: codexHost{}, srv: srv,
				harness: func(home string) (string, []string, []string) {
					cmd := clients.CodexCommandAt(context.Background(), t, version, home, srv.URL, "exec", "--skip-git-repo-check", "pick a database")
					return cmd.Path, cmd.Args[1:], cmd.Env
				},
				moveEnv: func(env []string, home string) []string {
					if err := os.MkdirAll(filepath.Join(home, ".codex"), 0o700); err != nil {
						t.Fatal(err)
					}
					return withEnv(withEnv(env, "HOME", home), "CODEX_HOME", filepath.Join(home, ".codex"))
				},
				// Codex tells an MCP server which thread calls it.
				checkCall: func(t *testing.T, params json.RawMessage, s Session) {
					var p struct {
						Meta struct {
							ThreadID string `json:"threadId"`
							CallID   string `json:"callId"`
						} `json:"_meta"`
					}
					if json.Unmarshal(params, &p) != nil || p.Meta.ThreadID != s.ID || p.Meta.CallID != s.Pending.ID {
						t.Errorf("the MCP call's _meta %s does not name thread %s and call %s", params, s.ID, s.Pending.ID)
					}
				}})
		})
	}
}

func TestPromptMarksWhoAnswered(t *testing.T) {
	in, _ := ask.Parse([]byte(dbInput))
	if got, want := Prompt(in, personSQLite), "You previously asked: Which database should we use?\n"+
		"The user answered: SQLite (via @alice on Slack).\nContinue."; got != want {
		t.Errorf("a person's answer:\n%s\nwant\n%s", got, want)
	}
	file := []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourceFile, Via: "ci/answers.yaml"}}
	got := Prompt(in, file)
	for _, want := range []string{"You previously asked:\n1. Database: Which database should we use?", "No person answered",
		"Answered by: an answers file (ci/answers.yaml)", "\n\nContinue."} {
		if !contains(got, want) {
			t.Errorf("a file's answer: the prompt lacks %q:\n%s", want, got)
		}
	}
	if contains(got, "The user answered") {
		t.Errorf("a file's answer is passed off as the user's:\n%s", got)
	}
}

func TestAgentHostGemini(t *testing.T) {
	clients.Gemini(t)
	srv := fakeprovider.NewGemini(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Name: "mcp_askuser_AskUserQuestion", Input: json.RawMessage(dbInput)})...)
	t.Cleanup(srv.Close)
	lateAnswer(t, peerCase{host: geminiHost{}, srv: srv,
		harness: func(home string) (string, []string, []string) {
			cmd := clients.GeminiCommand(context.Background(), t, home, srv.URL, "--skip-trust", "-m", "gemini-fake", "-p", "pick a database")
			return cmd.Path, cmd.Args[1:], cmd.Env
		},
		// Another machine has Gemini CLI set up its own way (here: the
		// same settings).
		moveEnv: func(env []string, home string) []string {
			settings, err := os.ReadFile(filepath.Join(envValue(env, "HOME"), ".gemini", "settings.json"))
			if err == nil {
				err = os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
			}
			if err == nil {
				err = os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), settings, 0o600)
			}
			if err != nil {
				t.Fatal(err)
			}
			return withEnv(env, "HOME", home)
		}})
}

func TestAgentHostOpenCode(t *testing.T) {
	clients.OpenCode(t)
	srv := fakeprovider.NewOpenAI(peerTurns(fakeprovider.ToolCall{ID: "call_ask", Name: "askuser_AskUserQuestion", Input: json.RawMessage(dbInput)})...)
	t.Cleanup(srv.Close)
	lateAnswer(t, peerCase{host: openCodeHost{}, srv: srv,
		harness: func(home string) (string, []string, []string) {
			cmd := clients.OpenCodeCommand(context.Background(), t, home, srv.URL, "run", "pick a database")
			return cmd.Path, cmd.Args[1:], cmd.Env
		},
		// Another machine has OpenCode set up its own way (here: the same).
		moveEnv: func(env []string, home string) []string {
			return clients.OpenCodeCommand(context.Background(), t, home, srv.URL).Env
		}})
}

// dumpTree logs the files under roots (links with their targets, small
// files with their text), to see a failed continue's state.
func dumpTree(t *testing.T, roots ...string) {
	t.Helper()
	for _, root := range roots {
		if root == "" {
			continue
		}
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			switch info, _ := os.Lstat(p); {
			case info == nil:
			case info.Mode()&os.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				t.Logf("%s -> %s", p, target)
			case !d.IsDir() && info.Size() < 300:
				b, _ := os.ReadFile(p)
				t.Logf("%s: %q", p, b)
			case !d.IsDir():
				t.Logf("%s (%d bytes)", p, info.Size())
			}
			return nil
		})
	}
}
