package fakeprovider

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// dataEvents decodes the data line of every event of a stream body.
func dataEvents(t *testing.T, body string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(body, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			t.Fatalf("event data %q: %v", data, err)
		}
		out = append(out, ev)
	}
	return out
}

const responsesBody = `{"model":"m","stream":true,"instructions":"sys","max_output_tokens":9,"input":[` +
	`{"type":"message","role":"developer","content":[{"type":"input_text","text":"dev"}]},` +
	`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}],` +
	`"tools":[{"type":"function","name":"exec_command","parameters":{"type":"object"}},` +
	`{"type":"namespace","name":"mcp__askuser","tools":[{"type":"function","name":"AskUserQuestion","parameters":{"required":["questions"]}}]}]}`

func TestResponsesEventSequence(t *testing.T) {
	srv := NewResponses(Turn{
		Text:      "Hello, wörld!",
		ToolCalls: []ToolCall{{ID: "call_1", Namespace: "mcp__askuser", Name: "AskUserQuestion", Input: json.RawMessage(`{"questions":[]}`)}},
	})
	defer srv.Close()
	res, body := post(t, srv.URL+"/responses", responsesBody)
	if res.StatusCode != 200 || res.Header.Get("x-request-id") != "req_fake_1" {
		t.Fatalf("status %d headers %v", res.StatusCode, res.Header)
	}
	got := strings.Join(events(t, body), " ")
	want := "response.created response.in_progress " +
		"response.output_item.added response.content_part.added response.output_text.delta response.output_text.delta response.output_text.delta " +
		"response.output_text.done response.content_part.done response.output_item.done " +
		"response.output_item.added response.function_call_arguments.delta response.function_call_arguments.delta response.function_call_arguments.delta " +
		"response.function_call_arguments.done response.output_item.done response.completed"
	if got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
	evs := dataEvents(t, body)
	var args strings.Builder
	for i, ev := range evs {
		if ev["sequence_number"] != float64(i) {
			t.Errorf("event %d (%s) has sequence_number %v", i, ev["type"], ev["sequence_number"])
		}
		if ev["type"] == "response.function_call_arguments.delta" {
			args.WriteString(ev["delta"].(string))
		}
	}
	if args.String() != `{"questions":[]}` {
		t.Errorf("the argument deltas join to %q", args.String())
	}
	last := evs[len(evs)-1]["response"].(map[string]any)
	output := last["output"].([]any)
	call := output[1].(map[string]any)
	if last["status"] != "completed" || len(output) != 2 || call["namespace"] != "mcp__askuser" || call["name"] != "AskUserQuestion" ||
		call["call_id"] != "call_1" || call["arguments"] != `{"questions":[]}` {
		t.Errorf("completed response = %v", last)
	}
	if u := last["usage"].(map[string]any); u["input_tokens"] != float64(100) || u["output_tokens"] != float64(20) {
		t.Errorf("usage = %v", u)
	}
	r := srv.Requests()[0]
	if r.Model != "m" || r.System != "sys\ndev" || r.MaxTokens != 9 || len(r.Messages) != 2 {
		t.Errorf("decoded request = %+v", r)
	}
	if names := r.ToolNames(); !reflect.DeepEqual(names, []string{"exec_command", "mcp__askuser.AskUserQuestion"}) {
		t.Errorf("tool names = %q; want a namespace's function as namespace.function", names)
	}
	if s := r.ToolSchema("mcp__askuser.AskUserQuestion"); string(s) != `{"required":["questions"]}` {
		t.Errorf("schema = %s", s)
	}
}

func TestResponsesIncompleteAndToolResults(t *testing.T) {
	srv := NewResponses(Turn{Text: "cut", StopReason: "max_tokens"}, Turn{ErrorEvent: "server_error"})
	defer srv.Close()
	results := `{"model":"m","stream":true,"input":[` +
		`{"type":"function_call","call_id":"c1","name":"AskUserQuestion","namespace":"mcp__askuser","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"Wall time: 0.1 seconds\nOutput:"},{"type":"input_text","text":"answered"}]},` +
		`{"type":"function_call_output","call_id":"c2","output":"plain"}]}`
	_, body := post(t, srv.URL+"/responses", results)
	if evs := events(t, body); evs[len(evs)-1] != "response.incomplete" || !strings.Contains(body, `"reason":"max_output_tokens"`) {
		t.Errorf("max_tokens: events %v", evs)
	}
	want := []ToolResultSeen{{0, "c1", "Wall time: 0.1 seconds\nOutput:\nanswered", false}, {0, "c2", "plain", false}}
	if got := srv.ToolResults(); !reflect.DeepEqual(got, want) {
		t.Errorf("tool results = %+v, want %+v", got, want)
	}
	_, body = post(t, srv.URL+"/responses", responsesBody)
	if evs := events(t, body); evs[len(evs)-1] != "error" || !strings.Contains(body, `"code":"server_error"`) {
		t.Errorf("error event: %v", evs)
	}
	if res, body := post(t, srv.URL+"/responses", `{"model":"m","stream":true}`); res.StatusCode != 400 || !strings.Contains(body, "input: field required") {
		t.Errorf("no input: %d %s", res.StatusCode, body)
	}
}

