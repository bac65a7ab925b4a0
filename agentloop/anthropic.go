package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/anthropics/anthropic-sdk-go/packages/param"
)

// DefaultAnthropicModel is the model Anthropic calls when none is
// configured: the current Sonnet.
const DefaultAnthropicModel = anthropic.ModelClaudeSonnet5_5

var anthropicWording = wording{
	provider: "anthropic",
	keyEnv:   "ANTHROPIC_API_KEY",
	baseEnv:  "ANTHROPIC_BASE_URL",
	format:   "Anthropic Messages",
}

// Anthropic is the Anthropic Messages API, through the official SDK, with
// streaming. The SDK retries 408/409/429/5xx/529 and connection errors
// before the stream starts, honouring retry-after-ms and retry-after up
// to maxRetryAfter (observe refuses longer waits).
type Anthropic struct {
	opts       []option.RequestOption // for anthropic.NewMessageService, at each call
	model      string
	cfg        ProviderConfig
	maxRetries int
	// wait is the pause before a repeated stream; tests shorten it.
	wait func(n int) time.Duration
}

var _ Provider = (*Anthropic)(nil)

// NewAnthropic returns the Anthropic provider for cfg.
func NewAnthropic(cfg ProviderConfig) *Anthropic {
	p := &Anthropic{model: cfg.Model, cfg: cfg, maxRetries: cfg.retries(), wait: backoff}
	if p.model == "" {
		p.model = DefaultAnthropicModel
	}
	// WithoutEnvironmentDefaults: the SDK would otherwise read
	// ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, profiles
	// and custom headers behind the configuration's back. With it,
	// anthropic.NewClient adds only WithEnvironmentProduction, given here
	// because only the messages service is built (see stream).
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithoutEnvironmentDefaults(),
		option.WithMaxRetries(p.maxRetries),
		option.WithMiddleware(observe),
		option.WithHTTPClient(cfg.httpClient(defaultAnthropicIdle)),
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	p.opts = opts[:len(opts):len(opts)] // full: the SDK appends per-call options
	return p
}

// Name returns "anthropic".
func (p *Anthropic) Name() string { return "anthropic" }

// Model returns the model the provider calls.
func (p *Anthropic) Model() string { return p.model }

// Complete sends req and streams the reply, passing each text delta to
// onText as it arrives.
func (p *Anthropic) Complete(ctx context.Context, req Request, onText func(string)) (Response, error) {
	params := p.params(req)
	return runStreamCall(ctx, anthropicWording, p.maxRetries, p.wait, func(ctx context.Context) (Response, bool, error) {
		return p.stream(ctx, params, onText)
	})
}

// stream makes one streamed request (with the SDK's retries beneath it)
// and accumulates the reply. emitted reports whether onText was called.
//
// The SDK's accumulator replaces tool input that is not valid JSON with
// {}, so the model would be told its input lacked every field and the
// journal would lose what it sent. The partial JSON of each block is
// therefore also kept here, as sent, and wins (see fromAnthropic).
func (p *Anthropic) stream(ctx context.Context, params anthropic.MessageNewParams, onText func(string)) (resp Response, emitted bool, err error) {
	// The messages service, built here rather than kept in p, and no
	// anthropic.Client: were anything to call methods by name (a template
	// engine, README "Development"), the linker would keep every exported
	// method of every type reachable from one converted to an interface
	// (as *Anthropic is, to Provider). A Client in p then kept every
	// service of the whole API, about 10 MB of the binary for APIs askuser
	// never calls; a service in p, its batch API.
	svc := anthropic.NewMessageService(p.opts...)
	stream := svc.NewStreaming(ctx, params)
	defer stream.Close()
	var msg anthropic.Message
	inputs := map[int64]*strings.Builder{}
	complete := false
	for stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return Response{}, emitted, &malformedError{err}
		}
		switch ev.Type {
		case "content_block_delta":
			if ev.Delta.Type == "text_delta" && ev.Delta.Text != "" && onText != nil {
				onText(ev.Delta.Text)
				emitted = true
			}
			if ev.Delta.Type == "input_json_delta" {
				if inputs[ev.Index] == nil {
					inputs[ev.Index] = &strings.Builder{}
				}
				inputs[ev.Index].WriteString(ev.Delta.PartialJSON)
			}
		case "message_stop":
			complete = true
		}
	}
	if err := stream.Err(); err != nil {
		return Response{}, emitted, anthropicStreamError(err)
	}
	if !complete {
		return Response{}, emitted, incomplete(ctx)
	}
	return fromAnthropic(msg, inputs), emitted, nil
}

