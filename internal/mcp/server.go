// Package mcp is `askuser mcp`'s server: a stdio MCP server that lets any
// MCP host ask its person through askuser (server*.go), and the demo's
// small file server (demo_files.go). The client side, which offers MCP
// servers' tools to a run, is package mcp/client. The two are askuser's
// one room for the MCP Go SDK (github.com/modelcontextprotocol/go-sdk): no
// other package imports it, and no SDK type leaves them.
//
// The server offers two tools:
//   - AskUserQuestion, with askuser's own raw JSON Schema (ask.InputSchema)
//     decoded by ask.Parse, answered through the frontend the flags chose;
//   - approve, for Claude Code's --permission-prompt-tool, deciding through
//     internal/approval's Decider exactly as askuser hook does.
//
// Invariants (each was observed with the real Claude Code, CONTRACTS.md):
//   - A result is text content only, never structuredContent (with it,
//     Claude Code gives its model only the JSON and drops the text) and
//     never empty (Claude Code would say "completed with no output").
//   - Nothing is guessed: a set nobody could answer gets a result that says
//     so and names the questions.
//   - server/discover (and any request the server does not know) is
//     answered at once with -32601, so Claude Code 2.1.330 goes on to
//     initialize without waiting; AskUserQuestion carries _meta
//     "anthropic/alwaysLoad" so 2.1.330 does not hide it behind tool
//     search, and never "anthropic/requiresUserInteraction", which makes a
//     tool unusable in claude -p.
//   - AskUserQuestion is annotated readOnlyHint (asking changes nothing),
//     which is what lets Codex 0.169's exec run it with README's config;
//     approve is not, since it lets other tools run.
//   - A line on standard input the SDK cannot take (not JSON, a batch, not
//     JSON-RPC 2.0) is answered with -32700 or -32600 and skipped, never
//     the end of the connection and of the calls under way (guardLines).
//   - A waiting call sends progress about every minute when it has a
//     progressToken (2.1.330 aborts a silent call after 30 minutes, without
//     a cancellation); a call without one is bounded instead. A cancelled
//     or abandoned call withdraws its question from the person's terminal
//     (the frontend's context ends) and is logged as unanswered.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
)

// Asker puts a question set to whoever answers it, as the flags chose.
// host asks through the MCP client's own UI (elicitation/create); it is nil
// when the client does not offer elicitation, and the Asker uses it only
// when told to (--frontend elicit).
type Asker func(ctx context.Context, req ask.Request, host ask.Frontend) ([]ask.Answer, error)

// Defaults of ServeConfig.
const (
	// DefaultProgressEvery is how often a waiting call reports progress.
	DefaultProgressEvery = time.Minute
	// DefaultUnwatched bounds a call that carries no progressToken: below
	// Claude Code 2.1.330's 30-minute idle abort, which sends no
	// cancellation and would leave the question on the person's screen.
	DefaultUnwatched = 25 * time.Minute
)

// ServeConfig is what askuser mcp serves with.
type ServeConfig struct {
	// Version is askuser's version, reported in initialize.
	Version string
	Ask     Asker
	// Approvals are the rules from the answers file, for approve; nil is none.
	Approvals *approval.Policy
	// Name is the name the host knows this server by ("askuser"), so
	// approve recognises mcp__<Name>__AskUserQuestion as askuser's own.
	Name string
	// ProgressEvery is how often a waiting call reports progress; 0 is
	// DefaultProgressEvery.
	ProgressEvery time.Duration
	// Unwatched bounds a call without a progressToken; 0 is no bound.
	Unwatched time.Duration
	// Log receives a line for each question withdrawn or left unanswered
	// (standard error; the host keeps it in its logs). nil discards.
	Log io.Writer
	// Verbose (--verbose) also logs the fields a host adds to every tool
	// that a call carried and the decoder ignored.
	Verbose bool
	// Dir is the session's working folder, which approve reads path rules
	// and relative paths against; "" is the server's own (a host starts
	// it in the project's folder).
	Dir string
	// Instant says that Ask answers without waiting on a person (an
	// answers file, the recommended-option policy): a call read before
	// standard input ended is answered as usual, where one that waits on
	// a person is withdrawn (server_drain.go).
	Instant bool
}

