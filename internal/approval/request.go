package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// Request is a tool call waiting for approval.
type Request struct {
	// ID is the call's id (the tool_use id); the question set is asked
	// under QuestionID.
	ID string
	// Tool is the tool's name as the model called it.
	Tool string
	// Input is the call's raw JSON input.
	Input json.RawMessage
	// Agent names the sub-agent that made the call; "" is the main agent.
	Agent string
	// Dir is the session's working folder, which relative paths in the
	// call and in path rules are read against; "" when not known.
	Dir string
}

// The options of the approval question. No option is "(Recommended)":
// an approval has no default.
const (
	LabelAllow        = "Allow"
	LabelAllowSession = "Allow for the rest of this session"
	LabelDeny         = "Deny"
	// Header is the chip of the approval question.
	Header = "Approve"
)

// Summary limits.
const (
	summaryValueChars = 80
	summaryFields     = 8
)

// Summary describes the input for a person on a few short lines: one
// "key: value" line per field (sorted), each value made safe to show and
// cut at a length, with how long it was; at most a few fields. Input that
// is not a JSON object is shown as its text, cut likewise.
func (r Request) Summary() string {
	var in map[string]json.RawMessage
	if err := json.Unmarshal(r.Input, &in); err != nil {
		return summaryValue(r.Input)
	}
	if len(in) == 0 {
		return "(no input)"
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i == summaryFields {
			fmt.Fprintf(&b, "… and %d more fields", len(keys)-i)
			break
		}
		fmt.Fprintf(&b, "%s: %s\n", shorten(k, 40), summaryValue(in[k]))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// FullInput is the whole input, indented, made safe to show: for a person
// who asks to see it.
func (r Request) FullInput() string {
	var b bytes.Buffer
	if json.Indent(&b, r.Input, "", "  ") != nil {
		return ask.DisplayBlock(string(r.Input))
	}
	return ask.DisplayBlock(b.String())
}

// summaryValue shows one value: a string as its text, anything else as
// compact JSON.
func summaryValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		var c bytes.Buffer
		if json.Compact(&c, raw) == nil {
			s = c.String()
		} else {
			s = string(raw)
		}
	}
	return shorten(s, summaryValueChars)
}

// shorten makes s safe to show on one line and cuts what is shown to n
// characters, saying how long s is as written: the count a person can
// check against the input, not the shown text's, whose line breaks and
// runs of spaces were collapsed.
func shorten(s string, n int) string {
	shown := ask.Display(s)
	if r := []rune(shown); len(r) > n {
		return fmt.Sprintf("%s… (%d characters)", string(r[:n]), utf8.RuneCountInString(s))
	}
	return shown
}

// QuestionID is the id the approval of call id is asked under: distinct
// from the call's own id, which a tool may use for its own questions.
func QuestionID(id string) string { return id + ".approval" }

// Question is the question set that asks for the approval: the tool and a
// summary of its input, with Allow, Allow for the rest of this session
// (when session is true) and Deny; "Other" is instructions for the model
// instead. The options' descriptions name no tool (the question does) and
// fit a chat platform's option (Slack's 75 characters), so no channel has
// to list them again in full.
func (r Request) Question(session bool) ask.Request {
	tool := ask.Display(r.Tool)
	opts := []ask.Option{{Label: LabelAllow, Description: "Run this call"}}
	if session {
		opts = append(opts, ask.Option{Label: LabelAllowSession, Description: "Run it, and every later call of this tool in this session, without asking"})
	}
	opts = append(opts, ask.Option{Label: LabelDeny, Description: "Do not run it; the agent is told so (or choose Other to say what to do)"})
	text := fmt.Sprintf("Allow %s to run?\n%s", tool, r.Summary())
	return ask.Request{ID: QuestionID(r.ID), Kind: ask.KindApproval, Tool: r.Tool, Agent: r.Agent, Detail: r.FullInput(),
		Questions: []ask.Question{{Question: text, Header: Header, Options: opts}}}
}
