package runflow

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// Output formats of --output-format.
const (
	outText       = "text"
	outJSON       = "json"
	outStreamJSON = "stream-json"
)

// runEnds is how each way a run can end is reported: the subtype of its
// result (Claude Code's names where it has one) and its exit code, from
// the table. It is the one mapping from a run's status to an exit code.
var runEnds = map[agentloop.Status]struct {
	subtype string
	code    int
}{
	agentloop.StatusSuccess:   {"success", cmdutil.ExitOK},
	agentloop.StatusWaiting:   {"waiting_on_question", cmdutil.ExitWaiting},
	agentloop.StatusMaxTurns:  {"error_max_turns", cmdutil.ExitMaxTurns},
	agentloop.StatusTimeout:   {"error_ask_timeout", cmdutil.ExitTimeout},
	agentloop.StatusCancelled: {"error_cancelled", cmdutil.ExitCancelled},
	agentloop.StatusError:     {"error_during_execution", cmdutil.ExitError},
}

// runResult is the end of a run, in Claude Code's result shape.
type runResult struct {
	Type          string `json:"type"`
	Subtype       string `json:"subtype"`
	IsError       bool   `json:"is_error"`
	DurationMS    int64  `json:"duration_ms"`
	DurationAPIMS int64  `json:"duration_api_ms"`
	NumTurns      int    `json:"num_turns"`
	Result        string `json:"result"`
	SessionID     string `json:"session_id"`
	// TotalCostUSD is left out when a model of the run has no known
	// price (cost.go): never a made-up 0.
	TotalCostUSD *float64        `json:"total_cost_usd,omitempty"`
	Usage        agentloop.Usage `json:"usage"`
	// askuser's additions: why the run stopped, and what it waits on.
	Error            string        `json:"error,omitempty"`
	Reason           string        `json:"reason,omitempty"`
	PendingQuestions []ask.Request `json:"pending_questions,omitempty"`
	ResumeCommand    string        `json:"resume_command,omitempty"`
}

// The stream's lines, with "type" first as Claude Code writes them.
type (
	initLine struct {
		Type           string      `json:"type"`
		Subtype        string      `json:"subtype"`
		SessionID      string      `json:"session_id"`
		Model          string      `json:"model"`
		Tools          []string    `json:"tools"`
		Cwd            string      `json:"cwd"`
		Provider       string      `json:"provider"`
		MCPServers     []mcpServer `json:"mcp_servers"`
		PermissionMode string      `json:"permissionMode"`
		Version        string      `json:"askuser_version"`
	}
	messageLine struct {
		Type            string  `json:"type"`
		Message         any     `json:"message"`
		ParentToolUseID *string `json:"parent_tool_use_id"`
		SessionID       string  `json:"session_id"`
	}
	assistantMessage struct {
		ID           string            `json:"id"`
		Type         string            `json:"type"`
		Role         string            `json:"role"`
		Model        string            `json:"model"`
		Content      []agentloop.Block `json:"content"`
		StopReason   string            `json:"stop_reason"`
		StopSequence *string           `json:"stop_sequence"`
		Usage        agentloop.Usage   `json:"usage"`
	}
)

func newRunResult(sessionID string, out agentloop.Outcome, elapsed time.Duration) runResult {
	r := runResult{Type: "result", Subtype: runEnds[out.Status].subtype, IsError: out.Status != agentloop.StatusSuccess && out.Status != agentloop.StatusWaiting,
		DurationMS: elapsed.Milliseconds(), DurationAPIMS: out.APIDuration.Milliseconds(), NumTurns: out.Turns,
		Result: out.Result, SessionID: sessionID, Usage: out.Usage, Reason: out.Reason, PendingQuestions: out.Pending}
	if out.Err != nil {
		r.Error = out.Err.Error()
	}
	if len(out.Pending) > 0 {
		r.ResumeCommand = "askuser resume " + sessionID
	}
	return r
}

