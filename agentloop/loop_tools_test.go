package agentloop_test

// Tool dispatch: bad input and unknown tools are results for the model,
// several tool calls of one message are answered in one user message, in
// tool_use order, and a model that never gets its input right stops at
// MaxTurns.

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// badInput breaks two rules at once: a header over 12 characters and a
// single option.
const badInput = `{"questions":[{"question":"Which database should we use?","header":"Database engine","options":[{"label":"PostgreSQL","description":"Relational"}]}]}`

const badInputResult = "Invalid AskUserQuestion input; nothing was asked. Fix these and call AskUserQuestion again:\n" +
	"- questions[0].header: \"Database engine\" is 15 characters, at most 12 allowed; shorten it to a chip-sized label such as \"Database\"\n" +
	"- questions[0].options: 1 option given, at least 2 required; add another choice (\"Other\" is added automatically)"

// dbAutoResult is the tool result for dbInput answered by frontend.Auto{}.
const dbAutoResult = "No person answered the following questions; they were answered as marked:\n\n" +
	"1. Database (Which database should we use?)\n   Selected: PostgreSQL\n" +
	"   Answered by: the recommended-option policy, not a person\n\n" + machineTail

// dbPersonResult is the tool result for dbInput answered SQLite by a person.
const dbPersonResult = "User answered the following questions:\n\n" +
	"1. Database (Which database should we use?)\n   Selected: SQLite\n\n" +
	"Proceeding with user selections."

// authPersonResult is the tool result for authInput answered JWT and
// GitHub by a person.
const authPersonResult = "User answered the following questions:\n\n" +
	"1. Auth Method (Which authentication method should we use?)\n   Selected: JWT\n\n" +
	"2. Providers (Which OAuth providers should we support?)\n   Selected: GitHub\n\n" +
	"Proceeding with user selections."

// The wording for the model is ask's, not a second copy in the loop.
func TestBadInputResultIsAsksWording(t *testing.T) {
	_, err := ask.Parse([]byte(badInput))
	var ve *ask.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("ask.Parse(badInput) = %v, want a *ValidationError", err)
	}
	if ve.ToolResult() != badInputResult {
		t.Errorf("ToolResult() =\n%s\nwant\n%s", ve.ToolResult(), badInputResult)
	}
}

func TestInvalidInputThenRetry(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, -1,
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_bad", badInput)}},
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_good", dbInput)}},
				fakeprovider.Turn{Text: "Using PostgreSQL."},
			)
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: frontend.Auto{}}, agentloop.NewState(), userPrompt("set up a database"))
			// OpenAI tool messages carry no error flag.
			isErr := w.name == "anthropic"
			wantResults(t, srv,
				fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_bad", Content: badInputResult, IsError: isErr},
				fakeprovider.ToolResultSeen{Request: 2, ToolUseID: "toolu_good", Content: dbAutoResult},
			)
			if out.Status != agentloop.StatusSuccess || out.Turns != 3 || out.Result != "Using PostgreSQL." {
				t.Errorf("outcome %s, %d turns, result %q (%v); want success, 3, \"Using PostgreSQL.\"", out.Status, out.Turns, out.Result, out.Err)
			}
		})
	}
}

func TestInvalidInputForeverStopsAtMaxTurns(t *testing.T) {
	// Four bad turns are scripted; with MaxTurns 3 the fourth is never asked for.
	srv, prov := anthropicWire.start(t, -1,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("", badInput)}, Repeat: 4})
	fe := newStubFrontend(t) // no stubs: nothing may be asked
	st := agentloop.NewState()
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe, MaxTurns: 3}, st, userPrompt("go"))
	if out.Status != agentloop.StatusMaxTurns || out.Turns != 3 {
		t.Fatalf("status %s after %d turns (%v), want max_turns after 3", out.Status, out.Turns, out.Err)
	}
	if n := len(srv.Requests()); n != 3 || srv.Remaining() != 1 {
		t.Errorf("%d model calls (%d scripted left), want exactly 3 (1 left)", n, srv.Remaining())
	}
	if want := "stopped after 3 model calls (--max-turns 3)"; out.Reason != want {
		t.Errorf("reason %q, want %q", out.Reason, want)
	}
	// Two error results reached the model; the third is kept in the
	// conversation, ready to be sent if the run is continued.
	seen := srv.ToolResults()
	if len(seen) != 2 || seen[0].Content != badInputResult || !seen[0].IsError || seen[1].ToolUseID != "toolu_fake_2_1" {
		t.Errorf("tool results seen %+v, want the error result for calls 1 and 2", seen)
	}
	last := st.Messages[len(st.Messages)-1]
	if len(st.Messages) != 7 || last.Role != agentloop.RoleUser || last.Content[0].ToolUseID != "toolu_fake_3_1" || !last.Content[0].IsError {
		t.Errorf("conversation ends with %+v (%d messages), want the third error result (7 messages)", last, len(st.Messages))
	}
	if len(out.Pending) != 0 {
		t.Errorf("pending %+v, want none", out.Pending)
	}
}

