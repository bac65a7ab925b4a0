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

// DefaultAnthropicModel is the model Anthropic calls when none is
// configured: the current Sonnet.
const DefaultAnthropicModel = "claude-sonnet-5-5"

// defaultAnthropicBaseURL is Anthropic's own API.
const defaultAnthropicBaseURL = "https://api.anthropic.com/"

// anthropicVersion is the API version every request names, as the
// official SDKs name it.
const anthropicVersion = "2023-06-01"

var anthropicWording = wording{
	provider: "anthropic",
	keyEnv:   "ANTHROPIC_API_KEY",
	baseEnv:  "ANTHROPIC_BASE_URL",
	format:   "Anthropic Messages",
}

// Anthropic is the Anthropic Messages API, streamed.
//
// It speaks the wire format itself (postJSON, sseReader,
// anthropicAccumulator), as the OpenAI-compatible provider does, rather
// than through the official SDK: askuser calls one endpoint, and the SDK
// (anthropic-sdk-go v1.84) linked OpenTelemetry, gjson and sjson, a JSON
// Schema reflector, YAML and webhook signing with it, 29 package
// initialisers run at every start of every askuser process
// (docs/development.md). The requests are the SDK's, byte for byte, with the same
// x-api-key and anthropic-version headers; the retries are the SDKs':
// 408/409/429/5xx and connection errors before the stream starts,
// honouring x-should-retry, and retry-after-ms and retry-after up to
// maxRetryAfter (observe refuses longer waits); waiting stops when the
// context ends.
type Anthropic struct {
	url        string
	header     http.Header
	client     *http.Client
	model      string
	cfg        ProviderConfig
	maxRetries int
	// wait is the pause before a repeated stream; tests shorten it.
	wait func(n int) time.Duration
}

var _ Provider = (*Anthropic)(nil)

// NewAnthropic returns the Anthropic provider for cfg. It reads nothing
// from the environment (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN,
// ANTHROPIC_BASE_URL…): the wiring resolves the key and the base URL.
func NewAnthropic(cfg ProviderConfig) *Anthropic {
	p := &Anthropic{model: cfg.Model, cfg: cfg, maxRetries: cfg.retries(), wait: backoff}
	if p.model == "" {
		p.model = DefaultAnthropicModel
	}
	p.url = anthropicEndpoint(cmp.Or(cfg.BaseURL, defaultAnthropicBaseURL))
	// The SDK's headers, less its telemetry (X-Stainless-*) and with
	// askuser's User-Agent, as the OpenAI-compatible provider sends.
	p.header = http.Header{
		"Content-Type":      {"application/json"},
		"Accept":            {"application/json"},
		"User-Agent":        {"askuser"},
		"Anthropic-Version": {anthropicVersion},
	}
	if cfg.APIKey != "" {
		p.header.Set("X-Api-Key", cfg.APIKey)
	}
	p.client = cfg.httpClient(defaultAnthropicIdle)
	return p
}

// anthropicEndpoint is the Messages URL under base, which names the API's
// root, with or without a final slash, as the SDK resolves it: a base
// with a path gets v1/messages under that path; its query is dropped. A
// base that is not a URL is kept as it is, for the request to fail with
// the parser's words.
func anthropicEndpoint(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	if u.Path != "" && !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	ref, err := u.Parse("v1/messages")
	if err != nil {
		return base
	}
	return ref.String()
}

// Name returns "anthropic".
func (p *Anthropic) Name() string { return "anthropic" }

// Model returns the model the provider calls.
func (p *Anthropic) Model() string { return p.model }

// Complete sends req and streams the reply, passing each text delta to
// onText as it arrives.
func (p *Anthropic) Complete(ctx context.Context, req Request, onText func(string)) (Response, error) {
	body, err := json.Marshal(p.params(req))
	if err != nil {
		return Response{}, &ProviderError{Provider: "anthropic", Err: err, Message: "the request could not be encoded: " + err.Error()}
	}
	return runStreamCall(ctx, anthropicWording, p.maxRetries, p.wait, func(ctx context.Context) (Response, bool, error) {
		return p.stream(ctx, body, onText)
	})
}

// stream makes one streamed request (with the HTTP retries beneath it)
// and accumulates the reply (see anthropicAccumulator). emitted reports
// whether onText was called.
//
// Events are told apart as the SDK told them: by the SSE event name for
// ping and error (and an event without a name is skipped), by the type in
// their data for the rest, so a proxy that names events loosely still
// works. The stream is read to its end, message_stop or not.
func (p *Anthropic) stream(ctx context.Context, body []byte, onText func(string)) (resp Response, emitted bool, err error) {
	res, err := postJSON(ctx, p.client, p.url, p.header, body, p.maxRetries)
	if err != nil {
		return Response{}, false, err
	}
	defer res.Body.Close()
	events := newSSEReader(res.Body)
	var acc anthropicAccumulator
	for {
		data, err := events.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Response{}, emitted, err
		}
		switch events.name {
		case "", "ping":
			continue
		case "error":
			return Response{}, emitted, anthropicEventError(data)
		}
		if len(bytes.TrimSuffix(data, []byte("\n"))) == 0 {
			continue
		}
		text, err := acc.add(data)
		if err != nil {
			return Response{}, emitted, err
		}
		if text != "" && onText != nil {
			onText(text)
			emitted = true
		}
	}
	if !acc.complete {
		return Response{}, emitted, incomplete(ctx)
	}
	return acc.response(), emitted, nil
}

// anthropicEventError is the error of an SSE error event inside a started
// stream: its error.type, and the message its data holds (errorMessage
// reads the API's error object, else the data's first line).
func anthropicEventError(data []byte) error {
	var e struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &e) // data that is no error object has no type
	return &streamEventError{Type: bounded(e.Error.Type), Message: errorMessage(bytes.TrimSpace(data), 0)}
}
