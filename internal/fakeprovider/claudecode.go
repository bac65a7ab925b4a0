package fakeprovider

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// What Claude Code sends besides model calls, as observed with 2.1.197 and
// 2.1.330 in -p mode with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1:
// 2.1.197 sends HEAD / before its first model call (a connection warm-up;
// 2.1.330 sends HEAD /api/hello unless nonessential traffic is disabled).
// Neither counted tokens there, but count_tokens is part of the API and
// cheap to answer. These side requests are answered at once, never take a
// scripted turn and are kept apart from Requests, so a test counts model
// calls the same way on every client version.

// sideRequest answers req when it is one of the Anthropic API's side
// requests and reports whether it was.
func (s *Server) sideRequest(w http.ResponseWriter, req Request) bool {
	if _, ok := s.wire.(anthropicWire); !ok {
		return false
	}
	switch {
	case (req.Method == http.MethodHead || req.Method == http.MethodGet) && (req.Path == "/" || req.Path == "/api/hello"):
		s.recordSide(req)
		w.WriteHeader(http.StatusOK)
	case req.Method == http.MethodPost && req.Path == "/v1/messages/count_tokens":
		n := s.recordSide(req)
		if !json.Valid(req.Body) {
			s.wire.writeError(w, http.StatusBadRequest, "fakeprovider: the request body is not valid JSON", n)
			return true
		}
		w.Header().Set("content-type", "application/json")
		w.Header().Set("request-id", requestID(n))
		// About four bytes a token, as a rough tokenizer would count.
		fmt.Fprintf(w, `{"input_tokens":%d}`+"\n", len(req.Body)/4+1)
	default:
		return false
	}
	return true
}

// recordSide logs a side request and numbers it after the model calls,
// for its request id.
func (s *Server) recordSide(req Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.side = append(s.side, req)
	return len(s.requests) + len(s.side)
}

// SideRequests returns the requests that were not model calls (Claude
// Code's connection checks, token counts, OpenCode's title request), in
// order.
func (s *Server) SideRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.side...)
}

// After returns what the model was shown after the tool result with id
// toolUseID in the last request that carried it: the text blocks that
// follow it in its own message, then the text of every later message, each
// prefixed by its role ("user: ", "system: ", "assistant: "). Claude Code
// puts a hook's additionalContext there: 2.1.197 as a text block beside the
// tool result, 2.1.330 as a separate system message. ok is false when no
// request carried the tool result.
func (s *Server) After(toolUseID string) (texts []string, ok bool) {
	reqs := s.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if texts, ok := after(reqs[i], toolUseID); ok {
			return texts, true
		}
	}
	return nil, false
}

func after(req Request, toolUseID string) ([]string, bool) {
	found := false
	var texts []string
	for _, raw := range req.Messages {
		var m struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &m) != nil {
			continue
		}
		var blocks []struct {
			Type      string `json:"type"`
			Text      string `json:"text"`
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			if found {
				texts = append(texts, m.Role+": "+contentText(m.Content))
			}
			continue
		}
		for _, b := range blocks {
			switch {
			case b.Type == "tool_result" && b.ToolUseID == toolUseID:
				found = true
			case found && b.Type == "text":
				texts = append(texts, m.Role+": "+b.Text)
			}
		}
	}
	return texts, found
}
