// Package fakeprovider serves scripted model turns over the real wire
// formats of the Anthropic Messages API, the OpenAI Chat Completions API,
// the OpenAI Responses API (as Codex CLI calls it) and the Gemini API (as
// Gemini CLI calls it), on a loopback httptest server, so the providers,
// the agent loop, the built binary and the real MCP hosts can be tested
// (and benchmarked) without a network.
//
// Design and invariants:
//   - A Server plays a script of Turns in order. Each request consumes one
//     turn; a turn with Repeat N serves N consecutive requests. A request
//     that arrives after the script ran out is answered 500 "fakeprovider:
//     no more scripted turns" with x-should-retry: false, so a test that
//     calls the model too often fails loudly and at once.
//   - The wire is the real one: SSE events named and shaped as each API
//     sends them, text split into several deltas, tool input split into
//     partial JSON chunks, usage at the end, error bodies shaped like each
//     API's, with the request-id headers the SDKs read.
//   - Faults are part of the script: an HTTP error status (with
//     retry-after-ms: 1 so SDK retries cost no time, or a retry-after of
//     the test's choosing), a malformed event, a connection dropped
//     mid-stream, a stream that ends cleanly but early, an error event
//     mid-stream, a stream or a response's headers that stall until the
//     client gives up, tool input that is not valid JSON.
//   - Every request is recorded, raw and decoded, so a test asserts exactly
//     what the client sent; ToolResults extracts the tool results from them
//     (tool_result blocks, tool messages, function_call_output items,
//     functionResponse parts).
//   - The Anthropic fake also serves Claude Code (2.1.197 and 2.1.330, in
//     -p mode): its connection checks and token counts are answered without
//     taking a turn and recorded apart (SideRequests), so Requests holds
//     model calls only, on every client version (claudecode.go).
//   - The OpenAI fake answers OpenCode's session-title request apart in
//     the same way (opencode.go), so its turns go to the real calls only.
//   - The package does not import agentloop (agentloop's tests import it),
//     so it has its own small types. A Server is safe for concurrent use.
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package fakeprovider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"time"
)

// Turn is one scripted model reply, or one scripted failure.
type Turn struct {
	// Text is streamed as several deltas (about three chunks).
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// StopReason defaults to "tool_use" when there are tool calls, else
	// "end_turn". For OpenAI the Anthropic names are translated (end_turn →
	// stop, tool_use → tool_calls, max_tokens → length, refusal →
	// content_filter); any other value is sent verbatim, so an OpenAI turn
	// can say "stop" while carrying tool calls, as some local servers do.
	StopReason string `json:"stop_reason,omitempty"`
	// Usage is reported at the end of the stream; nil means DefaultUsage.
	Usage *Usage `json:"usage,omitempty"`
	// NoUsage (OpenAI) sends no usage chunk even when the request asked
	// for one, as some compatible servers do.
	NoUsage bool `json:"no_usage,omitempty"`

	// Status answers with this HTTP status and the API's error body, with
	// the header retry-after-ms: 1, or RetryAfter.
	Status int `json:"status,omitempty"`
	// RetryAfter, with Status, is sent as the retry-after header (seconds,
	// or an HTTP date) instead of retry-after-ms: 1.
	RetryAfter string `json:"retry_after,omitempty"`
	// RetryAfterMs, with Status, is sent as the retry-after-ms header
	// instead of retry-after-ms: 1 (and beside RetryAfter, if both are set).
	RetryAfterMs string `json:"retry_after_ms,omitempty"`
	// ErrorMessage is the message of a Status or ErrorEvent error; empty
	// means a default naming the fault.
	ErrorMessage string `json:"error_message,omitempty"`
	// Malformed answers 200 with an event stream whose second event has
	// invalid JSON in its data line.
	Malformed bool `json:"malformed,omitempty"`
	// DropAfterText streams the first chunk of Text (or nothing, when Text
	// is empty), then closes the connection abruptly.
	DropAfterText bool `json:"drop_after_text,omitempty"`
	// Hang streams the first chunk of Text, then holds the connection
	// open, silent, until the client goes away: for cancellation and stall
	// tests. With no Text the stream stalls after its opening events.
	Hang bool `json:"hang,omitempty"`
	// HangHeaders answers nothing, not even the response headers, until
	// the client goes away: a server that accepted the request and stalled.
	HangHeaders bool `json:"hang_headers,omitempty"`
	// EndEarly streams the first chunk of Text (or nothing), then ends the
	// response cleanly, without the stream's final events: a stream cut at
	// an event boundary, as by a proxy.
	EndEarly bool `json:"end_early,omitempty"`
	// ErrorEvent streams Text, then an error event of this type
	// ("overloaded_error", "api_error", …) instead of the rest: an
	// Anthropic SSE `error` event, or an OpenAI `data: {"error":…}` line.
	ErrorEvent string `json:"error_event,omitempty"`
	// Repeat serves this turn for N consecutive requests (0 and 1 mean
	// once), e.g. "500 until the client's retries run out".
	Repeat int `json:"repeat,omitempty"`
}

