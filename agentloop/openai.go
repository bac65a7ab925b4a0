package agentloop

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"
)

// DefaultOpenAIModel is the model OpenAI calls when none is configured.
const DefaultOpenAIModel = shared.ChatModelGPT4_1

var openaiWording = wording{
	provider: "openai",
	keyEnv:   "OPENAI_API_KEY",
	baseEnv:  "OPENAI_BASE_URL",
	format:   "OpenAI Chat Completions",
}

// OpenAI is the OpenAI Chat Completions API, or any server compatible with
// it (Ollama, vLLM, llama.cpp, LM Studio at a base URL such as
// http://localhost:11434/v1), through the official SDK (v3), with
// streaming. Such servers need no key: with an empty APIKey no
// Authorization header is sent. The SDK retries 408/409/429/5xx and
// connection errors before the stream starts, honouring x-should-retry,
// and retry-after-ms and retry-after up to maxRetryAfter (observe refuses
// longer waits), and stops waiting when the context ends.
type OpenAI struct {
	opts       []option.RequestOption // for openai.NewChatCompletionService, at each call
	model      string
	cfg        ProviderConfig
	maxRetries int
	// wait is the pause before a repeated stream; tests shorten it.
	wait func(n int) time.Duration
}

var _ Provider = (*OpenAI)(nil)

// NewOpenAI returns the OpenAI provider for cfg.
func NewOpenAI(cfg ProviderConfig) *OpenAI {
	p := &OpenAI{model: cfg.Model, cfg: cfg, maxRetries: cfg.retries(), wait: backoff}
	if p.model == "" {
		p.model = DefaultOpenAIModel
	}
	// The service is built without openai.NewClient, which would read
	// OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID
	// behind the configuration's back (and send a stray key to a local
	// server).
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithMaxRetries(p.maxRetries),
		option.WithMiddleware(observe),
		option.WithHTTPClient(cfg.httpClient(defaultOpenAIIdle)),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	// A full slice: the SDK appends per-call options to this slice, which
	// would share its spare capacity between concurrent calls.
	p.opts = opts[:len(opts):len(opts)]
	return p
}

// Name returns "openai".
func (p *OpenAI) Name() string { return "openai" }

// Model returns the model the provider calls.
func (p *OpenAI) Model() string { return p.model }

// Complete sends req and streams the reply, passing each text delta to
// onText as it arrives.
func (p *OpenAI) Complete(ctx context.Context, req Request, onText func(string)) (Response, error) {
	params := p.params(req)
	ids := newCallIDs(req)
	return runStreamCall(ctx, openaiWording, p.maxRetries, p.wait, func(ctx context.Context) (Response, bool, error) {
		return p.stream(ctx, params, ids, onText)
	})
}

// stream makes one streamed request (with the SDK's retries beneath it) and
// accumulates the reply by hand (see openaiAccumulator). emitted reports
// whether onText was called.
func (p *OpenAI) stream(ctx context.Context, params openai.ChatCompletionNewParams, ids *callIDs, onText func(string)) (resp Response, emitted bool, err error) {
	// Built here rather than kept in p, for the size of the binary (see
	// Anthropic.stream).
	svc := openai.NewChatCompletionService(p.opts...)
	stream := svc.NewStreaming(ctx, params)
	defer stream.Close()
	var acc openaiAccumulator
	for stream.Next() {
		if text := acc.add(stream.Current()); text != "" && onText != nil {
			onText(text)
			emitted = true
		}
	}
	if err := stream.Err(); err != nil {
		return Response{}, emitted, openaiStreamError(err)
	}
	if acc.finish == "" {
		return Response{}, emitted, incomplete(ctx)
	}
	return acc.response(ids), emitted, nil
}

// params maps a neutral request to the SDK's.
func (p *OpenAI) params(req Request) openai.ChatCompletionNewParams {
	params := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(p.model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	// OpenAI's current models take only max_completion_tokens; the
	// compatible servers know max_tokens, and not all of them the other.
	if p.cfg.BaseURL == "" {
		params.MaxCompletionTokens = openai.Int(p.cfg.maxTokens(req))
	} else {
		params.MaxTokens = openai.Int(p.cfg.maxTokens(req))
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		params.Messages = append(params.Messages, toOpenAIMessages(m)...)
	}
	for _, t := range req.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: openaiSchema(t.InputSchema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	return params
}

// openaiSchema is a tool's input schema as the SDK's parameters map.
func openaiSchema(s json.RawMessage) shared.FunctionParameters {
	var m shared.FunctionParameters
	if json.Unmarshal(s, &m) != nil || m == nil {
		return shared.FunctionParameters{"type": "object", "properties": map[string]any{}}
	}
	return m
}

// toOpenAIMessages maps one neutral message. A user message's tool results
// become one "tool" message each, first, since they must directly follow
// the assistant message that made the calls; its text follows as a user
// message. An assistant message's tool_use blocks become its tool_calls.
func toOpenAIMessages(m Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	var text []string
	var calls []openai.ChatCompletionMessageToolCallUnionParam
	for _, b := range m.Content {
		switch b.Type {
		case BlockText:
			if b.Text != "" {
				text = append(text, b.Text)
			}
		case BlockToolResult:
			out = append(out, openai.ToolMessage(b.Content, b.ToolUseID))
		case BlockToolUse:
			calls = append(calls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       b.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: b.Name, Arguments: openaiArguments(b.Input)},
			}})
		}
	}
	joined := strings.Join(text, "\n")
	if m.Role == RoleAssistant {
		msg := openai.ChatCompletionAssistantMessageParam{ToolCalls: calls}
		if joined != "" || len(calls) == 0 {
			msg.Content.OfString = param.NewOpt(joined)
		}
		return append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &msg})
	}
	if joined != "" {
		out = append(out, openai.UserMessage(joined))
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
