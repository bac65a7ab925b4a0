// Package client is askuser's MCP client: it starts or connects to the MCP
// servers of a run's --mcp-config (config*.go; stdio servers as processes,
// proc*.go; HTTP ones, http.go, remote.go) and offers their tools to the
// agent loop (tool.go, result.go), answering a server's elicitation
// through askuser's frontends (elicit.go). With `askuser mcp`'s server,
// package mcp, it is the only importer of the MCP SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// Invariants:
//   - No SDK type crosses the package boundary: no aliases, no SDK values
//     in exported signatures. SDK errors become this package's errors,
//     SDK results agentloop.Results. No package globals: everything hangs
//     off a Client.
//   - A server's stderr and the SDK's own diagnostics go to the server's
//     log file, never to the person's terminal; a failure quotes the last
//     lines of stderr.
//   - Everything read from a server is bounded: each JSON-RPC message, the
//     log, and the text a tool result carries into the conversation.
//   - A stdio server runs in its own process group, out of reach of the
//     terminal's Ctrl+C, and Close ends the whole group (close stdin, a
//     grace, SIGTERM, SIGKILL), so a server that spawned children (npx →
//     node) leaves nothing behind.
//   - A server's tools run one call at a time. That keeps a server's
//     elicitation tied to the call it serves: the SDK does not hand the
//     tools/call context to the elicitation handler.
//   - A tool failure (an error from the server, a dead server, a timeout)
//     is an error result for the model that names the server and the tool;
//     only the run's own cancellation, or a question that stops the run,
//     is a Go error from Run.
package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// Defaults of Options.
const (
	DefaultStartTimeout    = 30 * time.Second
	DefaultCloseGrace      = 2 * time.Second
	DefaultMaxResultBytes  = 100_000
	DefaultMaxMessageBytes = 8 << 20
	DefaultLogBytes        = 8 << 20
	// ProtocolVersion is the MCP version askuser asks for: the one Claude
	// Code and the reference servers speak. The SDK's newer default first
	// probes with server/discover and waits out the whole start timeout on
	// a server that ignores it.
	ProtocolVersion = "2025-11-25"
)

// Sentinels wrapped by a ServerError.
var (
	// ErrStart: the server could not be started or connected to.
	ErrStart = errors.New("did not start")
	// ErrStartTimeout: the server did not finish starting in time.
	ErrStartTimeout = errors.New("did not start in time")
	// ErrExited: the server's process ended, or its connection closed.
	ErrExited = errors.New("stopped")
)

// Options configure Start. The zero value of each field is its default.
type Options struct {
	// LogDir is where each server's log goes (mcp-<server>.log): its
	// stderr, and what askuser and the SDK note about it. Empty keeps only
	// the last lines, in memory, for errors.
	LogDir string
	// StartTimeout bounds each server's start: launch, initialize and
	// listing its tools.
	StartTimeout time.Duration
	// CloseGrace is how long Close waits after closing a server's stdin
	// before SIGTERM, and after SIGTERM before SIGKILL.
	CloseGrace time.Duration
	// MaxResultBytes bounds the text one tool result carries into the
	// conversation.
	MaxResultBytes int
	// MaxMessageBytes bounds one JSON-RPC message read from a server.
	MaxMessageBytes int
	// MaxLogBytes bounds what one server writes to its log in a run.
	MaxLogBytes int64
	// ClientName and ClientVersion are what servers are told askuser is.
	ClientName, ClientVersion string
	// OnExit, if set, is called once, from its own goroutine, when a
	// server that had started stops before Close: the run goes on without
	// its tools, and the person may want to know why.
	OnExit func(*ServerError)
}

