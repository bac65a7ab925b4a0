package agentloop_test

// These tests drive the loop from outside the package, the way the binary
// does: the real Anthropic and OpenAI providers talk to
// internal/fakeprovider servers on loopback, and real frontends (or fakes
// that check themselves) answer. This file holds the shared helpers and the
// seed session: the model asks the authentication questions and finishes.

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// authInput is the seed question set: the authentication example.
const authInput = `{"questions":[` +
	`{"question":"Which authentication method should we use?","header":"Auth Method","options":[` +
	`{"label":"OAuth 2.0 (Recommended)","description":"Industry standard, supports social login"},` +
	`{"label":"JWT","description":"Stateless tokens, good for APIs"},` +
	`{"label":"Session-based","description":"Traditional cookie sessions"}],"multiSelect":false},` +
	`{"question":"Which OAuth providers should we support?","header":"Providers","options":[` +
	`{"label":"Google","description":"Most widely used"},` +
	`{"label":"GitHub","description":"Popular for developer tools"},` +
	`{"label":"Microsoft","description":"Enterprise integration"},` +
	`{"label":"Apple","description":"Required for iOS apps"}],"multiSelect":true}]}`

// dbInput is a second, smaller question set.
const dbInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[` +
	`{"label":"PostgreSQL (Recommended)","description":"Relational"},` +
	`{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

// runLimit bounds every blocking wait of these tests.
const runLimit = 30 * time.Second

// wire is one provider API: its fake server and the real provider for it.
type wire struct {
	name     string
	serve    func(turns ...fakeprovider.Turn) *fakeprovider.Server
	provider func(cfg agentloop.ProviderConfig) agentloop.Provider
}

var wires = []wire{
	{"anthropic", fakeprovider.NewAnthropic, func(c agentloop.ProviderConfig) agentloop.Provider { return agentloop.NewAnthropic(c) }},
	{"openai", fakeprovider.NewOpenAI, func(c agentloop.ProviderConfig) agentloop.Provider { return agentloop.NewOpenAI(c) }},
}

var anthropicWire = wires[0]

// start serves turns and returns the server with a provider pointed at it.
// retries is ProviderConfig.MaxRetries: -1 for none, so a fault costs no
// backoff unless a test asks for retries.
func (w wire) start(t *testing.T, retries int, turns ...fakeprovider.Turn) (*fakeprovider.Server, agentloop.Provider) {
	t.Helper()
	srv := w.serve(turns...)
	t.Cleanup(srv.Close)
	return srv, w.provider(agentloop.ProviderConfig{APIKey: "test-key", BaseURL: srv.URL, MaxRetries: retries})
}

// askCall is an AskUserQuestion tool call with the given id and input.
func askCall(id, input string) fakeprovider.ToolCall {
	return fakeprovider.ToolCall{ID: id, Name: ask.ToolName, Input: []byte(input)}
}

// userPrompt is a prompt message.
func userPrompt(text string) *agentloop.Message {
	return &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: text}}}
}

// testCtx is a context that ends with the test, and at runLimit at the latest.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), runLimit)
	t.Cleanup(cancel)
	return ctx
}

// startRun runs l in the background; the returned function waits for the
// outcome, failing the test if it does not come within runLimit.
func startRun(t *testing.T, ctx context.Context, l *agentloop.Loop, st *agentloop.State, prompt *agentloop.Message) func() agentloop.Outcome {
	done := make(chan agentloop.Outcome, 1)
	go func() { done <- l.Run(ctx, st, prompt) }()
	return func() agentloop.Outcome {
		t.Helper()
		select {
		case out := <-done:
			return out
		case <-time.After(runLimit):
			t.Fatalf("the run did not end within %s", runLimit)
			return agentloop.Outcome{}
		}
	}
}

// run runs l to its end, bounded by runLimit.
func run(t *testing.T, l *agentloop.Loop, st *agentloop.State, prompt *agentloop.Message) agentloop.Outcome {
	t.Helper()
	return startRun(t, testCtx(t), l, st, prompt)()
}

// wantResults checks the tool results the server saw, exactly.
func wantResults(t *testing.T, srv *fakeprovider.Server, want ...fakeprovider.ToolResultSeen) {
	t.Helper()
	got := srv.ToolResults()
	if len(got) != len(want) {
		t.Fatalf("the server saw %d tool results, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tool result %d:\n got %+v\nwant %+v\n got content:\n%s\nwant content:\n%s", i, got[i], want[i], got[i].Content, want[i].Content)
		}
	}
}

// The seed session's two turns: the model asks, then finishes.
var (
	seedUsage1 = fakeprovider.Usage{InputTokens: 120, OutputTokens: 45, CacheReadInputTokens: 30}
	seedUsage2 = fakeprovider.Usage{InputTokens: 310, OutputTokens: 25, CacheReadInputTokens: 150}
	seedFinal  = "Setting up authentication with your choices now."
)

func seedTurns() []fakeprovider.Turn {
	return []fakeprovider.Turn{
		{Text: "Before I add authentication, I need two decisions from you.", ToolCalls: []fakeprovider.ToolCall{askCall("toolu_auth", authInput)}, Usage: &seedUsage1},
		{Text: seedFinal, Usage: &seedUsage2},
	}
}

