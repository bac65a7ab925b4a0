package agentloop

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// DefaultOpenAIModel is the model OpenAI calls when none is configured.
const DefaultOpenAIModel = "gpt-4.1"

// defaultOpenAIBaseURL is OpenAI's own API.
const defaultOpenAIBaseURL = "https://api.openai.com/v1"

var openaiWording = wording{
	provider: "openai",
	keyEnv:   "OPENAI_API_KEY",
	baseEnv:  "OPENAI_BASE_URL",
	format:   "OpenAI Chat Completions",
}

// OpenAI is the OpenAI Chat Completions API, or any server compatible with
// it (Ollama, vLLM, llama.cpp, LM Studio at a base URL such as
// http://localhost:11434/v1), streamed. Such servers need no key: with an
// empty APIKey no Authorization header is sent.
//
// It speaks the wire format itself (postJSON, sseReader, openaiAccumulator)
// rather than through the official SDK: askuser calls one endpoint of an
// API whose Go SDK (v3) links all of it, 21 MB of a 52 MB binary,
// and the largest of its package initialisers at every start
// (docs/development.md). The retries are the SDKs': 408/409/429/5xx and
// connection errors before the stream starts, honouring x-should-retry,
// and retry-after-ms and retry-after up to maxRetryAfter (observe refuses
// longer waits); waiting stops when the context ends.
type OpenAI struct {
	url        string
	header     http.Header
	client     *http.Client
	model      string
	cfg        ProviderConfig
	maxRetries int
	// wait is the pause before a repeated stream; tests shorten it.
	wait func(n int) time.Duration
}

var _ Provider = (*OpenAI)(nil)

// NewOpenAI returns the OpenAI provider for cfg. It reads nothing from the
// environment (OPENAI_API_KEY, OPENAI_ORG_ID…): the wiring resolves the
// key and the base URL, so no stray key reaches a local server.
func NewOpenAI(cfg ProviderConfig) *OpenAI {
	p := &OpenAI{model: cfg.Model, cfg: cfg, maxRetries: cfg.retries(), wait: backoff}
	if p.model == "" {
		p.model = DefaultOpenAIModel
	}
	p.url = openaiEndpoint(cmp.Or(cfg.BaseURL, defaultOpenAIBaseURL))
	p.header = http.Header{
		"Content-Type": {"application/json"},
		"Accept":       {"text/event-stream"},
		"User-Agent":   {"askuser"},
	}
	if cfg.APIKey != "" {
		p.header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	p.client = cfg.httpClient(defaultOpenAIIdle)
	return p
}

// openaiEndpoint is the Chat Completions URL under base, which names the
// API's root (…/v1), with or without a final slash. A base that is not a
// URL is kept as it is, for the request to fail with the parser's words.
func openaiEndpoint(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/chat/completions"
	u.RawPath = ""
	return u.String()
}

// Name returns "openai".
func (p *OpenAI) Name() string { return "openai" }

// Model returns the model the provider calls.
func (p *OpenAI) Model() string { return p.model }

// Complete sends req and streams the reply, passing each text delta to
// onText as it arrives.
func (p *OpenAI) Complete(ctx context.Context, req Request, onText func(string)) (Response, error) {
	body, err := json.Marshal(p.params(req))
	if err != nil {
		return Response{}, &ProviderError{Provider: "openai", Err: err, Message: "the request could not be encoded: " + err.Error()}
	}
	ids := newCallIDs(req)
	return runStreamCall(ctx, openaiWording, p.maxRetries, p.wait, func(ctx context.Context) (Response, bool, error) {
		return p.stream(ctx, body, ids, onText)
	})
}

// stream makes one streamed request (with the HTTP retries beneath it)
// and accumulates the reply (see openaiAccumulator). emitted reports
// whether onText was called.
func (p *OpenAI) stream(ctx context.Context, body []byte, ids *callIDs, onText func(string)) (resp Response, emitted bool, err error) {
	res, err := postJSON(ctx, p.client, p.url, p.header, body, p.maxRetries)
	if err != nil {
		return Response{}, false, err
	}
	defer res.Body.Close()
	events := newSSEReader(res.Body)
	var acc openaiAccumulator
	for {
		data, err := events.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Response{}, emitted, err
		}
		if bytes.HasPrefix(data, []byte("[DONE]")) {
			break
		}
		var chunk openaiChunk
		if err := json.Unmarshal(data, &chunk); err != nil {
			return Response{}, emitted, asMalformed(err)
		}
		if len(chunk.Error) > 0 && string(chunk.Error) != "null" {
			return Response{}, emitted, openaiEventError(chunk.Error)
		}
		if text := acc.add(chunk); text != "" && onText != nil {
			onText(text)
			emitted = true
		}
	}
	if acc.finish == "" {
		return Response{}, emitted, incomplete(ctx)
	}
	return acc.response(ids), emitted, nil
}