// anthropicStreamError tells the failures found inside a started stream
// apart: an SSE error event arrives as an SDK *Error with the stream's 200
// status, and undecodable JSON as a syntax error. Others pass through.
func anthropicStreamError(err error) error {
	var aerr *anthropic.Error
	if errors.As(err, &aerr) && aerr.StatusCode < 400 {
		return &streamEventError{Type: bounded(string(aerr.Type())), Message: errorMessage([]byte(aerr.RawJSON()), 0)}
	}
	if data, ok := strings.CutPrefix(err.Error(), "received error while streaming: "); ok {
		// an error event whose data the SDK could not decode
		return &malformedError{fmt.Errorf("an error event that is not an error object: %s", bounded(data))}
	}
	return asMalformed(err)
}

// params maps a neutral request to the SDK's.
func (p *Anthropic) params(req Request) anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     p.model,
		MaxTokens: p.cfg.maxTokens(req),
		Messages:  make([]anthropic.MessageParam, 0, len(req.Messages)),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, m := range req.Messages {
		params.Messages = append(params.Messages, toAnthropicMessage(m))
	}
	for _, t := range req.Tools {
		tool := anthropic.ToolParam{
			Name: t.Name,
			// Override sends the schema byte for byte, instead of through the
			// SDK's properties/required fields, which would drop the rest.
			InputSchema: param.Override[anthropic.ToolInputSchemaParam](schemaOrEmpty(t.InputSchema)),
		}
		if t.Description != "" {
			tool.Description = anthropic.String(t.Description)
		}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tool})
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

func toAnthropicMessage(m Message) anthropic.MessageParam {
	out := anthropic.MessageParam{Role: anthropic.MessageParamRole(m.Role)}
	for _, b := range m.Content {
		switch b.Type {
		case BlockText:
			if b.Text != "" { // the API rejects empty text blocks
				out.Content = append(out.Content, anthropic.NewTextBlock(b.Text))
			}
		case BlockToolUse:
			out.Content = append(out.Content, anthropic.NewToolUseBlock(b.ID, anthropicInput(b.Input), b.Name))
		case BlockToolResult:
			res := anthropic.ToolResultBlockParam{ToolUseID: b.ToolUseID}
			if b.Content != "" {
				res.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: b.Content}}}
			}
			if b.IsError {
				res.IsError = anthropic.Bool(true)
			}
			out.Content = append(out.Content, anthropic.ContentBlockParamUnion{OfToolResult: &res})
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

// fromAnthropic maps the accumulated reply to a neutral Response. Blocks
// the loop has no use for (thinking, server tools) are left out. inputs
// holds the streamed tool input of each block, by index: a tool_use's
// Input is made from it (see toolInput), so input that is not valid JSON
// reaches the loop verbatim, as a JSON string.
func fromAnthropic(msg anthropic.Message, inputs map[int64]*strings.Builder) Response {
	resp := Response{
		ID:         msg.ID,
		Message:    Message{Role: RoleAssistant, Content: []Block{}},
		StopReason: string(msg.StopReason),
		Usage: Usage{
			InputTokens:              msg.Usage.InputTokens,
			OutputTokens:             msg.Usage.OutputTokens,
			CacheCreationInputTokens: msg.Usage.CacheCreationInputTokens,
			CacheReadInputTokens:     msg.Usage.CacheReadInputTokens,
		},
	}
	for i, b := range msg.Content {
		switch b.Type {
		case BlockText:
			resp.Message.Content = append(resp.Message.Content, Block{Type: BlockText, Text: b.Text})
		case BlockToolUse:
			input := b.Input
			if raw := inputs[int64(i)]; raw != nil && raw.Len() > 0 {
				input = toolInput(raw.String())
			} else if len(input) == 0 {
				input = json.RawMessage(`{}`)
			}
			resp.Message.Content = append(resp.Message.Content, Block{Type: BlockToolUse, ID: b.ID, Name: b.Name, Input: input})
		}
	}
	return resp
}
