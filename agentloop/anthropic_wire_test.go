package agentloop

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The wire pieces of the Anthropic provider that the fake's scripted turns
// do not reach. What is expected here is what anthropic-sdk-go v1.84 sent
// and returned, recorded from it before it was replaced.

// The request is the SDK's byte for byte: field order, escaping (<, >, &,
// U+2028, NUL), invalid UTF-8, raw JSON compacted, empty text dropped,
// inputs that are not objects sent as {}, schemas as they are.
func TestAnthropicRequestBytes(t *testing.T) {
	req := Request{
		System:    "sys <x> & \"q\" \u2028 \x00",
		MaxTokens: 77,
		Messages: []Message{
			{Role: RoleUser, Content: []Block{{Type: BlockText, Text: "a <b> & c \xff\xfe invalid"}, {Type: BlockText}, {Type: BlockText, Text: "second"}}},
			{Role: RoleAssistant, Content: []Block{{Type: BlockText, Text: "thinking out loud"},
				{Type: BlockToolUse, ID: "t1", Name: "Bash", Input: json.RawMessage("{ \"command\" :\n \"ls <x>\" }")},
				{Type: BlockToolUse, ID: "t2", Name: "X", Input: json.RawMessage(`"not json"`)}, {Type: BlockToolUse, ID: "t3", Name: "Y"},
				{Type: BlockToolUse, ID: "t4", Name: "Z", Input: json.RawMessage(`[1,2]`)}, {Type: BlockToolUse, ID: "t5", Name: "Z", Input: json.RawMessage(` {"a":1}`)}}},
			{Role: RoleUser, Content: []Block{{Type: BlockToolResult, ToolUseID: "t1", Content: "out <x>"}, {Type: BlockToolResult, ToolUseID: "t2", IsError: true},
				{Type: BlockToolResult, ToolUseID: "t3", Content: "bad", IsError: true}, {Type: BlockToolResult, ToolUseID: "t4"},
				{Type: BlockToolResult, ToolUseID: "t5"}, {Type: BlockText, Text: "and more"}}},
			{Role: RoleAssistant, Content: []Block{}},
			{Role: RoleUser},
			{Role: RoleUser, Content: []Block{{Type: BlockText}}},
		},
		Tools: []ToolSpec{
			{Name: "Bash", Description: "Run <cmd> & go", InputSchema: json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {\"command\": {\"type\": \"string\", \"x-extra\": [1, 2]}},\n  \"additionalProperties\": false\n}")},
			{Name: "NoSchema"},
			{Name: "ArraySchema", InputSchema: json.RawMessage(`[1]`)},
			{Name: "HTMLSchema", InputSchema: json.RawMessage(`{"type":"object","description":"<a> & é \u003c"}`)},
		},
	}
	const want = `{"max_tokens":77,"messages":[{"content":[{"text":"a \u003cb\u003e \u0026 c \ufffd\ufffd invalid","type":"text"},{"text":"second","type":"text"}],"role":"user"},` +
		`{"content":[{"text":"thinking out loud","type":"text"},{"id":"t1","input":{"command":"ls \u003cx\u003e"},"name":"Bash","type":"tool_use"},{"id":"t2","input":{},"name":"X","type":"tool_use"},{"id":"t3","input":{},"name":"Y","type":"tool_use"},{"id":"t4","input":{},"name":"Z","type":"tool_use"},{"id":"t5","input":{"a":1},"name":"Z","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"tool_use_id":"t1","content":[{"text":"out \u003cx\u003e","type":"text"}],"type":"tool_result"},{"tool_use_id":"t2","is_error":true,"type":"tool_result"},{"tool_use_id":"t3","is_error":true,"content":[{"text":"bad","type":"text"}],"type":"tool_result"},{"tool_use_id":"t4","type":"tool_result"},{"tool_use_id":"t5","type":"tool_result"},{"text":"and more","type":"text"}],"role":"user"},` +
		`{"role":"assistant"},{"role":"user"},{"role":"user"}],"model":"claude-x","system":[{"text":"sys \u003cx\u003e \u0026 \"q\" \u2028 \u0000","type":"text"}],` +
		`"tools":[{"input_schema":{"type":"object","properties":{"command":{"type":"string","x-extra":[1,2]}},"additionalProperties":false},"name":"Bash","description":"Run \u003ccmd\u003e \u0026 go"},{"input_schema":{"type":"object","properties":{}},"name":"NoSchema"},{"input_schema":[1],"name":"ArraySchema"},{"input_schema":{"type":"object","description":"\u003ca\u003e \u0026 é \u003c"},"name":"HTMLSchema"}],"stream":true}`
	body, err := json.Marshal(NewAnthropic(ProviderConfig{Model: "claude-x", MaxTokens: 5}).params(req))
	if err != nil {
		t.Fatal(err)
	}
	if string(body) != want {
		t.Errorf("request body\n%s\nwant the SDK's\n%s", body, want)
	}
}