func (o Options) withDefaults() Options {
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.CloseGrace <= 0 {
		o.CloseGrace = DefaultCloseGrace
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.MaxLogBytes <= 0 {
		o.MaxLogBytes = DefaultLogBytes
	}
	if o.ClientName == "" {
		o.ClientName = "askuser"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	return o
}

// ServerError is a server that failed to start or stopped: which one,
// what happened, and the last lines of its stderr.
type ServerError struct {
	Server string
	// Err says what happened; it wraps ErrStart, ErrStartTimeout or
	// ErrExited.
	Err error
	// Tail is the last lines the server wrote to stderr, made safe to
	// print; empty when it wrote none.
	Tail string
	// Log is the path of the server's log file, when there is one.
	Log string
}

func (e *ServerError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mcp server %q: %v", ask.Display(e.Server), e.Err)
	switch {
	case e.Tail == "" && e.Log != "":
		fmt.Fprintf(&b, " (it wrote nothing to stderr; log: %s)", e.Log)
	case e.Tail == "":
	case e.Log != "":
		fmt.Fprintf(&b, "\nlast lines of its stderr (full log: %s):\n  %s", e.Log, strings.ReplaceAll(e.Tail, "\n", "\n  "))
	default:
		fmt.Fprintf(&b, "\nlast lines of its stderr:\n  %s", strings.ReplaceAll(e.Tail, "\n", "\n  "))
	}
	return b.String()
}

func (e *ServerError) Unwrap() error { return e.Err }

// ServerInfo describes a started server.
type ServerInfo struct {
	Name      string
	Transport string
	// Tools are the names its tools are offered under, in its order.
	Tools []string
	// Log is the path of its log file ("" without Options.LogDir).
	Log string
	// Warnings are tools left out, with why.
	Warnings []string
}

// Client holds the servers of a run. Close it when the run ends, however
// it ends.
type Client struct {
	servers   []*remote
	closeOnce sync.Once
	closeErr  error
}

// Start starts every server of cfg in parallel, each bounded by
// Options.StartTimeout. It returns a Client holding the servers that
// started (never nil, so Close can always be deferred) and one error per
// server that did not: the caller decides whether that is fatal
// (--strict-mcp-config). ctx bounds the start only; servers live until
// Close.
func Start(ctx context.Context, cfg *Config, opts Options) (*Client, []*ServerError) {
	opts = opts.withDefaults()
	c := &Client{}
	if cfg == nil {
		return c, nil
	}
	started := make([]*remote, len(cfg.Servers))
	failed := make([]*ServerError, len(cfg.Servers))
	var wg sync.WaitGroup
	for i, sc := range cfg.Servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started[i], failed[i] = startServer(ctx, sc, &opts)
		}()
	}
	wg.Wait()
	var errs []*ServerError
	for i := range cfg.Servers {
		if failed[i] != nil {
			errs = append(errs, failed[i])
		} else {
			c.servers = append(c.servers, started[i])
		}
	}
	return c, errs
}

// Tools returns every started server's tools as agentloop tools, server
// by server in configuration order, each server's in its own order.
func (c *Client) Tools() []agentloop.Tool {
	var out []agentloop.Tool
	for _, s := range c.servers {
		for _, t := range s.tools {
			out = append(out, t)
		}
	}
	return out
}

// Servers describes the started servers.
func (c *Client) Servers() []ServerInfo {
	out := make([]ServerInfo, len(c.servers))
	for i, s := range c.servers {
		info := ServerInfo{Name: s.cfg.Name, Transport: s.cfg.Transport, Log: s.log.path, Warnings: s.warnings}
		for _, t := range s.tools {
			info.Tools = append(info.Tools, t.spec.Name)
		}
		out[i] = info
	}
	return out
}

// Close shuts every server down, in parallel: a stdio server's stdin is
// closed, then after a grace it is sent SIGTERM, then SIGKILL, each to its
// whole process group. It waits for all of them and is safe to call more
// than once.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		errs := make([]error, len(c.servers))
		var wg sync.WaitGroup
		for i, s := range c.servers {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.close() }()
		}
		wg.Wait()
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}