// Server is askuser mcp.
type Server struct {
	cfg    ServeConfig
	srv    *sdk.Server
	flight *inFlight
}

// NewServer builds the server and its tools.
func NewServer(cfg ServeConfig) *Server {
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = DefaultProgressEvery
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Name == "" {
		cfg.Name = "askuser"
	}
	if cfg.Dir == "" {
		cfg.Dir, _ = os.Getwd() // unknown stays "": relative paths then match only relative rules
	}
	s := &Server{cfg: cfg, flight: newInFlight()}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "askuser", Version: cfg.Version}, &sdk.ServerOptions{
		Instructions: "askuser asks the user (a person, at their terminal, or an answers file in CI) structured questions and returns the answers. Call AskUserQuestion when you need the user's decision.",
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	s.srv.AddReceivingMiddleware(rejectDiscover)
	s.srv.AddTool(askTool(), s.askUserQuestion)
	s.srv.AddTool(approveTool(), s.approve)
	return s
}

// Run serves one client over in and out until in ends or ctx is done. A
// line the SDK cannot take is answered with an error and skipped
// (guardLines), never the end of the connection.
func (s *Server) Run(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	w := &syncWriter{w: out, flight: s.flight}
	// guardLines bounds every line: the transport need not.
	err := s.srv.Run(ctx, &sdk.IOTransport{Reader: guardLines(in, w, s.cfg.Log), Writer: w, MaxLineLength: -1})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	return nil
}

// rejectDiscover answers server/discover with -32601 at once. The SDK
// would answer it and move a client that speaks the 2026-07-28 protocol
// onto that protocol; Claude Code 2.1.330 sends it first and, on -32601,
// initializes as every other client does (observed; CONTRACTS.md).
func rejectDiscover(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method == "server/discover" {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
		}
		return next(ctx, method, req)
	}
}

// askTool is AskUserQuestion as the host sees it.
func askTool() *sdk.Tool {
	return &sdk.Tool{
		Name:  ask.ToolName,
		Title: "Ask the user",
		Description: ask.ToolDescription + "\n\nThe questions reach the user through askuser: at their terminal, " +
			"through this host's own form, or from an answers file in CI; use it to ask the user, to clarify, or to let them choose or decide.",
		InputSchema: ask.InputSchema,
		// Loaded with its schema even when Claude Code 2.1.330 defers MCP
		// tools behind tool search.
		Meta: sdk.Meta{"anthropic/alwaysLoad": true},
		// Asking changes nothing in the host's world, so the tool is
		// read-only, and says so: codex exec (approval policy "never")
		// runs a read-only MCP tool without a config that approves it.
		// approve carries no such hint: it lets other tools run.
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true},
	}
}

// approveTool is the permission-prompt tool.
func approveTool() *sdk.Tool {
	return &sdk.Tool{
		Name:  "approve",
		Title: "Approve a tool call (permission prompt)",
		Description: "Claude Code's permission prompt (--permission-prompt-tool mcp__askuser__approve): asks the user whether a tool call may run, " +
			"and answers the built-in AskUserQuestion. Claude Code calls it; do not call it yourself.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"tool_name":{"type":"string","description":"The tool that wants to run"},` +
			`"input":{"type":"object","description":"The tool's input"},` +
			`"tool_use_id":{"type":"string","description":"The call's id"}},` +
			`"required":["tool_name","input"]}`),
	}
}

// textResult is a result of one text block; text is never empty.
func textResult(text string, isError bool) *sdk.CallToolResult {
	if text == "" {
		text = "askuser returned no text; this is a bug in askuser."
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: isError}
}
