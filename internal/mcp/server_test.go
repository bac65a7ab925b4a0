package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/approval"
)

const dbInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false}]}`

// syncBuffer is a log the server writes from its handlers' goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// connect runs a server with cfg in process and returns a Go SDK client
// session to it.
func connect(t *testing.T, cfg ServeConfig, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	s := NewServer(cfg)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test-client", Version: "1"}, opts).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// frontendAsker asks fe, ignoring the host's form.
func frontendAsker(fe ask.Frontend) Asker {
	return func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		return fe.Ask(ctx, req)
	}
}

func callTool(t *testing.T, cs *sdk.ClientSession, tool, args string, meta sdk.Meta) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(args), Meta: meta})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return res
}

// text returns the result's one text block, failing on any other shape:
// Claude Code drops the text when structuredContent is present and says
// "completed with no output" for an empty one.
func text(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if res.StructuredContent != nil {
		t.Errorf("result has structuredContent %v; Claude Code would drop the text", res.StructuredContent)
	}
	if len(res.Content) != 1 {
		t.Fatalf("result has %d content blocks, want 1 text block", len(res.Content))
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok || tc.Text == "" {
		t.Fatalf("result block %#v is not non-empty text", res.Content[0])
	}
	return tc.Text
}

func TestToolsAsTheHostSeesThem(t *testing.T) {
	cs := connect(t, ServeConfig{Ask: frontendAsker(asktest.New(t))}, nil)
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	q, a := byName[ask.ToolName], byName["approve"]
	if q == nil || a == nil || len(res.Tools) != 2 {
		t.Fatalf("tools %v, want AskUserQuestion and approve", res.Tools)
	}
	var want, got any
	_ = json.Unmarshal(ask.InputSchema, &want)
	b, _ := json.Marshal(q.InputSchema)
	_ = json.Unmarshal(b, &got)
	if !reflect.DeepEqual(want, got) {
		t.Errorf("input schema %s, want askuser schema's own, field for field", b)
	}
	if q.Meta["anthropic/alwaysLoad"] != true {
		t.Errorf("_meta %v lacks anthropic/alwaysLoad: Claude Code 2.1.330 would defer the tool", q.Meta)
	}
	for _, tool := range res.Tools {
		if _, ok := tool.Meta["anthropic/requiresUserInteraction"]; ok {
			t.Errorf("%s has requiresUserInteraction: unusable in claude -p", tool.Name)
		}
	}
	// Asking changes nothing, so AskUserQuestion says it is read-only:
	// Codex 0.169's exec (approval policy "never") runs only such MCP tools
	// unless its config approves them. approve decides whether other tools
	// may run, so it must not say so.
	if q.Annotations == nil || !q.Annotations.ReadOnlyHint {
		t.Errorf("AskUserQuestion's annotations %+v lack readOnlyHint: codex exec would refuse the call", q.Annotations)
	}
	if a.Annotations != nil && a.Annotations.ReadOnlyHint {
		t.Errorf("approve claims readOnlyHint: it lets other tools run")
	}
	if !strings.Contains(q.Description, "Ask the user") {
		t.Errorf("description %q: tool search would not match asking the user", q.Description)
	}
}

func TestAskAnsweredWithStandardText(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite")
	fe.Expect("Database").Choose("PostgreSQL").From(ask.SourceFile)
	cs := connect(t, ServeConfig{Ask: frontendAsker(fe)}, nil)
	got := text(t, callTool(t, cs, ask.ToolName, dbInput, sdk.Meta{"claudecode/toolUseId": "toolu_1"}))
	want := "User answered the following questions:\n\n1. Database (Which database should we use?)\n   Selected: SQLite\n\nProceeding with user selections."
	if got != want {
		t.Errorf("result\n%s\nwant\n%s", got, want)
	}
	if id := fe.Asked()[0].ID; id != "toolu_1" {
		t.Errorf("set asked as %q, want Claude Code's tool_use id", id)
	}
	res := callTool(t, cs, ask.ToolName, dbInput, nil)
	if got := text(t, res); res.IsError || !strings.Contains(got, "Answered by: an answers file") || !strings.HasPrefix(got, "No person answered") {
		t.Errorf("file answer result %q: must say no person answered", got)
	}
}

// TestAskIgnoresHostFields: Gemini CLI 0.61 passes wait_for_previous,
// which it adds to every tool, in the call's arguments. The question is
// asked, and --verbose says what was ignored; a misspelt field is still
// refused with the error the model reads.
func TestAskIgnoresHostFields(t *testing.T) {
	withHostField := strings.Replace(dbInput, `{"questions"`, `{"wait_for_previous":true,"questions"`, 1)
	for _, verbose := range []bool{true, false} {
		fe := asktest.New(t)
		fe.Expect("Database").Choose("SQLite")
		log := &syncBuffer{}
		cs := connect(t, ServeConfig{Ask: frontendAsker(fe), Log: log, Verbose: verbose}, nil)
		res := callTool(t, cs, ask.ToolName, withHostField, sdk.Meta{"claudecode/toolUseId": "toolu_1"})
		if got := text(t, res); res.IsError || !strings.Contains(got, "Selected: SQLite") {
			t.Errorf("verbose %v: isError %v, text %q; want the question asked", verbose, res.IsError, got)
		}
		note := "askuser mcp: question set toolu_1: ignored wait_for_previous (Gemini CLI adds it to every tool)\n"
		if got := log.String(); (got == note) != verbose {
			t.Errorf("verbose %v: log %q; want %q only under --verbose", verbose, got, note)
		}
	}
	cs := connect(t, ServeConfig{Ask: frontendAsker(asktest.New(t)), Verbose: true}, nil)
	res := callTool(t, cs, ask.ToolName, strings.Replace(dbInput, `"questions"`, `"wait_for_previous":true,"questons"`, 1), nil)
	want := "Invalid AskUserQuestion input; nothing was asked. Fix these and call AskUserQuestion again:\n" +
		"- questions: is required: give 1 to 4 questions, e.g. " +
		`{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"..."},{"label":"SQLite","description":"..."}],"multiSelect":false}]}` + "\n" +
		"- questons: is not a field of AskUserQuestion input; remove it (fields: questions)"
	if got := text(t, res); !res.IsError || got != want {
		t.Errorf("misspelt field: isError %v, text\n%s\nwant\n%s", res.IsError, got, want)
	}
}

func TestAskInvalidInputListsEveryProblem(t *testing.T) {
	cs := connect(t, ServeConfig{Ask: frontendAsker(asktest.New(t))}, nil)
	res := callTool(t, cs, ask.ToolName, `{"questions":[{"question":"Q?","header":"A header far too long","options":[{"label":"one"}],"multiSelect":"no"}]}`, nil)
	got := text(t, res)
	for _, want := range []string{"header", "options", "multiSelect", "call AskUserQuestion again"} {
		if !res.IsError || !strings.Contains(got, want) {
			t.Errorf("isError %v, text %q: want an error naming %q", res.IsError, got, want)
		}
	}
}

func TestAskNobodyCanAnswer(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Fail(fmt.Errorf("%w: no terminal to ask on and no answers file", ask.ErrNoAnswer))
	log := &syncBuffer{}
	cs := connect(t, ServeConfig{Ask: frontendAsker(fe), Log: log}, nil)
	res := callTool(t, cs, ask.ToolName, dbInput, nil)
	got := text(t, res)
	if !res.IsError || !strings.Contains(got, "not answered") || !strings.Contains(got, "Which database should we use?") || !strings.Contains(got, "no terminal") {
		t.Errorf("isError %v, text %q: want a plain no-answer naming the question and why", res.IsError, got)
	}
	if strings.Contains(got, "Selected") {
		t.Errorf("text %q reads like an answer", got)
	}
	if !strings.Contains(log.String(), "unanswered") {
		t.Errorf("log %q does not record the set as unanswered", log)
	}
}

// blockingAsker waits for its context and reports what ended it. It
// closes asked, unless nil, once the question is on the person's screen,
// so a test acts on a question known to wait, not on one a sleep hoped
// had arrived.
func blockingAsker(asked chan<- struct{}, ended chan<- error) Asker {
	return func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		if asked != nil {
			close(asked)
		}
		<-ctx.Done()
		err := ask.CtxErr(ctx)
		ended <- err
		return nil, err
	}
}

// waitAsked waits for a blockingAsker to be asked.
func waitAsked(t *testing.T, asked <-chan struct{}) {
	t.Helper()
	select {
	case <-asked:
	case <-time.After(5 * time.Second):
		t.Fatal("the call never reached the asker")
	}
}

func TestCancelledCallWithdrawsTheQuestion(t *testing.T) {
	asked, ended := make(chan struct{}), make(chan error, 1)
	log := &syncBuffer{}
	cs := connect(t, ServeConfig{Ask: blockingAsker(asked, ended), Log: log}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: ask.ToolName, Arguments: json.RawMessage(dbInput)})
		errc <- err
	}()
	waitAsked(t, asked)
	cancel() // the SDK client sends notifications/cancelled
	select {
	case err := <-ended:
		if !errors.Is(err, ask.ErrCancelled) {
			t.Errorf("the question ended with %v, want a cancellation", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not withdrawn after notifications/cancelled")
	}
	<-errc
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "withdrew") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "unanswered: the host withdrew the call") {
		t.Errorf("log %q does not record the withdrawn set as unanswered", log)
	}
}

func TestUnwatchedCallIsBounded(t *testing.T) {
	ended := make(chan error, 1)
	cs := connect(t, ServeConfig{Ask: blockingAsker(nil, ended), Unwatched: 50 * time.Millisecond}, nil)
	res := callTool(t, cs, ask.ToolName, dbInput, nil)
	if got := text(t, res); !res.IsError || !strings.Contains(got, "no progress token") {
		t.Errorf("text %q: want a no-answer saying why the wait was bounded", got)
	}
	if err := <-ended; !errors.Is(err, ask.ErrTimeout) {
		t.Errorf("the question ended with %v, want a timeout", err)
	}
}

// TestProgressWhileWaiting: a call that waits on a person reports
// progress while it waits. The person answers once the host has heard
// twice that the question waits, at one report per 30 ms, so the call
// outlasts the 50 ms bound for unwatched calls however the machine
// schedules it: that bound must not cut a watched call.
func TestProgressWhileWaiting(t *testing.T) {
	var mu sync.Mutex
	var seen []*sdk.ProgressNotificationParams
	twice := make(chan struct{})
	opts := &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		if seen = append(seen, r.Params); len(seen) == 2 {
			close(twice)
		}
	}}
	person := func(ctx context.Context, req ask.Request, _ ask.Frontend) ([]ask.Answer, error) {
		select {
		case <-twice:
		case <-ctx.Done():
			return nil, ask.CtxErr(ctx)
		case <-time.After(10 * time.Second):
		}
		a, _ := ask.Selection(req.Questions[0], []string{"SQLite"}, "", ask.SourcePerson)
		return []ask.Answer{a}, nil
	}
	cs := connect(t, ServeConfig{Ask: person, ProgressEvery: 30 * time.Millisecond, Unwatched: 50 * time.Millisecond}, opts)
	res := callTool(t, cs, ask.ToolName, dbInput, sdk.Meta{"progressToken": "tok-7"})
	if got := text(t, res); res.IsError || !strings.Contains(got, "Selected: SQLite") {
		t.Fatalf("result %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("%d progress notifications in 10 s at one per 30ms, want several", len(seen))
	}
	for i, p := range seen {
		if p.ProgressToken != "tok-7" || !strings.Contains(p.Message, "Database") || (i > 0 && p.Progress <= seen[i-1].Progress) {
			t.Errorf("progress %d: %+v; want the call's token, rising progress and the question's header", i, p)
		}
	}
}

func TestUnknownToolIsAnError(t *testing.T) {
	cs := connect(t, ServeConfig{Ask: frontendAsker(asktest.New(t))}, nil)
	if _, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "nope", Arguments: map[string]any{}}); err == nil {
		t.Error("calling an unknown tool succeeded")
	}
}

func approveArgs(tool, input string) string {
	return fmt.Sprintf(`{"tool_name":%q,"input":%s,"tool_use_id":"toolu_9"}`, tool, input)
}

func decision(t *testing.T, res *sdk.CallToolResult) approveDecision {
	t.Helper()
	var d approveDecision
	if err := json.Unmarshal([]byte(text(t, res)), &d); err != nil || res.IsError {
		t.Fatalf("approve answered %q (isError %v), want one decision JSON", text(t, res), res.IsError)
	}
	if (d.Behavior == "allow") == (d.Message != "") || (d.Behavior != "allow" && d.Behavior != "deny") {
		t.Errorf("decision %+v: allow carries updatedInput, deny a message", d)
	}
	return d
}

func TestApproveBuiltInAskUserQuestion(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("PostgreSQL").From(ask.SourceFile)
	fe.Expect("Database").Skip()
	cs := connect(t, ServeConfig{Ask: frontendAsker(fe)}, nil)
	d := decision(t, callTool(t, cs, "approve", approveArgs("AskUserQuestion", dbInput), nil))
	var upd struct {
		Questions   json.RawMessage              `json:"questions"`
		Answers     map[string]string            `json:"answers"`
		Annotations map[string]map[string]string `json:"annotations"`
	}
	if err := json.Unmarshal(d.UpdatedInput, &upd); err != nil || d.Behavior != "allow" {
		t.Fatalf("decision %+v: %v", d, err)
	}
	if upd.Answers["Which database should we use?"] != "PostgreSQL (Recommended)" {
		t.Errorf("answers %v, want the exact label", upd.Answers)
	}
	if !strings.Contains(upd.Annotations["Which database should we use?"]["notes"], "answers file") {
		t.Errorf("annotations %v: a file's answer must say so", upd.Annotations)
	}
	if len(upd.Questions) == 0 {
		t.Error("updatedInput lost questions; Claude Code's validation would fail")
	}
	if d := decision(t, callTool(t, cs, "approve", approveArgs("AskUserQuestion", dbInput), nil)); d.Behavior != "deny" || !strings.Contains(d.Message, "skipped") {
		t.Errorf("an all-skipped set gave %+v; never an empty answers map", d)
	}
	if id := fe.Asked()[0].ID; id != "toolu_9" {
		t.Errorf("set asked as %q, want the tool_use_id", id)
	}
}

func TestApproveOtherTools(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Approve").Choose("Allow").From(ask.SourcePolicy)
	fe.Expect("Approve").Other("write it under /tmp instead")
	fe.Expect("Approve").Choose("Deny")
	rules, _ := approval.ParseRules("Bash(git status:*) Write(src/**)", "ci.yaml line 2")
	var log syncBuffer
	cs := connect(t, ServeConfig{Ask: frontendAsker(fe), Approvals: &approval.Policy{Allow: rules}, Name: "qa", Log: &log, Dir: "/home/me/proj"}, nil)
	write := `{"command":"touch x","description":"write"}`
	for _, tc := range []struct {
		tool, input, behavior, want string
	}{
		{"mcp__qa__AskUserQuestion", dbInput, "allow", ""}, // asking is the approval: nothing asked
		{"Bash", `{"command":"git status"}`, "allow", ""},
		{"Write", `{"file_path":"src/a.go","content":""}`, "allow", ""}, // read against the session's folder
		{"Bash", write, "deny", "Bash was not run: no person approved it (the recommended-option policy never allows a tool); do not retry it, and continue without it or ask the user."},
		{"Bash", write, "deny", "Bash was not run, and the user said instead: write it under /tmp instead"},
		{"Write", `{"file_path":"src/../../etc/passwd","content":""}`, "deny", "Write was not run: the user denied it; do not retry it, and continue without it or ask the user what to do instead."},
	} {
		d := decision(t, callTool(t, cs, "approve", approveArgs(tc.tool, tc.input), nil))
		if d.Behavior != tc.behavior || d.Message != tc.want {
			t.Errorf("%s %s: %+v, want %s %q", tc.tool, tc.input, d, tc.behavior, tc.want)
		}
		if d.Behavior == "allow" && !jsonEqual(d.UpdatedInput, tc.input) {
			t.Errorf("%s: updatedInput %s, want the input unchanged", tc.tool, d.UpdatedInput)
		}
	}
	// The host's log says who allowed, once, with one prefix.
	if want := "askuser mcp: Bash was allowed by rule Bash(git status:*) (ci.yaml line 2), not by a person at the time.\n"; !strings.Contains(log.String(), want) || strings.Contains(log.String(), "askuser mcp: askuser") {
		t.Errorf("log %q, want the line %q", log.String(), want)
	}
	d := decision(t, callTool(t, cs, "approve", `{"input":{}}`, nil))
	if want := "The call was not run: askuser received a malformed permission request (tool_name is missing), which no rule can decide; a request names the tool in tool_name and its input in input, so send it whole or continue without the call."; d.Behavior != "deny" || d.Message != want {
		t.Errorf("a request naming no tool gave %+v", d)
	}
}

func jsonEqual(a json.RawMessage, b string) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}