const machineTail = `Proceeding with these selections. Treat the answers marked "Answered by" as defaults the user has not confirmed.`

// answersFile is the repository's example answers file, from this
// package's directory (go test runs in it).
var answersFile = filepath.Join("..", "testdata", "answers.yaml")

func TestSeedSessionAnswersFile(t *testing.T) {
	file, err := frontend.LoadFile(answersFile)
	if err != nil {
		t.Fatal(err)
	}
	by := "   Answered by: an answers file (" + answersFile + "), set in advance, not chosen by a person at the time\n"
	want := "No person answered the following questions; they were answered as marked:\n\n" +
		"1. Auth Method (Which authentication method should we use?)\n   Selected: JWT\n" + by + "\n" +
		"2. Providers (Which OAuth providers should we support?)\n   Selected: Google, GitHub\n" + by + "\n" +
		machineTail
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			seedSession(t, w, file, nil, want)
		})
	}
}

func TestSeedSessionAuto(t *testing.T) {
	by := "   Answered by: the recommended-option policy, not a person\n"
	want := "No person answered the following questions; they were answered as marked:\n\n" +
		"1. Auth Method (Which authentication method should we use?)\n   Selected: OAuth 2.0\n" + by + "\n" +
		"2. Providers (Which OAuth providers should we support?)\n   Selected: Google\n" + by + "\n" +
		machineTail
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			seedSession(t, w, frontend.Auto{}, nil, want)
		})
	}
}

func TestSeedSessionStdio(t *testing.T) {
	cases := []struct {
		name, line, want string
	}{
		{
			name: "person",
			line: `{"id":"toolu_auth","source":"person","answers":{"Auth Method":"OAuth 2.0","Providers":"Google, GitHub"}}`,
			want: "User answered the following questions:\n\n" +
				"1. Auth Method (Which authentication method should we use?)\n   Selected: OAuth 2.0\n\n" +
				"2. Providers (Which OAuth providers should we support?)\n   Selected: Google, GitHub\n\n" +
				"Proceeding with user selections.",
		},
		{
			name: "program",
			line: `{"answers":[{"header":"Auth Method","selectedOptions":["Session-based"]},{"header":"Providers","selectedOptions":["Apple"],"customInput":"also Okta"}]}`,
			want: "No person answered the following questions; they were answered as marked:\n\n" +
				"1. Auth Method (Which authentication method should we use?)\n   Selected: Session-based\n" +
				"   Answered by: a program over JSON lines (test-pipe), not confirmed to be a person\n\n" +
				"2. Providers (Which OAuth providers should we support?)\n   Selected: Apple\n   Other: also Okta\n" +
				"   Answered by: a program over JSON lines (test-pipe), not confirmed to be a person\n\n" +
				machineTail,
		},
	}
	for _, w := range wires {
		for _, c := range cases {
			t.Run(w.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				p := startPipeProgram(t)
				program := func() {
					q := p.next(t)
					if q.Type != "question" || q.ID != "toolu_auth" || len(q.Questions) != 2 || q.Questions[0].Header != "Auth Method" {
						t.Errorf("the program read %+v, want the auth question set toolu_auth", q)
					}
					p.send(t, c.line)
				}
				seedSession(t, w, p.fe, program, c.want)
			})
		}
	}
}

// seedSession runs the seed session against w with fe answering; program,
// if set, runs alongside (the other end of a pipe). It checks the exact
// tool result the server received and the outcome.
func seedSession(t *testing.T, w wire, fe ask.Frontend, program func(), want string) {
	srv, prov := w.start(t, -1, seedTurns()...)
	l := &agentloop.Loop{Provider: prov, Frontend: fe}
	wait := startRun(t, testCtx(t), l, agentloop.NewState(), userPrompt("Add authentication to my app"))
	if program != nil {
		program()
	}
	out := wait()
	wantResults(t, srv, fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_auth", Content: want})
	if out.Status != agentloop.StatusSuccess || out.Err != nil {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	if out.Turns != 2 || len(srv.Requests()) != 2 || srv.Remaining() != 0 {
		t.Errorf("turns %d, requests %d, turns left %d; want 2, 2, 0", out.Turns, len(srv.Requests()), srv.Remaining())
	}
	if out.Result != seedFinal {
		t.Errorf("result %q, want %q", out.Result, seedFinal)
	}
	wantUsage := agentloop.Usage{
		InputTokens:          seedUsage1.InputTokens + seedUsage2.InputTokens,
		OutputTokens:         seedUsage1.OutputTokens + seedUsage2.OutputTokens,
		CacheReadInputTokens: seedUsage1.CacheReadInputTokens + seedUsage2.CacheReadInputTokens,
	}
	if out.Usage != wantUsage {
		t.Errorf("usage %+v, want %+v", out.Usage, wantUsage)
	}
	if len(out.Pending) != 0 {
		t.Errorf("pending %+v after a finished run", out.Pending)
	}
}
