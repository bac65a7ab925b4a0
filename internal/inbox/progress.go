package inbox

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// The session page's Progress box: what askuser resume did with the
// answers given on the page, read from serve.log for a person. The log is
// serve's own lines ("--- askuser serve, TIME: …"), the resume's
// stream-json events on its standard output, and anything it said on its
// standard error. The events are told in words, never shown as JSON; a
// question line is not shown at all (the page shows the set as a card,
// with its own form), nor is any line telling the person to run askuser
// resume, since the page is where they answer.

// Bounds of the Progress box: it follows the run, and the transcript
// below has every step whole.
const (
	// maxLogBytes is how much of the end of serve.log is read: enough for
	// an event holding a tool's long output and the lines after it.
	maxLogBytes = 64 << 10
	// maxLogLines is how many of the last lines are told.
	maxLogLines = 200
	// maxLogLineChars bounds one line.
	maxLogLineChars = 300
)

// logPrefix starts serve's own lines in serve.log.
const logPrefix = "--- askuser serve"

// logLine is one line of the Progress box (page.LogLine), read from a
// resume's log.
type logLine page.LogLine

// pageLines are ls as the page shows them.
func pageLines(ls []logLine) []page.LogLine {
	out := make([]page.LogLine, len(ls))
	for i, l := range ls {
		out[i] = page.LogLine(l)
	}
	return out
}

// readableLog tells the lines of a serve.log in words, the last
// maxLogLines of them.
func readableLog(log string) []logLine {
	var out []logLine
	for _, line := range strings.Split(log, "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, logPrefix):
			out = append(out, serveLine(strings.TrimPrefix(line, logPrefix)))
		case strings.HasPrefix(line, "{"):
			out = append(out, eventLines(line)...)
		default:
			out = append(out, logLine{Class: "text", Text: short(ask.Display(line), maxLogLineChars)})
		}
	}
	return out[max(len(out)-maxLogLines, 0):]
}

// serveLine is one of serve's own lines: ", 2006-01-02 15:04:05: text" or
// ": text".
func serveLine(rest string) logLine {
	l := logLine{Class: "serve"}
	if stamp, text, ok := strings.Cut(strings.TrimPrefix(rest, ", "), ": "); ok {
		if at, err := time.ParseInLocation(time.DateTime, stamp, time.Local); err == nil {
			l.At, rest = at.Format("15:04:05"), text
		}
	}
	l.Text = short(ask.Display(strings.TrimPrefix(rest, ": ")), maxLogLineChars)
	return l
}

// streamEvent holds the fields of a stream-json event (and of the wire
// lines) that the Progress box tells.
type streamEvent struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Result  string `json:"result"`
	Error   string `json:"error"`
	Message struct {
		Content []struct {
			Type    string          `json:"type"`
			Text    string          `json:"text"`
			Name    string          `json:"name"`
			Content json.RawMessage `json:"content"`
			IsError bool            `json:"is_error"`
		} `json:"content"`
	} `json:"message"`
	Answers []ask.Answer  `json:"answers"`
	Pending []ask.Request `json:"pending_questions"`
	// Kind and Tool say an answers line answered an approval, and of what.
	Kind string `json:"kind"`
	Tool string `json:"tool"`
}

// eventLines tells one JSON line: none for a question line, the init
// line, or a line that is not an event (a torn one).
func eventLines(line string) []logLine {
	var e streamEvent
	if json.Unmarshal([]byte(line), &e) != nil {
		return nil
	}
	say := func(class, text string) logLine {
		return logLine{Class: class, Text: short(ask.Display(text), maxLogLineChars)}
	}
	switch e.Type {
	case wire.TypeAnswers:
		if e.Kind == ask.KindApproval {
			return []logLine{say("answer", "The session took the answer: "+decided(e.Tool, e.Answers))}
		}
		var parts []string
		for _, a := range e.Answers {
			parts = append(parts, ask.Display(a.Header)+": "+page.AnswerSummary(a))
		}
		return []logLine{say("answer", "The session took the answer: "+strings.Join(parts, "; "))}
	case wire.TypeError:
		return []logLine{say("error", "askuser resume could not use an answer: "+e.Error)}
	case "assistant":
		var out []logLine
		for _, b := range e.Message.Content {
			switch {
			case b.Type == "text" && strings.TrimSpace(b.Text) != "":
				out = append(out, say("agent", "The agent: "+b.Text))
			case b.Type == "tool_use":
				out = append(out, say("tool", "Tool call: "+b.Name))
			}
		}
		return out
	case "user":
		var out []logLine
		for _, b := range e.Message.Content {
			if b.Type == "tool_result" {
				class, who := "result", "Tool result: "
				if b.IsError {
					class, who = "error", "Tool result (error): "
				}
				out = append(out, say(class, who+resultText(b.Content)))
			}
		}
		return out
	case "result":
		return []logLine{resultLine(e)}
	}
	return nil
}