func TestUnknownTool(t *testing.T) {
	want := `Unknown tool "Bash": the only tool available here is AskUserQuestion. Call AskUserQuestion, or answer without tools.`
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, -1,
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{{ID: "toolu_bash", Name: "Bash", Input: []byte(`{"command":"ls"}`)}}},
				fakeprovider.Turn{Text: "I will do without it."},
			)
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t)}, agentloop.NewState(), userPrompt("list files"))
			wantResults(t, srv, fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_bash", Content: want, IsError: w.name == "anthropic"})
			if out.Status != agentloop.StatusSuccess || out.Turns != 2 {
				t.Errorf("outcome %s after %d turns (%v), want success after 2", out.Status, out.Turns, out.Err)
			}
		})
	}
}

func TestTwoQuestionSetsInOneMessage(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_1", authInput), askCall("toolu_2", dbInput)}},
		fakeprovider.Turn{Text: "Both answered."},
	)
	fe := newStubFrontend(t).answer("toolu_1", []string{"JWT"}, []string{"GitHub"}).answer("toolu_2", []string{"SQLite"})
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess || out.Turns != 2 {
		t.Fatalf("outcome %s after %d turns (%v), want success after 2", out.Status, out.Turns, out.Err)
	}
	wantResults(t, srv,
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_1", Content: authPersonResult},
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_2", Content: dbPersonResult},
	)
	wantOneResultsMessage(t, srv.Requests()[1], "toolu_1", "toolu_2")
}

func TestUnknownToolAndQuestionSetInOneMessage(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1,
		fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{
			{ID: "toolu_bash", Name: "Bash", Input: []byte(`{"command":"ls"}`)},
			askCall("toolu_db", dbInput),
			askCall("toolu_bad", badInput),
		}},
		fakeprovider.Turn{Text: "Noted."},
	)
	fe := newStubFrontend(t).answer("toolu_db", []string{"SQLite"})
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: fe}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	wantResults(t, srv,
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_bash", IsError: true,
			Content: `Unknown tool "Bash": the only tool available here is AskUserQuestion. Call AskUserQuestion, or answer without tools.`},
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_db", Content: dbPersonResult},
		fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_bad", Content: badInputResult, IsError: true},
	)
	wantOneResultsMessage(t, srv.Requests()[1], "toolu_bash", "toolu_db", "toolu_bad")
}

// wantOneResultsMessage checks that req (an Anthropic request) ends with
// one user message holding exactly the tool results for ids, in order,
// right after the assistant message that made the calls.
func wantOneResultsMessage(t *testing.T, req fakeprovider.Request, ids ...string) {
	t.Helper()
	type block struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
	}
	var msgs []struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	for _, raw := range req.Messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		var blocks []block
		_ = json.Unmarshal(m.Content, &blocks) // a plain string prompt has no blocks
		msgs = append(msgs, struct {
			Role    string  `json:"role"`
			Content []block `json:"content"`
		}{m.Role, blocks})
	}
	if len(msgs) != 3 || msgs[1].Role != "assistant" || msgs[2].Role != "user" {
		t.Fatalf("request messages %+v, want prompt, assistant, one user message of results", msgs)
	}
	got := msgs[2].Content
	if len(got) != len(ids) {
		t.Fatalf("the results message has %d blocks %+v, want %d", len(got), got, len(ids))
	}
	for i, id := range ids {
		if got[i].Type != "tool_result" || got[i].ToolUseID != id {
			t.Errorf("block %d is %+v, want the tool_result for %s", i, got[i], id)
		}
	}
}

func TestPromptWhileQuestionsPending(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{askCall("toolu_db", dbInput)}})
	fe := newStubFrontend(t).fail("toolu_db", ask.ErrDeferred)
	st := agentloop.NewState()
	l := &agentloop.Loop{Provider: prov, Frontend: fe}
	if out := run(t, l, st, userPrompt("go")); out.Status != agentloop.StatusWaiting {
		t.Fatalf("first run: status %s (%v), want waiting", out.Status, out.Err)
	}
	n := len(st.Messages)
	out := run(t, l, st, userPrompt("never mind, do something else"))
	if out.Status != agentloop.StatusError || !errors.Is(out.Err, agentloop.ErrPendingQuestions) {
		t.Fatalf("status %s, err %v; want error ErrPendingQuestions", out.Status, out.Err)
	}
	if len(st.Messages) != n || len(srv.Requests()) != 1 || out.Turns != 0 {
		t.Errorf("the prompt was acted on: %d messages (want %d), %d model calls (want 1)", len(st.Messages), n, len(srv.Requests()))
	}
	if len(out.Pending) != 1 || out.Pending[0].ID != "toolu_db" {
		t.Errorf("pending %+v, want toolu_db", out.Pending)
	}
	if got := fe.Asked(); len(got) != 1 {
		t.Errorf("asked %v, want toolu_db once", got)
	}
}

func TestEmptyAssistantMessageEndsTheRun(t *testing.T) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, -1, fakeprovider.Turn{})
			st := agentloop.NewState()
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t)}, st, userPrompt("say nothing"))
			if out.Status != agentloop.StatusSuccess || out.Err != nil || out.Turns != 1 {
				t.Fatalf("status %s after %d turns (%v), want success after 1", out.Status, out.Turns, out.Err)
			}
			if len(st.Messages) != 1 || st.Messages[0].Role != agentloop.RoleUser {
				t.Errorf("messages %+v, want only the prompt: an empty reply is not kept", st.Messages)
			}
			if out.Result != "" || len(srv.Requests()) != 1 {
				t.Errorf("result %q after %d calls, want \"\" after 1", out.Result, len(srv.Requests()))
			}
		})
	}
}
