package fakeprovider

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// anthropicWire speaks the Anthropic Messages API: POST /v1/messages,
// answered with the SSE events message_start, ping, content_block_start /
// content_block_delta / content_block_stop per block, message_delta and
// message_stop.
type anthropicWire struct{}

func (anthropicWire) pathOK(path string) bool { return path == "/v1/messages" }

func (anthropicWire) requestIDHeader() string { return "request-id" }

func (anthropicWire) decode(req *Request) error {
	var body struct {
		Model     string            `json:"model"`
		System    json.RawMessage   `json:"system"`
		Messages  []json.RawMessage `json:"messages"`
		Tools     []json.RawMessage `json:"tools"`
		MaxTokens int64             `json:"max_tokens"`
		Stream    bool              `json:"stream"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return fmt.Errorf("decode the request: %w", err)
	}
	if body.Messages == nil {
		return errors.New("messages: field required")
	}
	req.Model, req.Messages, req.Tools = body.Model, body.Messages, body.Tools
	req.MaxTokens, req.Stream = body.MaxTokens, body.Stream
	if body.System != nil {
		req.System = contentText(body.System)
	}
	return nil
}

// anthropicErrorType is the error type the API sends with status.
func anthropicErrorType(status int) string {
	switch status {
	case http.StatusBadRequest:
		return "invalid_request_error"
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	return "api_error"
}

func (anthropicWire) writeError(w http.ResponseWriter, status int, msg string, n int) {
	w.Header().Set("content-type", "application/json")
	w.Header().Set("request-id", requestID(n))
	w.WriteHeader(status)
	body := map[string]any{
		"type":       "error",
		"error":      map[string]any{"type": anthropicErrorType(status), "message": msg},
		"request_id": requestID(n),
	}
	_ = json.NewEncoder(w).Encode(body) // a client that went away needs no answer
}

func (anthropicWire) stream(sw *sse, t Turn, n int, req Request) {
	u := t.usage()
	sw.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_fake_%d", n), "type": "message", "role": "assistant",
		"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens": u.InputTokens, "output_tokens": 1,
			"cache_creation_input_tokens": u.CacheCreationInputTokens,
			"cache_read_input_tokens":     u.CacheReadInputTokens,
		},
	}})
	if t.Malformed {
		sw.raw("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\n\n")
		return
	}
	sw.event("ping", map[string]any{"type": "ping"})
	index := 0
	if !anthropicText(sw, t, index) {
		return
	}
	if t.Text != "" {
		index++
	}
	for i, tc := range t.ToolCalls {
		anthropicToolUse(sw, tc, index, fmt.Sprintf("toolu_fake_%d_%d", n, i+1))
		index++
	}
	stop := t.StopReason
	if stop == "" {
		stop = "end_turn"
		if len(t.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	sw.event("message_delta", map[string]any{
		"type":  "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": u.OutputTokens},
	})
	sw.event("message_stop", map[string]any{"type": "message_stop"})
}

// anthropicText streams the text block at index, and the faults that come
// with text. It reports whether the stream goes on.
func anthropicText(sw *sse, t Turn, index int) bool {
	if t.Text != "" {
		sw.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}})
	}
	goesOn := playText(sw, t, func(piece string) {
		sw.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
			"delta": map[string]any{"type": "text_delta", "text": piece}})
	}, func(msg string) {
		sw.event("error", map[string]any{"type": "error", "error": map[string]any{"type": t.ErrorEvent, "message": msg}})
	})
	if goesOn && t.Text != "" {
		sw.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
	}
	return goesOn
}

// anthropicToolUse streams one tool_use block, its input in partial JSON
// chunks after the empty first chunk the API sends.
func anthropicToolUse(sw *sse, tc ToolCall, index int, fallbackID string) {
	id := tc.ID
	if id == "" {
		id = fallbackID
	}
	sw.event("content_block_start", map[string]any{"type": "content_block_start", "index": index,
		"content_block": map[string]any{"type": "tool_use", "id": id, "name": tc.Name, "input": map[string]any{}}})
	for _, piece := range append([]string{""}, split(tc.input(), 3)...) {
		sw.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
	}
	sw.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": index})
}

func (anthropicWire) toolResults(req Request) []ToolResultSeen {
	var out []ToolResultSeen
	for _, raw := range req.Messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil || m.Role != "user" {
			continue
		}
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // plain string content
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out = append(out, ToolResultSeen{ToolUseID: b.ToolUseID, Content: contentText(b.Content), IsError: b.IsError})
			}
		}
	}
	return out
}