const geminiBody = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],` +
	`"systemInstruction":{"role":"user","parts":[{"text":"sys"},{"text":"more"}]},` +
	`"tools":[{"functionDeclarations":[{"name":"mcp_askuser_AskUserQuestion","parametersJsonSchema":{"type":"object"}},{"name":"ls","parameters":{"type":"OBJECT"}}]}],` +
	`"generationConfig":{"maxOutputTokens":7}}`

func TestGeminiChunkSequence(t *testing.T) {
	srv := NewGemini(Turn{
		Text:      "Hello, wörld!",
		ToolCalls: []ToolCall{{Name: "mcp_askuser_AskUserQuestion", Input: json.RawMessage(`{"questions":[],"wait_for_previous":true}`)}},
	})
	defer srv.Close()
	res, body := post(t, srv.URL+"/v1beta/models/gemini-x:streamGenerateContent?alt=sse", geminiBody)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("content-type"), "text/event-stream") {
		t.Fatalf("status %d headers %v", res.StatusCode, res.Header)
	}
	evs := dataEvents(t, body)
	if len(evs) != 5 {
		t.Fatalf("%d chunks, want 3 text, 1 function call, 1 final:\n%s", len(evs), body)
	}
	part := func(i int) map[string]any {
		c := evs[i]["candidates"].([]any)[0].(map[string]any)
		return c["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	}
	var text strings.Builder
	for i := range 3 {
		text.WriteString(part(i)["text"].(string))
	}
	if text.String() != "Hello, wörld!" {
		t.Errorf("text chunks join to %q", text.String())
	}
	call, _ := json.Marshal(part(3)["functionCall"])
	if string(call) != `{"args":{"questions":[],"wait_for_previous":true},"name":"mcp_askuser_AskUserQuestion"}` {
		t.Errorf("function call = %s", call)
	}
	final := evs[4]["candidates"].([]any)[0].(map[string]any)
	if final["finishReason"] != "STOP" || evs[4]["usageMetadata"].(map[string]any)["candidatesTokenCount"] != float64(20) {
		t.Errorf("final chunk = %v", evs[4])
	}
	r := srv.Requests()[0]
	if r.Model != "gemini-x" || r.System != "sys\nmore" || r.MaxTokens != 7 || len(r.Messages) != 1 || !r.Stream {
		t.Errorf("decoded request = %+v", r)
	}
	if names := r.ToolNames(); !reflect.DeepEqual(names, []string{"mcp_askuser_AskUserQuestion", "ls"}) {
		t.Errorf("tool names = %q", names)
	}
	if s := r.ToolSchema("mcp_askuser_AskUserQuestion"); string(s) != `{"type":"object"}` {
		t.Errorf("schema = %s", s)
	}
}

func TestGeminiErrorsAndToolResults(t *testing.T) {
	srv := NewGemini(Turn{Status: 429}, Turn{Text: "a"})
	defer srv.Close()
	url := srv.URL + "/v1beta/models/g:streamGenerateContent?alt=sse"
	res, body := post(t, url, geminiBody)
	if res.StatusCode != 429 || !strings.Contains(body, `"status":"RESOURCE_EXHAUSTED"`) || !strings.Contains(body, `"code":429`) {
		t.Errorf("429: %d %s", res.StatusCode, body)
	}
	if res, body := post(t, srv.URL+"/v1beta/models/g:generateContent", geminiBody); res.StatusCode != 400 || !strings.Contains(body, "only streaming") {
		t.Errorf("non-streaming: %d %s", res.StatusCode, body)
	}
	if res, body := post(t, srv.URL+"/v1/models/g:countTokens", geminiBody); res.StatusCode != 404 || !strings.Contains(body, `"status":"NOT_FOUND"`) {
		t.Errorf("unknown path: %d %s", res.StatusCode, body)
	}
	results := `{"contents":[{"role":"user","parts":[` +
		`{"functionResponse":{"id":"f1","name":"mcp_askuser_AskUserQuestion","response":{"output":"answered"}}},` +
		`{"functionResponse":{"name":"ls","response":{"error":"no such dir"}}}]}]}`
	post(t, url, results)
	want := []ToolResultSeen{{3, "f1", `{"output":"answered"}`, false}, {3, "ls", `{"error":"no such dir"}`, true}}
	if got := srv.ToolResults(); !reflect.DeepEqual(got, want) {
		t.Errorf("tool results = %+v, want %+v", got, want)
	}
	res, body = post(t, url, geminiBody)
	if res.StatusCode != 500 || !strings.Contains(body, "no more scripted turns") || !strings.Contains(body, `"status":"INTERNAL"`) {
		t.Errorf("over-call: %d %s", res.StatusCode, body)
	}
}
