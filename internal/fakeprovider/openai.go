package fakeprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// openaiWire speaks the OpenAI Chat Completions API: POST
// …/chat/completions, answered with `data: {chat.completion.chunk}` lines,
// a finish chunk, a usage chunk when the request asked for one, and
// `data: [DONE]`.
type openaiWire struct{}

// created is the fixed creation time of every chunk, so streams are
// reproducible.
const created = 1700000000

func (openaiWire) pathOK(path string) bool { return strings.HasSuffix(path, "/chat/completions") }

func (openaiWire) requestIDHeader() string { return "x-request-id" }

func (openaiWire) decode(req *Request) error {
	var body struct {
		Model               string            `json:"model"`
		Messages            []json.RawMessage `json:"messages"`
		Tools               []json.RawMessage `json:"tools"`
		MaxTokens           int64             `json:"max_tokens"`
		MaxCompletionTokens int64             `json:"max_completion_tokens"`
		Stream              bool              `json:"stream"`
		StreamOptions       struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return fmt.Errorf("decode the request: %w", err)
	}
	if body.Messages == nil {
		return errors.New("messages: field required")
	}
	req.Model, req.Messages, req.Tools = body.Model, body.Messages, body.Tools
	req.MaxTokens = max(body.MaxTokens, body.MaxCompletionTokens)
	req.Stream, req.IncludeUsage = body.Stream, body.StreamOptions.IncludeUsage
	var system []string
	for _, raw := range body.Messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) == nil && (m.Role == "system" || m.Role == "developer") {
			system = append(system, contentText(m.Content))
		}
	}
	req.System = strings.Join(system, "\n")
	return nil
}

// openaiErrorKind is the error type and code the API sends with status.
func openaiErrorKind(status int) (typ string, code any) {
	switch {
	case status == http.StatusUnauthorized:
		return "invalid_request_error", "invalid_api_key"
	case status == http.StatusNotFound:
		return "invalid_request_error", "model_not_found"
	case status == http.StatusTooManyRequests:
		return "requests", "rate_limit_exceeded"
	case status >= 500:
		return "server_error", nil
	}
	return "invalid_request_error", nil
}

func (openaiWire) writeError(w http.ResponseWriter, status int, msg string, n int) {
	w.Header().Set("content-type", "application/json")
	w.Header().Set("x-request-id", requestID(n))
	w.WriteHeader(status)
	typ, code := openaiErrorKind(status)
	body := map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	_ = json.NewEncoder(w).Encode(body) // a client that went away needs no answer
}

// openaiFinish translates a turn's stop reason to a finish_reason.
func openaiFinish(t Turn) string {
	switch t.StopReason {
	case "":
		if len(t.ToolCalls) > 0 {
			return "tool_calls"
		}
		return "stop"
	case "end_turn":
		return "stop"
	case "tool_use":
		return "tool_calls"
	case "max_tokens":
		return "length"
	case "refusal":
		return "content_filter"
	}
	return t.StopReason
}

func (openaiWire) stream(sw *sse, t Turn, n int, req Request) {
	id := fmt.Sprintf("chatcmpl-fake%d", n)
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"system_fingerprint": "fp_fake",
			"choices":            []any{map[string]any{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}},
		}
	}
	sw.event("", chunk(map[string]any{"role": "assistant", "content": "", "refusal": nil}, nil))
	if t.Malformed {
		sw.raw(`data: {"id":"` + id + `","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"` + "\n\n")
		return
	}
	if !playText(sw, t, func(piece string) {
		sw.event("", chunk(map[string]any{"content": piece}, nil))
	}, func(msg string) {
		sw.event("", map[string]any{"error": map[string]any{"message": msg, "type": t.ErrorEvent, "param": nil, "code": nil}})
	}) {
		return
	}
	for i, tc := range t.ToolCalls {
		first := map[string]any{"index": i, "type": "function", "function": map[string]any{"name": tc.Name, "arguments": ""}}
		if tc.ID != "" {
			first["id"] = tc.ID
		}
		sw.event("", chunk(map[string]any{"tool_calls": []any{first}}, nil))
		for _, piece := range split(tc.input(), 3) {
			sw.event("", chunk(map[string]any{"tool_calls": []any{
				map[string]any{"index": i, "function": map[string]any{"arguments": piece}},
			}}, nil))
		}
	}
	sw.event("", chunk(map[string]any{}, openaiFinish(t)))
	if req.IncludeUsage && !t.NoUsage {
		u := t.usage()
		prompt := u.InputTokens + u.CacheReadInputTokens
		sw.event("", map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"system_fingerprint": "fp_fake", "choices": []any{},
			"usage": map[string]any{
				"prompt_tokens": prompt, "completion_tokens": u.OutputTokens, "total_tokens": prompt + u.OutputTokens,
				"prompt_tokens_details": map[string]any{"cached_tokens": u.CacheReadInputTokens},
			},
		})
	}
	sw.raw("data: [DONE]\n\n")
}

func (openaiWire) toolResults(req Request) []ToolResultSeen {
	var out []ToolResultSeen
	for _, raw := range req.Messages {
		var m struct {
			Role       string          `json:"role"`
			ToolCallID string          `json:"tool_call_id"`
			Content    json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) == nil && m.Role == "tool" {
			out = append(out, ToolResultSeen{ToolUseID: m.ToolCallID, Content: contentText(m.Content)})
		}
	}
	return out
}
