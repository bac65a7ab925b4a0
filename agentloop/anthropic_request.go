package agentloop

import (
	"encoding/json"
	"strings"
)

// messagesRequest is the body of a streamed Messages request. Its fields,
// and those of its parts, come in the order the official SDK (v1.84)
// wrote them, so servers and the tests see the same bytes; encoding/json
// escapes and compacts as the SDK did (<, > and & as \u003c…, raw JSON
// compacted, invalid UTF-8 as U+FFFD).
type messagesRequest struct {
	MaxTokens int64              `json:"max_tokens"`
	Messages  []anthropicMessage `json:"messages"`
	Model     string             `json:"model"`
	System    []anthropicContent `json:"system,omitempty"`
	Tools     []anthropicTool    `json:"tools,omitempty"`
	Stream    bool               `json:"stream"`
}

// anthropicMessage is one message; a message left without content (every
// block of it empty text) is sent without the field, as the SDK sent it.
type anthropicMessage struct {
	Content []anthropicContent `json:"content,omitempty"`
	Role    string             `json:"role"`
}

// anthropicContent is a text, tool_use or tool_result block. The field
// order gives each kind the SDK's order: text, type; id, input, name,
// type; tool_use_id, is_error, content, type.
type anthropicContent struct {
	ToolUseID string             `json:"tool_use_id,omitempty"`
	IsError   bool               `json:"is_error,omitempty"`
	Content   []anthropicContent `json:"content,omitempty"`
	ID        string             `json:"id,omitempty"`
	Input     json.RawMessage    `json:"input,omitempty"`
	Name      string             `json:"name,omitempty"`
	Text      string             `json:"text,omitempty"`
	Type      string             `json:"type"`
}

type anthropicTool struct {
	InputSchema json.RawMessage `json:"input_schema"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
}

// params maps a neutral request to the API's.
func (p *Anthropic) params(req Request) messagesRequest {
	params := messagesRequest{
		MaxTokens: p.cfg.maxTokens(req),
		Messages:  make([]anthropicMessage, 0, len(req.Messages)),
		Model:     p.model,
		Stream:    true,
	}
	if req.System != "" {
		params.System = []anthropicContent{{Text: req.System, Type: BlockText}}
	}
	for _, m := range req.Messages {
		params.Messages = append(params.Messages, toAnthropicMessage(m))
	}
	for _, t := range req.Tools {
		// The schema goes as it is (compacted), not rebuilt from known
		// fields, which would drop the rest.
		params.Tools = append(params.Tools, anthropicTool{InputSchema: schemaOrEmpty(t.InputSchema), Name: t.Name, Description: t.Description})
	}
	return params
}

// schemaOrEmpty is the tool's schema, or the schema of a tool without
// arguments.
func schemaOrEmpty(s json.RawMessage) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return s
}

func toAnthropicMessage(m Message) anthropicMessage {
	out := anthropicMessage{Role: m.Role}
	for _, b := range m.Content {
		switch b.Type {
		case BlockText:
			if b.Text != "" { // the API rejects empty text blocks
				out.Content = append(out.Content, anthropicContent{Text: b.Text, Type: BlockText})
			}
		case BlockToolUse:
			out.Content = append(out.Content, anthropicContent{ID: b.ID, Input: anthropicInput(b.Input), Name: b.Name, Type: BlockToolUse})
		case BlockToolResult:
			res := anthropicContent{ToolUseID: b.ToolUseID, IsError: b.IsError, Type: BlockToolResult}
			if b.Content != "" {
				res.Content = []anthropicContent{{Text: b.Content, Type: BlockText}}
			}
			out.Content = append(out.Content, res)
		}
	}
	return out
}

// anthropicInput is a tool_use input the API accepts: it must be a JSON
// object, so the verbatim string of arguments that were not JSON (from
// another provider) becomes an empty object.
func anthropicInput(in json.RawMessage) json.RawMessage {
	trimmed := strings.TrimSpace(string(in))
	if !strings.HasPrefix(trimmed, "{") || !json.Valid(in) {
		return json.RawMessage(`{}`)
	}
	return in
}
