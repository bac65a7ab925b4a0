package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/approval"
)

// askUserQuestion is the AskUserQuestion tool: decode with ask's tolerant
// decoder (which ignores the fields hosts add to every tool, noted under
// --verbose), ask, and return askuser's standard result text.
func (s *Server) askUserQuestion(ctx context.Context, call *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	in, ignored, err := ask.ParseCall(call.Params.Arguments)
	id := callID(call)
	if s.cfg.Verbose && len(ignored) > 0 {
		fmt.Fprintf(s.cfg.Log, "askuser mcp: question set %s: ignored %s\n", ask.Display(id), strings.Join(ignored, ", "))
	}
	if err != nil {
		return textResult(approval.InvalidInput(err), true), nil
	}
	req := ask.Request{ID: id, Questions: in.Questions}
	answers, err := s.ask(ctx, call, req)
	var waits *agenthost.Suspension
	if errors.As(err, &waits) {
		// Not an answer, and not a failure to retry: the question waits
		// for a late answer, and the model is told to end its turn.
		return textResult(agenthost.WaitingResult(req, waits), false), nil
	}
	if err != nil {
		return textResult(approval.Unanswered(req, err), true), nil
	}
	return textResult(ask.FormatResult(answers), false), nil
}

// ask puts req to the person while the call waits: it reports progress
// when the call has a progressToken, bounds the wait when it has none,
// and logs a question the host withdrew.
func (s *Server) ask(ctx context.Context, call *sdk.CallToolRequest, req ask.Request) ([]ask.Answer, error) {
	askCtx := ctx
	token := call.Params.GetProgressToken()
	if token == nil && s.cfg.Unwatched > 0 {
		var cancel context.CancelFunc
		askCtx, cancel = context.WithTimeoutCause(ctx, s.cfg.Unwatched, fmt.Errorf("the host sent no progress token, so askuser stopped waiting after %s rather than leave the question open after the host gave up", s.cfg.Unwatched))
		defer cancel()
	}
	if token != nil {
		stop := s.reportProgress(ctx, call.Session, token, req)
		defer stop()
	}
	if !s.cfg.Instant {
		// The host that would read the answer has gone: withdrawn.
		endCtx, cancel := context.WithCancelCause(askCtx)
		defer cancel(nil)
		askCtx = endCtx
		go func() {
			select {
			case <-s.flight.ended:
				cancel(errInputEnded)
			case <-endCtx.Done():
			}
		}()
	}
	var host ask.Frontend
	if elicits(call.Session) {
		host = &elicitFrontend{session: call.Session}
	}
	if p := call.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
		name := p.ClientInfo.Title
		if name == "" {
			name = p.ClientInfo.Name
		}
		askCtx = context.WithValue(askCtx, clientKey{}, name)
	}
	if thread, ok := call.Params.Meta["threadId"].(string); ok && thread != "" {
		askCtx = context.WithValue(askCtx, threadKey{}, thread)
	}
	answers, err := s.cfg.Ask(askCtx, req, host)
	if err != nil {
		why := err.Error()
		if ctx.Err() != nil {
			why = "the host withdrew the call (" + context.Cause(ctx).Error() + ")"
		}
		fmt.Fprintf(s.cfg.Log, "askuser mcp: question set %s (%s) unanswered: %s\n", ask.Display(req.ID), headers(req), ask.Display(why))
	}
	return answers, err
}

type clientKey struct{}

type threadKey struct{}

// ThreadID is the host's own session of a call, when the host names it in
// the call's _meta (Codex CLI: threadId), for a question the call asks
// (ctx is the Asker's); "" when it does not (Claude Code, Gemini CLI,
// OpenCode).
func ThreadID(ctx context.Context) string {
	id, _ := ctx.Value(threadKey{}).(string)
	return id
}

// ClientName is the name the MCP host gave itself when it connected
// ("claude-code"), as the host wrote it, for a question the host's call
// asks (ctx is the Asker's); "" when it gave none.
func ClientName(ctx context.Context) string {
	name, _ := ctx.Value(clientKey{}).(string)
	return name
}

// reportProgress sends notifications/progress every ProgressEvery until
// stop is called. Claude Code 2.1.330 aborts a call it hears nothing from
// for 30 minutes, without telling the server.
func (s *Server) reportProgress(ctx context.Context, session *sdk.ServerSession, token any, req ask.Request) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(s.cfg.ProgressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				waited := time.Since(start)
				_ = session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      waited.Seconds(),
					Message:       fmt.Sprintf("waiting %s for the user to answer: %s", ask.HumanDuration(waited), headers(req)),
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}

// callID is the id a call's question set is asked under: the host's own
// id of the call when it sends one (Claude Code's tool_use id, Codex's
// call id), so a person, a log or a host session's record can match the
// two.
func callID(call *sdk.CallToolRequest) string {
	for _, key := range []string{"claudecode/toolUseId", "callId"} {
		if id, ok := call.Params.Meta[key].(string); ok && id != "" {
			return id
		}
	}
	return ask.NewID("mcp")
}

// headers lists a set's headers for a log line or a progress message.
func headers(req ask.Request) string {
	hs := make([]string, len(req.Questions))
	for i, q := range req.Questions {
		hs[i] = ask.Display(q.Header)
	}
	return strings.Join(hs, ", ")
}
