package agentloop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Roles of a message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Block types.
const (
	BlockText       = "text"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
)

// Message is one message of the conversation. Its JSON is the Anthropic
// Messages API shape (and Claude Code's stream-json "message" field).
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Block is one content block of a message.
type Block struct {
	Type string `json:"type"`
	// Text is the text of a text block.
	Text string `json:"text,omitempty"`
	// ID, Name and Input describe a tool_use block. Input is the raw JSON
	// the model sent; when a provider delivered arguments that are not
	// valid JSON, Input is a JSON string holding them verbatim.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID, Content and IsError describe a tool_result block.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
}

// Text returns the concatenated text blocks of m.
func (m Message) Text() string {
	var parts []string
	for _, b := range m.Content {
		if b.Type == BlockText && b.Text != "" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolUses returns the tool_use blocks of m, in order.
func (m Message) ToolUses() []Block {
	var out []Block
	for _, b := range m.Content {
		if b.Type == BlockToolUse {
			out = append(out, b)
		}
	}
	return out
}

// Usage counts tokens, in Claude Code's result shape.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
}

// Add accumulates u2 into u.
func (u *Usage) Add(u2 Usage) {
	u.InputTokens += u2.InputTokens
	u.OutputTokens += u2.OutputTokens
	u.CacheCreationInputTokens += u2.CacheCreationInputTokens
	u.CacheReadInputTokens += u2.CacheReadInputTokens
}

// Request is one call to a model.
type Request struct {
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int64
}

// Response is the model's reply to a Request.
type Response struct {
	// ID is the provider's message id, when it gives one.
	ID string
	// Message is the assistant message (role assistant).
	Message Message
	// StopReason is normalised to Anthropic's vocabulary: end_turn,
	// tool_use, max_tokens, stop_sequence, refusal.
	StopReason string
	Usage      Usage
}

// Provider is a model behind an API. Complete sends the conversation and
// streams the reply: onText receives text as it arrives (it may be nil).
// Implementations retry rate limits, overload, 5xx and network errors with
// backoff before giving up with a *ProviderError.
type Provider interface {
	// Name is the provider's name: anthropic, openai or script.
	Name() string
	// Model is the model the provider calls.
	Model() string
	Complete(ctx context.Context, req Request, onText func(string)) (Response, error)
}

// ProviderError is a provider failure after retries, worded for a person.
type ProviderError struct {
	Provider string
	// Status is the HTTP status, 0 for a network or stream failure.
	Status int
	// Message is what the provider said, or what went wrong.
	Message string
	// Hint says what to check.
	Hint string
	Err  error
}

func (e *ProviderError) Error() string {
	s := e.Provider
	if e.Status != 0 {
		s += fmt.Sprintf(": HTTP %d", e.Status)
	}
	s += ": " + e.Message
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

func (e *ProviderError) Unwrap() error { return e.Err }