// The headers the API needs, as the SDK sent them.
func TestAnthropicHeaders(t *testing.T) {
	h := NewAnthropic(ProviderConfig{APIKey: "sk-ant-1"}).header
	for name, want := range map[string]string{
		"X-Api-Key": "sk-ant-1", "Anthropic-Version": "2023-06-01", "Content-Type": "application/json", "Accept": "application/json",
	} {
		if got := h.Values(name); len(got) != 1 || got[0] != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if h := NewAnthropic(ProviderConfig{}).header; h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
		t.Errorf("without a key: %v", h)
	}
}

// The endpoint is v1/messages under the base URL, with or without a final
// slash; the SDK dropped the base's query, and so does the provider.
func TestAnthropicEndpoint(t *testing.T) {
	for base, want := range map[string]string{
		"http://127.0.0.1:8080":         "http://127.0.0.1:8080/v1/messages",
		"http://127.0.0.1:8080/":        "http://127.0.0.1:8080/v1/messages",
		"https://proxy.test/anthropic":  "https://proxy.test/anthropic/v1/messages",
		"https://proxy.test/anthropic/": "https://proxy.test/anthropic/v1/messages",
		"https://proxy.test/p?x=1":      "https://proxy.test/p/v1/messages",
		"http://[::1":                   "http://[::1",
	} {
		if got := anthropicEndpoint(base); got != want {
			t.Errorf("anthropicEndpoint(%q) = %q, want %q", base, got, want)
		}
	}
	if p := NewAnthropic(ProviderConfig{}); p.url != "https://api.anthropic.com/v1/messages" {
		t.Errorf("default endpoint %q", p.url)
	}
}

func sseEvent(name, data string) string {
	if name == "" {
		return "data: " + data + "\n\n"
	}
	return "event: " + name + "\ndata: " + data + "\n\n"
}

const (
	testStart = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":2,"cache_read_input_tokens":3}}}`
	testStop  = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

// blockEvents is a content block's start, its deltas (of one type) and its
// stop, at index i.
func blockEvents(i int, block, deltaType, field string, deltas ...string) string {
	s := sseEvent("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":%s}`, i, block))
	for _, d := range deltas {
		q, _ := json.Marshal(d)
		s += sseEvent("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":%q,%q:%s}}`, i, deltaType, field, q))
	}
	return s + sseEvent("content_block_stop", fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i))
}

// Streams a real server (or a proxy) may send, and what the reply is made
// of: blocks the loop has no use for are left out, tool input is taken
// from the deltas wherever they interleave, events are told apart by the
// type in their data (a nameless event is skipped, as the SDK skipped it),
// message_delta's usage overwrites the totals it carries.
func TestAnthropicStreamShapes(t *testing.T) {
	cases := []struct {
		name, stream, text, content string
		usage                       Usage
	}{
		{"thinking and server tools", sseEvent("message_start", testStart) +
			blockEvents(0, `{"type":"thinking","thinking":"","signature":""}`, "thinking_delta", "thinking", "hmm") +
			blockEvents(1, `{"type":"redacted_thinking","data":"xx"}`, "", "") +
			blockEvents(2, `{"type":"server_tool_use","id":"srv_1","name":"web_search","input":{}}`, "input_json_delta", "partial_json", `{"query":"x"}`) +
			blockEvents(3, `{"type":"web_search_tool_result","tool_use_id":"srv_1","content":[]}`, "", "") +
			blockEvents(4, `{"type":"text","text":""}`, "text_delta", "text", "Answer.") + testStop,
			"Answer.", `[{"type":"text","text":"Answer."}]`, Usage{10, 9, 2, 3}},
		{"interleaved tool input", sseEvent("message_start", testStart) +
			sseEvent("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"a","name":"A","input":{}}}`) +
			sseEvent("content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"b","name":"B","input":{}}}`) +
			sseEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"b\":"}}`) +
			sseEvent("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`) +
			sseEvent("content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"2}"}}`) +
			sseEvent("content_block_stop", `{"type":"content_block_stop","index":0}`) + sseEvent("content_block_stop", `{"type":"content_block_stop","index":1}`) + testStop,
			"", `[{"type":"tool_use","id":"a","name":"A","input":{"a":1}},{"type":"tool_use","id":"b","name":"B","input":{"b":2}}]`, Usage{10, 9, 2, 3}},
		{"tool input given at the start", sseEvent("message_start", testStart) +
			blockEvents(0, `{"type":"tool_use","id":"t","name":"n","input":{"a":1}}`, "", "") +
			blockEvents(1, `{"type":"tool_use","id":"t2","name":"n"}`, "", "") + testStop,
			"", `[{"type":"tool_use","id":"t","name":"n","input":{"a":1}},{"type":"tool_use","id":"t2","name":"n","input":{}}]`, Usage{10, 9, 2, 3}},
		{"names, pings, comments, unknown events and deltas", sseEvent("message_start", testStart) +
			sseEvent("future_event", `{"type":"future_event"}`) + ": comment\n\nevent: ping\n\nevent: content_block_delta\ndata: \n\n" +
			sseEvent("", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"nameless, skipped"}}`) +
			blockEvents(0, `{"type":"text","text":"pre-"}`, "text_delta", "text", "via ") +
			sseEvent("loosely_named", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"data type"}}`) +
			sseEvent("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"future_delta","text":"NOT SHOWN"}}`) +
			sseEvent("message_delta", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":3,"input_tokens":99,"cache_creation_input_tokens":null}}`) +
			sseEvent("message_stop", `{"type":"message_stop"}`),
			"via data type", `[{"type":"text","text":"pre-via data type"}]`, Usage{99, 3, 2, 3}},
	}
	for _, c := range cases {
		srv := rawAnthropicServer(c.stream)
		var sink textSink
		resp, err := NewAnthropic(ProviderConfig{BaseURL: srv.URL, MaxRetries: -1}).Complete(providerCtx(t), firstRequest(), sink.add)
		srv.Close()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		content, _ := json.Marshal(resp.Message.Content)
		if sink.text() != c.text || string(content) != c.content || resp.Usage != c.usage || resp.ID != "msg_1" {
			t.Errorf("%s: shown %q, content %s, usage %+v, id %q; want %q, %s, %+v", c.name, sink.text(), content, resp.Usage, resp.ID, c.text, c.content, c.usage)
		}
	}
}

