package fakeprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// responsesWire speaks the OpenAI Responses API, as Codex CLI (0.169,
// wire_api = "responses") calls it: POST …/responses, answered with named
// SSE events: response.created and response.in_progress; per output item
// response.output_item.added, its content (output_text deltas in a
// content part, or function_call_arguments deltas) and
// response.output_item.done; then response.completed (response.incomplete
// for max_tokens and refusal). Every event carries a sequence_number.
// Errors, and the error body, are the Chat Completions API's.
type responsesWire struct{ openaiWire }

func (responsesWire) pathOK(path string) bool { return strings.HasSuffix(path, "/responses") }

func (responsesWire) decode(req *Request) error {
	var body struct {
		Model           string            `json:"model"`
		Instructions    string            `json:"instructions"`
		Input           json.RawMessage   `json:"input"`
		Tools           []json.RawMessage `json:"tools"`
		MaxOutputTokens int64             `json:"max_output_tokens"`
		Stream          bool              `json:"stream"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return fmt.Errorf("decode the request: %w", err)
	}
	if len(body.Input) == 0 || isJSONNull(body.Input) {
		return errors.New("input: field required")
	}
	req.Model, req.Tools, req.MaxTokens, req.Stream = body.Model, body.Tools, body.MaxOutputTokens, body.Stream
	// input is a string (one user message) or a list of items.
	if err := json.Unmarshal(body.Input, &req.Messages); err != nil {
		req.Messages = []json.RawMessage{body.Input}
	}
	var system []string
	if body.Instructions != "" {
		system = append(system, body.Instructions)
	}
	for _, raw := range req.Messages {
		var m struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) == nil && (m.Type == "" || m.Type == "message") && (m.Role == "system" || m.Role == "developer") {
			system = append(system, contentText(m.Content))
		}
	}
	req.System = strings.Join(system, "\n")
	return nil
}

// responsesStream writes one response's events, numbering them.
type responsesStream struct {
	sw  *sse
	seq int
}

func (rs *responsesStream) event(name string, data map[string]any) {
	data["type"] = name
	data["sequence_number"] = rs.seq
	rs.seq++
	rs.sw.event(name, data)
}

func (responsesWire) stream(sw *sse, t Turn, n int, req Request) {
	rs := &responsesStream{sw: sw}
	resp := map[string]any{
		"id": fmt.Sprintf("resp_fake_%d", n), "object": "response", "created_at": created, "model": req.Model,
		"status": "in_progress", "output": []any{}, "usage": nil, "error": nil, "incomplete_details": nil,
	}
	rs.event("response.created", map[string]any{"response": resp})
	rs.event("response.in_progress", map[string]any{"response": resp})
	if t.Malformed {
		sw.raw("event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"type\":\n\n")
		return
	}
	var output []any
	text, ok := rs.text(t, n)
	if !ok {
		return
	}
	if text != nil {
		output = append(output, text)
	}
	for i, tc := range t.ToolCalls {
		output = append(output, rs.functionCall(tc, len(output), n, i+1))
	}
	status, incomplete := "completed", any(nil)
	switch t.StopReason {
	case "max_tokens":
		status, incomplete = "incomplete", map[string]any{"reason": "max_output_tokens"}
	case "refusal":
		status, incomplete = "incomplete", map[string]any{"reason": "content_filter"}
	}
	u := t.usage()
	resp["status"], resp["output"], resp["incomplete_details"] = status, output, incomplete
	resp["usage"] = map[string]any{
		"input_tokens":          u.InputTokens + u.CacheReadInputTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CacheReadInputTokens},
		"output_tokens":         u.OutputTokens,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens":          u.InputTokens + u.CacheReadInputTokens + u.OutputTokens,
	}
	rs.event("response."+status, map[string]any{"response": resp})
}

// text streams the turn's text as an assistant message at output index 0
// and returns the finished item (nil for a turn without text), or false
// when a fault ended the stream.
func (rs *responsesStream) text(t Turn, n int) (map[string]any, bool) {
	id := fmt.Sprintf("msg_fake_%d", n)
	at := map[string]any{"item_id": id, "output_index": 0, "content_index": 0}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range at {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	item := map[string]any{"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []any{}}
	if t.Text != "" {
		rs.event("response.output_item.added", map[string]any{"output_index": 0, "item": item})
		rs.event("response.content_part.added", with(map[string]any{"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}}))
	}
	goesOn := playText(rs.sw, t, func(piece string) {
		rs.event("response.output_text.delta", with(map[string]any{"delta": piece, "logprobs": []any{}}))
	}, func(msg string) {
		rs.event("error", map[string]any{"code": t.ErrorEvent, "message": msg, "param": nil})
	})
	if !goesOn || t.Text == "" {
		return nil, goesOn
	}
	part := map[string]any{"type": "output_text", "text": t.Text, "annotations": []any{}}
	rs.event("response.output_text.done", with(map[string]any{"text": t.Text, "logprobs": []any{}}))
	rs.event("response.content_part.done", with(map[string]any{"part": part}))
	item = map[string]any{"id": id, "type": "message", "status": "completed", "role": "assistant", "content": []any{part}}
	rs.event("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	return item, true
}

// functionCall streams one function_call item at index, its arguments in
// about three deltas, and returns the finished item. A call with a
// Namespace names it beside the function's name, as Codex 0.169 expects
// for the tools of an MCP server.
func (rs *responsesStream) functionCall(tc ToolCall, index, n, i int) map[string]any {
	id := fmt.Sprintf("fc_fake_%d_%d", n, i)
	callID := tc.ID
	if callID == "" {
		callID = fmt.Sprintf("call_fake_%d_%d", n, i)
	}
	item := map[string]any{"id": id, "type": "function_call", "status": "in_progress", "call_id": callID, "name": tc.Name, "arguments": ""}
	if tc.Namespace != "" {
		item["namespace"] = tc.Namespace
	}
	rs.event("response.output_item.added", map[string]any{"output_index": index, "item": item})
	for _, piece := range split(tc.input(), 3) {
		rs.event("response.function_call_arguments.delta", map[string]any{"item_id": id, "output_index": index, "delta": piece})
	}
	rs.event("response.function_call_arguments.done", map[string]any{"item_id": id, "output_index": index, "name": tc.Name, "arguments": tc.input()})
	done := map[string]any{}
	for k, v := range item {
		done[k] = v
	}
	done["status"], done["arguments"] = "completed", tc.input()
	rs.event("response.output_item.done", map[string]any{"output_index": index, "item": done})
	return done
}

func (responsesWire) toolResults(req Request) []ToolResultSeen {
	var out []ToolResultSeen
	for _, raw := range req.Messages {
		var item struct {
			Type   string          `json:"type"`
			CallID string          `json:"call_id"`
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal(raw, &item) == nil && item.Type == "function_call_output" {
			out = append(out, ToolResultSeen{ToolUseID: item.CallID, Content: contentText(item.Output)})
		}
	}
	return out
}

func isJSONNull(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }
