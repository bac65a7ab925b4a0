package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// Bounds on what a server's tool list may bring into every model request.
const (
	maxTools            = 500
	maxDescriptionChars = 2048
	maxSchemaBytes      = 64 << 10
)

// remoteTool is one tool of a server, offered as mcp__<server>__<tool>.
type remoteTool struct {
	srv    *remote
	remote string // the tool's name on its server
	spec   agentloop.ToolSpec
}

var (
	_ agentloop.Tool       = (*remoteTool)(nil)
	_ agentloop.Concurrent = (*remoteTool)(nil)
)

// newRemoteTool adapts a listed tool; why says why it cannot be offered.
func newRemoteTool(r *remote, t *mcp.Tool) (*remoteTool, string) {
	name := ToolName(r.cfg.Name, t.Name)
	if utf8.RuneCountInString(name) > MaxToolNameChars {
		return nil, fmt.Sprintf("its name, %s, is longer than the %d characters a model API takes", name, MaxToolNameChars)
	}
	schema := r.raw.Raw(t.InputSchema)
	if len(bytes.TrimSpace(schema)) == 0 || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	if len(schema) > maxSchemaBytes {
		return nil, fmt.Sprintf("its input schema is %d bytes; askuser offers tools whose schema is at most %d", len(schema), maxSchemaBytes)
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	return &remoteTool{srv: r, remote: t.Name, spec: agentloop.ToolSpec{
		Name: name, Description: cutText(desc, maxDescriptionChars), InputSchema: schema,
	}}, ""
}

// Spec is the tool as the server describes it, its input schema as the
// server wrote it.
func (t *remoteTool) Spec() agentloop.ToolSpec { return t.spec }

// Concurrency: a server's calls run one at a time, so that a question the
// server asks belongs to the call in progress.
func (t *remoteTool) Concurrency() agentloop.Concurrency { return agentloop.RunSequential }

// Run calls the tool with the call's input and maps its result. A failure
// of the server or the tool is an error result for the model; the run's
// own cancellation, or a question that stops the run, is a Go error.
func (t *remoteTool) Run(ctx context.Context, call *agentloop.Call) (agentloop.Result, error) {
	r := t.srv
	var args map[string]json.RawMessage
	if err := json.Unmarshal(call.Input, &args); err != nil || args == nil {
		return agentloop.ErrorResult("The input of %s must be a JSON object that matches its input schema; got %s. Call it again with an object.",
			t.spec.Name, cutText(string(call.Input), 200)), nil
	}
	select {
	case r.slot <- struct{}{}:
		defer func() { <-r.slot }()
	case <-ctx.Done():
		return agentloop.Result{}, ask.CtxErr(ctx)
	}
	if gone := r.goneErr(); gone != nil {
		return t.goneResult(gone, "before this call"), nil
	}
	var cctx context.Context
	var cancel context.CancelFunc
	if r.cfg.Timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, r.cfg.Timeout)
	} else {
		cctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()
	cur := &callState{call: call, ctx: cctx, cancel: cancel}
	r.setCurrent(cur)
	res, err := r.session.CallTool(cctx, &mcp.CallToolParams{Name: t.remote, Arguments: json.RawMessage(call.Input)})
	r.setCurrent(nil)
	if stop := cur.stopErr(); stop != nil {
		return agentloop.Result{}, stop
	}
	if err != nil {
		return t.failure(ctx, cctx, err)
	}
	out := toResult(res, r.opts.MaxResultBytes)
	out.Content = withNotes(out.Content, cur.takeNotes())
	return out, nil
}

// failure turns an error from tools/call into a result for the model,
// or, when the run itself was stopped, into the run's error.
func (t *remoteTool) failure(ctx, cctx context.Context, err error) (agentloop.Result, error) {
	r := t.srv
	if ctx.Err() != nil {
		return agentloop.Result{}, ask.CtxErr(ctx)
	}
	if errors.Is(cctx.Err(), context.DeadlineExceeded) {
		r.log.Note("call to %s timed out after %s", t.remote, r.cfg.Timeout)
		return agentloop.ErrorResult("MCP server %q tool %q timed out after %s (the server's \"timeout\" in the MCP configuration). Its result is unknown.",
			r.cfg.Name, t.remote, r.cfg.Timeout), nil
	}
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		// Not an answer from the server: the connection may be gone.
		select {
		case <-r.goneCh:
			return t.goneResult(r.goneErr(), "during this call"), nil
		case <-time.After(2 * drainWait):
		}
	}
	r.log.Note("call to %s failed: %v", t.remote, err)
	return agentloop.ErrorResult("MCP server %q could not run tool %q: %s", r.cfg.Name, t.remote, errText(err)), nil
}

// goneResult tells the model the server is no longer there.
func (t *remoteTool) goneResult(gone error, when string) agentloop.Result {
	return agentloop.ErrorResult("MCP server %q is not running: %v %s. None of its tools (mcp__%s__…) can be used for the rest of this run; carry on without them, or tell the user.",
		t.srv.cfg.Name, gone, when, NormalizeName(t.srv.cfg.Name))
}

func (r *remote) setCurrent(c *callState) {
	r.mu.Lock()
	r.current = c
	r.mu.Unlock()
}

func (r *remote) currentCall() *callState {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.current
}