// Events that address a block not started, an error event whose data is
// no error object, and a field of the wrong type end the call with what
// was wrong. The SDK said the same, but for the wrong type: it coerced
// "zero" to 0, where the provider now calls the stream malformed.
func TestAnthropicStreamFaults(t *testing.T) {
	cases := []struct{ name, stream, message string }{
		{"a gap in the blocks", sseEvent("message_start", testStart) + blockEvents(1, `{"type":"text","text":""}`, "", "") + testStop,
			"malformed event stream: received event of type content_block_start for content block at index 1, expected index 0"},
		{"a delta before its block", sseEvent("message_start", testStart) + sseEvent("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}`),
			"malformed event stream: received event of type content_block_delta for content block at index 0 but there are only 0 content blocks"},
		{"a stop for no block", sseEvent("message_start", testStart) + sseEvent("content_block_stop", `{"type":"content_block_stop","index":3}`),
			"malformed event stream: received event of type content_block_stop for content block at index 3 but there are only 0 content blocks"},
		{"an error event of text", sseEvent("message_start", testStart) + sseEvent("error", "upstream exploded\nat line 2"),
			"upstream exploded ( in the event stream)"},
		{"an index of the wrong type", sseEvent("message_start", testStart) + sseEvent("content_block_stop", `{"type":"content_block_stop","index":"zero"}`),
			"malformed event stream: json: cannot unmarshal string"},
		{"no event names at all", sseEvent("", testStart) + sseEvent("", `{"type":"message_stop"}`),
			"the stream ended before the reply was complete"},
	}
	for _, c := range cases {
		srv := rawAnthropicServer(c.stream)
		_, err := NewAnthropic(ProviderConfig{BaseURL: srv.URL, MaxRetries: -1}).Complete(providerCtx(t), firstRequest(), nil)
		srv.Close()
		if pe := wantProviderError(t, err); !strings.HasPrefix(pe.Message, c.message) {
			t.Errorf("%s: %q, want %q", c.name, pe.Message, c.message)
		}
	}
}

// rawAnthropicServer answers every request with stream, as an event
// stream.
func rawAnthropicServer(stream string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("content-type", "text/event-stream")
		_, _ = io.WriteString(w, stream)
	}))
}

// The reader names each event by its event field, and forgets the name
// of an event that had no data.
func TestSSEReaderNames(t *testing.T) {
	r := newSSEReader(strings.NewReader("event: ping\n\nevent: a\r\ndata: 1\r\n\r\ndata: 2\n\nevent: b\nevent: c\ndata: 3\n\n"))
	var got []string
	for {
		data, err := r.next()
		if err != nil {
			break
		}
		got = append(got, r.name+"="+strings.TrimSpace(string(data)))
	}
	if want := "a=1 =2 c=3"; strings.Join(got, " ") != want {
		t.Errorf("events %q, want %q", got, want)
	}
}
