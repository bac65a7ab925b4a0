package agentloop

import (
	"encoding/json"
	"testing"
)

// chunks decodes chat.completion.chunk JSON lines as the stream does.
func chunks(t *testing.T, lines ...string) []openaiChunk {
	t.Helper()
	out := make([]openaiChunk, len(lines))
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &out[i]); err != nil {
			t.Fatalf("chunk %d: %v", i, err)
		}
	}
	return out
}

// What compatible servers send that the SDK's accumulator got wrong:
// chunk ids that change, every call whole at index 0, names repeated,
// arguments as an object, usage reported cumulatively.
func TestOpenAIAccumulatorCompatQuirks(t *testing.T) {
	var acc openaiAccumulator
	for _, c := range chunks(t,
		`{"id":"a","choices":[{"index":0,"delta":{"content":"Hi"}}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`,
		`{"id":"b","choices":[{"index":0,"delta":{"content":" there"}}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
		`{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x1","function":{"name":"Bash","arguments":"{\"command\":\"ls\"}"}}]}}]}`,
		`{"id":"d","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"x2","function":{"name":"Read","arguments":{"path":"a.txt"}}}]}}]}`,
		`{"id":"e","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"Read","arguments":""}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":9,"total_tokens":14}}`,
	) {
		acc.add(c)
	}
	resp := acc.response(newCallIDs(Request{}))
	if resp.ID != "a" || resp.Message.Text() != "Hi there" || resp.StopReason != "tool_use" {
		t.Errorf("id %q text %q stop %q", resp.ID, resp.Message.Text(), resp.StopReason)
	}
	uses := resp.Message.ToolUses()
	if len(uses) != 2 || uses[0].ID != "x1" || uses[0].Name != "Bash" || uses[1].ID != "x2" || uses[1].Name != "Read" {
		t.Fatalf("tool uses = %+v", uses)
	}
	wantJSON(t, "first input", uses[0].Input, []byte(`{"command":"ls"}`))
	wantJSON(t, "object arguments", uses[1].Input, []byte(`{"path":"a.txt"}`))
	if resp.Usage != (Usage{InputTokens: 5, OutputTokens: 9}) {
		t.Errorf("usage = %+v, want the last report", resp.Usage)
	}
}

func TestOpenAIStopReasons(t *testing.T) {
	cases := []struct {
		finish         string
		calls, refusal bool
		want           string
	}{
		{"stop", false, false, "end_turn"},
		{"tool_calls", true, false, "tool_use"},
		{"stop", true, false, "tool_use"},
		{"length", true, false, "max_tokens"},
		{"content_filter", false, false, "refusal"},
		{"stop", false, true, "refusal"},
		{"eos", false, false, "end_turn"},
	}
	for _, c := range cases {
		if got := openaiStopReason(c.finish, c.calls, c.refusal); got != c.want {
			t.Errorf("openaiStopReason(%q, %v, %v) = %q, want %q", c.finish, c.calls, c.refusal, got, c.want)
		}
	}
}

func TestOpenAICallIDsSkipUsed(t *testing.T) {
	ids := newCallIDs(Request{Messages: []Message{{Role: RoleAssistant, Content: []Block{{Type: BlockToolUse, ID: "call_1"}}}}})
	if a, b := ids.next(), ids.next(); a != "call_2" || b != "call_3" {
		t.Errorf("ids = %s, %s; want call_2, call_3", a, b)
	}
}