// openaiEventError is the error of a `data: {"error": …}` line inside a
// started stream: an error object, or a bare string.
func openaiEventError(raw json.RawMessage) error {
	var e struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	var s string
	switch {
	case json.Unmarshal(raw, &s) == nil:
		e.Message = s // {"error": "text"}
	case json.Unmarshal(raw, &e) != nil:
		e.Message = string(raw)
	}
	if e.Type == "" {
		e.Type = "server_error"
	}
	return &streamEventError{Type: bounded(e.Type), Message: bounded(e.Message)}
}

// chatRequest is the body of a streamed Chat Completions request. The
// fields of it and of its parts come in the order the official SDK (v3)
// wrote them, so servers and the tests see the same bytes.
type chatRequest struct {
	Messages []chatMessage `json:"messages"`
	Model    string        `json:"model"`
	// OpenAI's current models take only max_completion_tokens; the
	// compatible servers know max_tokens, and not all of them the other.
	MaxCompletionTokens int64 `json:"max_completion_tokens,omitempty"`
	MaxTokens           int64 `json:"max_tokens,omitempty"`
	StreamOptions       struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools  []chatTool `json:"tools,omitempty"`
	Stream bool       `json:"stream"`
}

// chatMessage is a system, user, assistant or tool message. Content is a
// pointer so that an assistant message made only of tool calls leaves it
// out, while an empty reply still sends "".
type chatMessage struct {
	Content    *string        `json:"content,omitempty"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	Role       string         `json:"role"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Arguments string `json:"arguments"`
		Name      string `json:"name"`
	} `json:"function"`
	Type string `json:"type"`
}

type chatTool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
	Type string `json:"type"`
}

// params maps a neutral request to the API's.
func (p *OpenAI) params(req Request) chatRequest {
	params := chatRequest{Model: p.model, Stream: true}
	params.StreamOptions.IncludeUsage = true
	if p.cfg.BaseURL == "" {
		params.MaxCompletionTokens = p.cfg.maxTokens(req)
	} else {
		params.MaxTokens = p.cfg.maxTokens(req)
	}
	if req.System != "" {
		params.Messages = append(params.Messages, chatMessage{Role: "system", Content: &req.System})
	}
	for _, m := range req.Messages {
		params.Messages = append(params.Messages, toOpenAIMessages(m)...)
	}
	for _, t := range req.Tools {
		tool := chatTool{Type: "function"}
		tool.Function.Name, tool.Function.Description = t.Name, t.Description
		tool.Function.Parameters = openaiSchema(t.InputSchema)
		params.Tools = append(params.Tools, tool)
	}
	return params
}

// openaiSchema is a tool's input schema as the parameters object: the
// schema itself when it is a JSON object, else that of a tool without
// arguments.
func openaiSchema(s json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(s); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return t
	}
	return json.RawMessage(`{"type":"object","properties":{}}`)
}

// toOpenAIMessages maps one neutral message. A user message's tool results
// become one "tool" message each, first, since they must directly follow
// the assistant message that made the calls; its text follows as a user
// message. An assistant message's tool_use blocks become its tool_calls.
func toOpenAIMessages(m Message) []chatMessage {
	var out []chatMessage
	var text []string
	var calls []chatToolCall
	for _, b := range m.Content {
		switch b.Type {
		case BlockText:
			if b.Text != "" {
				text = append(text, b.Text)
			}
		case BlockToolResult:
			out = append(out, chatMessage{Role: "tool", Content: &b.Content, ToolCallID: b.ToolUseID})
		case BlockToolUse:
			call := chatToolCall{ID: b.ID, Type: "function"}
			call.Function.Name, call.Function.Arguments = b.Name, openaiArguments(b.Input)
			calls = append(calls, call)
		}
	}
	joined := strings.Join(text, "\n")
	if m.Role == RoleAssistant {
		msg := chatMessage{Role: "assistant", ToolCalls: calls}
		if joined != "" || len(calls) == 0 {
			msg.Content = &joined
		}
		return append(out, msg)
	}
	if joined != "" {
		out = append(out, chatMessage{Role: "user", Content: &joined})
	}
	return out
}

// openaiArguments is the arguments string for a tool_use input: the input
// JSON itself, or, when the input is a JSON string (arguments that were
// not JSON, kept verbatim), that string, so they go back as they came.
func openaiArguments(in json.RawMessage) string {
	var s string
	if json.Unmarshal(in, &s) == nil {
		return s
	}
	if len(in) == 0 {
		return "{}"
	}
	return string(in)
}