// printer renders a run on stdout (and the terminal) in one output format.
type printer struct {
	format    string
	out       io.Writer // stdout, line-serialised
	errOut    io.Writer // for people
	sessionID string
	model     string
	// tools are the tools offered to the model, by name.
	tools []string
	// stream says whether assistant text is streamed as it arrives
	// (interactive text mode).
	stream bool
	// stdioQuestions is set when the JSON-lines frontend prints question
	// lines on the same stdout itself.
	stdioQuestions bool
	// surveySummary is set when the terminal prompt shows its own
	// confirmation summary.
	surveySummary bool
	midLine       bool
	// cost meters the model calls, sub-agents' included.
	cost *costMeter
	// busy shows that the agent works, at a terminal (nil: never).
	busy *working
	// askTimeout and onTimeout say when a question's time runs out and
	// what then happens, for the line that says so.
	askTimeout time.Duration
	onTimeout  ask.Policy
}

// watchTerminal gives a run's printer its feedback for a person: the
// working indicator and the line that says a question's time ran out.
func (p *printer) watchTerminal(ios *iostreams.IOStreams, o Options) {
	p.busy = newWorking(ios, o)
	p.askTimeout, p.onTimeout = o.askTimeout, o.onTimeout
}

// sourceShort names a source in a confirmation line.
var sourceShort = map[ask.Source]string{
	ask.SourcePerson:  "you",
	ask.SourceProgram: "from JSON lines",
	ask.SourceFile:    "from the answers file",
	ask.SourcePolicy:  "recommended option, by policy",
}

// notApprovedLine is the confirmation line of an approval that a machine
// answered without approving: the policy's pick ("Allow") never approves,
// and an answers file with no rule for the call answers nothing, so the
// line says the call was not run and why, rather than show the pick.
func notApprovedLine(req ask.Request, answers []ask.Answer) (string, bool) {
	if req.Kind != ask.KindApproval || len(answers) != 1 || answers[0].Source == ask.SourcePerson {
		return "", false
	}
	d := approval.FromAnswers(approval.Request{Tool: req.Tool}, answers)
	if d.Allow {
		return "", false
	}
	why := d.Why
	if d.By == approval.ByFile && answers[0].Reason != "" {
		why = ask.Display(answers[0].Reason) // d.Why names only the file
	}
	return fmt.Sprintf("✘ %s: not run (%s)", ask.Display(answers[0].Header), why), true
}