// ToolCall is a tool call in a scripted turn. Input is sent verbatim, so a
// test built in Go may put invalid JSON in it. An empty ID makes the
// Anthropic fake invent one and the OpenAI fake omit it.
type ToolCall struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Namespace (Responses API) names the namespace tool the function is
	// in: Codex offers an MCP server's tools as a namespace mcp__<server>.
	Namespace string          `json:"namespace,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	// RawInput, when set, is sent verbatim instead of Input: the way a
	// JSON turns file scripts input that is not valid JSON.
	RawInput string `json:"raw_input,omitempty"`
}

// input is the tool input text the server streams.
func (tc ToolCall) input() string {
	if tc.RawInput != "" {
		return tc.RawInput
	}
	return string(tc.Input)
}

// Usage is the token usage a turn reports, in Anthropic's terms. OpenAI
// reports prompt_tokens = InputTokens + CacheReadInputTokens (with the
// cached part in prompt_tokens_details) and drops cache creation.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
}

// DefaultUsage is the usage of a turn that sets none.
var DefaultUsage = Usage{InputTokens: 100, OutputTokens: 20}

func (t Turn) usage() Usage {
	if t.Usage != nil {
		return *t.Usage
	}
	return DefaultUsage
}

func (t Turn) times() int {
	return max(t.Repeat, 1)
}

// LoadTurns reads a JSON array of turns, as end-to-end test scripts
// describe sessions. Unknown fields are errors, so a typo fails the test.
func LoadTurns(path string) ([]Turn, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load turns: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var turns []Turn
	if err := dec.Decode(&turns); err != nil {
		return nil, fmt.Errorf("load turns %s: %w", path, err)
	}
	return turns, nil
}

// Server is a running fake API.
type Server struct {
	// URL is the base URL to give the SDK: the server root for Anthropic,
	// the root plus /v1 for OpenAI.
	URL string

	ts   *httptest.Server
	wire wire

	mu       sync.Mutex
	turns    []Turn
	next     int // index of the turn the next request gets
	used     int // requests already served by turns[next]
	requests []Request
	side     []Request // requests that were not model calls
}

// NewAnthropic starts a fake Anthropic Messages API playing turns.
func NewAnthropic(turns ...Turn) *Server {
	return start(anthropicWire{}, "", turns)
}

// NewOpenAI starts a fake OpenAI Chat Completions API playing turns.
func NewOpenAI(turns ...Turn) *Server {
	return start(openaiWire{}, "/v1", turns)
}

// NewGemini starts a fake Gemini API playing turns; URL is the server root,
// as GOOGLE_GEMINI_BASE_URL takes it.
func NewGemini(turns ...Turn) *Server {
	return start(geminiWire{}, "", turns)
}

// NewResponses starts a fake OpenAI Responses API playing turns.
func NewResponses(turns ...Turn) *Server {
	return start(responsesWire{}, "/v1", turns)
}

func start(w wire, suffix string, turns []Turn) *Server {
	s := &Server{wire: w, turns: turns}
	s.ts = httptest.NewServer(s)
	s.URL = s.ts.URL + suffix
	return s
}

// Close shuts the server down, closing open connections.
func (s *Server) Close() {
	s.ts.CloseClientConnections()
	s.ts.Close()
}

// Requests returns every request received so far, in order, including
// the ones answered with a fault or rejected.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Remaining returns how many requests the script can still serve, so a
// test can check that the client made every call it was expected to.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for i := s.next; i < len(s.turns); i++ {
		n += s.turns[i].times()
	}
	return n - s.used
}

// ServeHTTP answers one request with the next scripted turn.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return // the client went away
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Time: time.Now()}
	if s.sideRequest(w, req) || s.openCodeSide(w, r, req) {
		return
	}
	problem := s.check(&req)
	turn, n, ok := s.record(req, problem == "")
	switch {
	case problem != "":
		status := http.StatusBadRequest
		if r.Method != http.MethodPost || !s.wire.pathOK(r.URL.Path) {
			status = http.StatusNotFound
		}
		s.wire.writeError(w, status, problem, n)
	case !ok:
		w.Header().Set("x-should-retry", "false")
		s.wire.writeError(w, http.StatusInternalServerError, "fakeprovider: no more scripted turns", n)
	case turn.HangHeaders:
		<-r.Context().Done()
	case turn.Status != 0:
		switch {
		case turn.RetryAfter != "" || turn.RetryAfterMs != "":
			if turn.RetryAfter != "" {
				w.Header().Set("retry-after", turn.RetryAfter)
			}
			if turn.RetryAfterMs != "" {
				w.Header().Set("retry-after-ms", turn.RetryAfterMs)
			}
		default:
			w.Header().Set("retry-after-ms", "1")
		}
		msg := turn.ErrorMessage
		if msg == "" {
			msg = fmt.Sprintf("fakeprovider: scripted HTTP %d", turn.Status)
		}
		s.wire.writeError(w, turn.Status, msg, n)
	default:
		s.wire.stream(newSSE(w, r, s.wire.requestIDHeader(), n), turn, n, req)
	}
}

// check validates the request loosely and decodes it into req. It returns
// what is wrong, or "".
func (s *Server) check(req *Request) string {
	if req.Method != http.MethodPost || !s.wire.pathOK(req.Path) {
		return fmt.Sprintf("fakeprovider: no route for %s %s", req.Method, req.Path)
	}
	if !json.Valid(req.Body) {
		return "fakeprovider: the request body is not valid JSON"
	}
	if err := s.wire.decode(req); err != nil {
		return "fakeprovider: " + err.Error()
	}
	if !req.Stream {
		return `fakeprovider: only streaming requests are served (set "stream": true)`
	}
	return ""
}

// record logs req and, when take is set, takes the next turn. n numbers
// the request from 1, for ids.
func (s *Server) record(req Request, take bool) (turn Turn, n int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	n = len(s.requests)
	if !take || s.next >= len(s.turns) {
		return Turn{}, n, false
	}
	turn = s.turns[s.next]
	s.used++
	if s.used >= turn.times() {
		s.next++
		s.used = 0
	}
	return turn, n, true
}

// wire is one API's format.
type wire interface {
	pathOK(path string) bool
	// requestIDHeader names the header carrying a request id, or is "".
	requestIDHeader() string
	// decode fills the decoded fields of req from req.Body.
	decode(req *Request) error
	writeError(w http.ResponseWriter, status int, msg string, n int)
	stream(sw *sse, t Turn, n int, req Request)
	toolResults(req Request) []ToolResultSeen
}
