package agentloop_test

// Tool input that is not valid JSON, streamed by Anthropic: the SDK's
// accumulator would make it {}, so the model would be told a field is
// missing and the journal would lose what it sent. Both providers must
// keep it verbatim.

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fakeprovider"
)

func TestInvalidToolJSONKeptVerbatim(t *testing.T) {
	const (
		unquoted  = `{questions: [}`
		truncated = `{"questions":[{"question":"Which database?","header":"DB","opt`
	)
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			t.Parallel()
			srv, prov := w.start(t, -1,
				fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{
					{ID: "bad_1", Name: ask.ToolName, RawInput: unquoted},
					{ID: "bad_2", Name: ask.ToolName, RawInput: truncated},
				}},
				fakeprovider.Turn{Text: "I will send valid JSON next time."},
			)
			j := &logJournal{log: &eventLog{}}
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t), Journal: j}, agentloop.NewState(), userPrompt("go"))
			if out.Status != agentloop.StatusSuccess {
				t.Fatalf("status %s (%v), want success", out.Status, out.Err)
			}
			wantResults(t, srv,
				fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "bad_1", IsError: w.name == "anthropic",
					Content: `Invalid AskUserQuestion input: the arguments are not valid JSON ("{questions: [}"). Send a JSON object {"questions": [...]}.`},
				fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "bad_2", IsError: w.name == "anthropic",
					Content: `Invalid AskUserQuestion input: the arguments are not valid JSON ("{\"questions\":[{\"question\":\"Which database?\",\"header\":\"DB\",\"opt"). Send a JSON object {"questions": [...]}.`},
			)
			var uses []agentloop.Block
			for _, m := range j.recorded() {
				uses = append(uses, m.ToolUses()...)
			}
			if len(uses) != 2 {
				t.Fatalf("journal holds %d tool uses, want 2", len(uses))
			}
			for i, want := range []string{unquoted, truncated} {
				var got string
				if err := json.Unmarshal(uses[i].Input, &got); err != nil || got != want {
					t.Errorf("journaled input %d = %s, want the JSON string of %q", i, uses[i].Input, want)
				}
			}
			// What goes back to the API must be valid for it: Anthropic
			// needs an object, OpenAI gets the arguments as they came.
			body := string(srv.Requests()[1].Body)
			want := map[string]string{"anthropic": `"id":"bad_1","input":{}`, "openai": `"arguments":"{questions: [}"`}[w.name]
			if !strings.Contains(body, want) {
				t.Errorf("second request lacks %s:\n%s", want, body)
			}
		})
	}
}