// decided says what the answers to the approval of tool decided, as
// internal/approval reads them: "approved mcp__fs__write_file", "denied
// mcp__fs__write_file, and told the agent: …". Its option ("Approve:
// Allow") would read as a question's.
func decided(tool string, answers []ask.Answer) string {
	if tool = ask.Display(tool); tool == "" {
		tool = "the tool call" // a line from before answers lines named it
	}
	d := approval.FromAnswers(approval.Request{Tool: tool}, answers)
	switch {
	case d.Allow && d.Scope == approval.ScopeSession:
		return "approved " + tool + " for the rest of the session"
	case d.Allow:
		return "approved " + tool
	case len(answers) == 1 && answers[0].Custom != "":
		return "denied " + tool + ", and told the agent: " + ask.Display(answers[0].Custom)
	}
	return "denied " + tool
}

// resultLine tells how the run went on: finished, stopped to wait again,
// or ended otherwise.
func resultLine(e streamEvent) logLine {
	switch e.Subtype {
	case "success":
		return logLine{Class: "done", Text: "The session finished."}
	case "waiting_on_question":
		var asks []string
		for _, req := range e.Pending {
			for _, q := range req.Questions {
				if req.Kind == ask.KindApproval {
					first, _, _ := strings.Cut(q.Question, "\n")
					asks = append(asks, first)
				} else {
					asks = append(asks, q.Header)
				}
			}
		}
		return logLine{Class: "done", Text: short(ask.Display("The session stopped to wait for an answer: "+strings.Join(asks, "; ")), maxLogLineChars)}
	}
	return logLine{Class: "error", Text: short(ask.Display("The run ended ("+e.Subtype+"): "+e.Result), maxLogLineChars)}
}

// resultText is a tool result's content: a string, or text blocks.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
	}
	return strings.Join(parts, " ")
}

// progressStatus says where the answers given on the page are now, from
// the run's state and the session's (status, what it waits on, how many
// of its sets the page takes an answer for); failed: a set answered here
// is pending still.
func progressStatus(id string, run *sessionRun, status, what string, open int, failed bool) string {
	switch {
	case run.running:
		return "askuser resume is taking your answer to the session (since " + run.started.Local().Format("15:04:05") + "); this box follows what it does."
	case run.ended == "":
		return ""
	case failed && !run.retryAt.IsZero():
		return "askuser resume ended (" + run.ended + ") without taking your answer. askuser serve tries again at " +
			run.retryAt.Local().Format("15:04:05") + fmt.Sprintf(" (attempt %d of %d); your answer waits in the session's mailbox meanwhile.", run.tries+1, maxResumes)
	case failed && run.tries >= maxResumes:
		return fmt.Sprintf("askuser resume ended %d times without taking your answer (the last: %s); what it said is below. ", run.tries, run.ended) +
			"Your answer waits in the session's mailbox: once what went wrong is fixed, run askuser resume " + id +
			" at a terminal (it takes the answer first), or restart askuser serve, which tries again."
	case failed:
		return "Your answer has not reached the session: askuser resume ended (" + run.ended + "). It waits in the session's mailbox, " +
			"and the session takes it when it is resumed: askuser resume, or askuser serve when it starts again."
	case status == session.StatusFinished:
		return "The session went on with your answers and finished: its result is below."
	case status == session.StatusWaiting && open > 0:
		return "The session went on with your answer and now waits on " + what + ": answer it above."
	case status == session.StatusWaiting:
		return "The session went on with your answer and now waits on " + what + ", which its own askuser process is asking."
	}
	return "askuser resume ended: " + run.ended + "."
}