// summaryOf renders an answer in a confirmation line.
func summaryOf(a ask.Answer) string {
	parts := append([]string{}, a.Selected...)
	if a.Custom != "" {
		parts = append(parts, a.Custom+" (typed)")
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return ask.Display(strings.Join(parts, ", "))
}

// init prints the stream's opening line.
func (p *printer) init(cwd, providerName string, servers []mcpServer, mode string) {
	p.busy.start() // the first model call follows
	if p.format != outStreamJSON {
		return
	}
	p.line(initLine{Type: "system", Subtype: "init", SessionID: p.sessionID, Model: p.model, Tools: p.tools,
		Cwd: cwd, Provider: providerName, MCPServers: servers, PermissionMode: mode, Version: build.Current()})
}

func (p *printer) event(e agentloop.Event) {
	p.feedback(e)
	if e.Type == agentloop.EventAssistant && e.Response != nil {
		p.cost.add(e.Response.Usage, e.ParentToolUseID != "")
	}
	switch p.format {
	case outStreamJSON:
		p.streamEvent(e)
	case outText:
		p.textEvent(e)
	}
}

func (p *printer) streamEvent(e agentloop.Event) {
	var parent *string // a sub-agent's lines name the Task call, as Claude Code's do
	if e.ParentToolUseID != "" {
		parent = &e.ParentToolUseID
	}
	switch e.Type {
	case agentloop.EventAssistant:
		msg := assistantMessage{ID: e.Response.ID, Type: "message", Role: agentloop.RoleAssistant, Model: p.model,
			Content: e.Message.Content, StopReason: e.Response.StopReason, Usage: e.Response.Usage}
		p.line(messageLine{Type: "assistant", Message: msg, ParentToolUseID: parent, SessionID: p.sessionID})
	case agentloop.EventUser:
		p.line(messageLine{Type: "user", Message: e.Message, ParentToolUseID: parent, SessionID: p.sessionID})
	case agentloop.EventQuestion:
		if !p.stdioQuestions {
			p.line(wire.NewQuestion(*e.Request, p.sessionID))
		}
	case agentloop.EventAnswers:
		p.line(wire.NewAnswers(*e.Request, p.sessionID, e.Answers))
	}
}

func (p *printer) textEvent(e agentloop.Event) {
	if !p.stream {
		return
	}
	if e.ParentToolUseID != "" {
		// A sub-agent works out of sight, as in Claude Code; its
		// questions and the tools it runs are shown.
		switch e.Type {
		case agentloop.EventText, agentloop.EventAssistant, agentloop.EventUser:
			return
		}
	}
	switch e.Type {
	case agentloop.EventText:
		fmt.Fprint(p.out, e.Text)
		p.midLine = !strings.HasSuffix(e.Text, "\n")
	case agentloop.EventQuestion:
		p.endLine()
	case agentloop.EventAnswers:
		// Answers the prompt did not show: it was withdrawn when the time ran out.
		if !p.surveySummary || cmdutil.TimeoutNote(p.askTimeout, e.Answers) != "" {
			if line, ok := notApprovedLine(*e.Request, e.Answers); ok {
				fmt.Fprintln(p.errOut, line)
			} else {
				for _, a := range e.Answers {
					fmt.Fprintf(p.errOut, "✔ %s: %s (%s)\n", ask.Display(a.Header), summaryOf(a), sourceShort[a.Source])
				}
			}
		}
		fmt.Fprintln(p.out)
	case agentloop.EventToolResult:
		if e.Use.Name != ask.ToolName { // a question shows itself
			p.endLine()
			showToolResult(p.errOut, e.Use, e.Result)
		}
	case agentloop.EventAssistant:
		p.endLine()
		for _, b := range e.Message.ToolUses() {
			if !slices.Contains(p.tools, b.Name) {
				fmt.Fprintf(p.errOut, "askuser: the model called an unknown tool %s; it was told the tools are %s\n", ask.Excerpt(b.Name), strings.Join(p.tools, ", "))
			}
		}
	}
}

func (p *printer) endLine() {
	if p.midLine {
		fmt.Fprintln(p.out)
		p.midLine = false
	}
}

// feedback keeps the working indicator and the timeout line up to date:
// the indicator runs while the model or a tool works, and is gone
// before anything else is written.
func (p *printer) feedback(e agentloop.Event) {
	p.busy.stop()
	switch e.Type {
	case agentloop.EventUser:
		p.busy.start() // tool results sent: the model works
	case agentloop.EventAssistant:
		if len(e.Message.ToolUses()) > 0 {
			p.busy.start() // tools run; a question stops it
		}
	case agentloop.EventAnswers:
		if n := cmdutil.TimeoutNote(p.askTimeout, e.Answers); n != "" && p.format == outText {
			fmt.Fprintln(p.errOut, n)
		}
	case agentloop.EventDeferred:
		if p.askTimeout > 0 && p.onTimeout == ask.PolicySuspend && p.format == outText &&
			strings.Contains(e.Note, ask.TimeoutReason(p.askTimeout)) {
			fmt.Fprintf(p.errOut, "no answer within %s: stopped to wait\n", cmdutil.ShortDuration(p.askTimeout))
		}
	}
}

// result prints how the run ended.
func (p *printer) result(r runResult) {
	r.TotalCostUSD = p.cost.take()
	p.busy.stop()
	switch p.format {
	case outJSON, outStreamJSON:
		p.line(r)
	default:
		if p.midLine {
			fmt.Fprintln(p.out)
		}
		if !p.stream && r.Result != "" && (r.Subtype == "success" || r.Subtype == "error_max_turns") {
			fmt.Fprintln(p.out, strings.TrimRight(r.Result, "\n"))
		}
		if len(r.PendingQuestions) > 0 {
			w := p.out
			if p.stream {
				w = p.errOut
				fmt.Fprintln(w)
			}
			// The first line says what waits; the rest (the questions,
			// the commands, an answers file) is copied, so never broken.
			head, rest, _ := strings.Cut(describePending(r), "\n")
			fmt.Fprintln(w, head)
			fmt.Fprint(iostreams.Verbatim(w), rest)
		}
	}
}

func (p *printer) line(v any) {
	p.out.Write(wire.Encode(v))
}
