package fakeprovider

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Request is one request the server received: the raw body and the fields
// tests look at, decoded from it.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	// Time is when the request arrived, so a test can check a client
	// waited as asked before retrying.
	Time time.Time

	Model string
	// System is the system prompt: Anthropic's system field (a string or
	// text blocks, joined), or the text of OpenAI's system/developer
	// messages joined by "\n".
	System string
	// Messages are the messages exactly as sent (for OpenAI, including the
	// system message).
	Messages []json.RawMessage
	// Tools are the tools exactly as sent.
	Tools []json.RawMessage
	// MaxTokens is max_tokens, or OpenAI's max_completion_tokens.
	MaxTokens int64
	Stream    bool
	// IncludeUsage is OpenAI's stream_options.include_usage.
	IncludeUsage bool
}

// ToolNames returns the names of the tools offered, in order. A function
// inside a Responses API namespace is listed as "namespace.function"
// (Codex's "mcp__askuser.AskUserQuestion").
func (r Request) ToolNames() []string {
	var names []string
	for _, t := range r.tools() {
		names = append(names, t.name)
	}
	return names
}

// ToolSchema returns the input schema sent for the named tool (Anthropic
// input_schema, OpenAI function.parameters, Responses parameters, Gemini
// parametersJsonSchema or parameters), or nil. name is as ToolNames lists
// it.
func (r Request) ToolSchema(name string) json.RawMessage {
	for _, t := range r.tools() {
		if t.name == name {
			return t.schema
		}
	}
	return nil
}

// offered is one tool as ToolNames and ToolSchema see it.
type offered struct {
	name   string
	schema json.RawMessage
}

// tools decodes the tools of any of the APIs, flattening namespaces.
func (r Request) tools() []offered {
	var out []offered
	for _, raw := range r.Tools {
		var t toolJSON
		if json.Unmarshal(raw, &t) != nil {
			continue
		}
		switch {
		case t.Function != nil:
			out = append(out, offered{t.Function.Name, t.Function.Parameters})
		case t.Type == "namespace":
			for _, f := range t.Tools {
				out = append(out, offered{t.Name + "." + f.Name, f.Parameters})
			}
		default:
			out = append(out, offered{t.Name, firstSet(t.InputSchema, t.Parameters, t.ParametersJSONSchema)})
		}
	}
	return out
}

// toolJSON decodes a tool of any of the APIs.
type toolJSON struct {
	Type                 string          `json:"type"`
	Name                 string          `json:"name"`
	InputSchema          json.RawMessage `json:"input_schema"`
	Parameters           json.RawMessage `json:"parameters"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
	Function             *struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"function"`
	// Tools are a Responses API namespace's functions.
	Tools []struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"tools"`
}

func firstSet(raws ...json.RawMessage) json.RawMessage {
	for _, raw := range raws {
		if len(raw) > 0 {
			return raw
		}
	}
	return nil
}

// ToolResultSeen is a tool result the client sent: an Anthropic
// tool_result block or an OpenAI tool message.
type ToolResultSeen struct {
	// Request is the index in Requests of the first request that carried it.
	Request   int
	ToolUseID string
	Content   string
	// IsError is Anthropic's is_error; OpenAI tool messages have no such
	// flag, so it is always false there.
	IsError bool
}

// ToolResults returns the tool results seen in requests, in order. Every
// request repeats the conversation so far, so each distinct result
// (id, content, error flag) is listed once, from the request that first
// carried it; a client that changed a result it had already sent shows up
// as a second entry.
func (s *Server) ToolResults() []ToolResultSeen {
	seen := map[ToolResultSeen]bool{}
	var out []ToolResultSeen
	for i, req := range s.Requests() {
		for _, tr := range s.wire.toolResults(req) {
			key := tr
			key.Request = 0
			if seen[key] {
				continue
			}
			seen[key] = true
			tr.Request = i
			out = append(out, tr)
		}
	}
	return out
}

// contentText flattens message content that is either a JSON string or an
// array of text parts ({"type":"text","text":…}; the Responses API's
// input_text and output_text).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		if p.Type == "text" || p.Type == "input_text" || p.Type == "output_text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}
