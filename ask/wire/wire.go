// Package wire holds every JSON line askuser writes about a question set:
// the question line that opens it, the answers line that closes it, and
// the error line about an input line it could not use. The JSON-lines frontend, the
// stream-json output of askuser run, --notify-cmd payloads, askuser ask
// --json, and the bridges and the web inbox all write these types, so one
// question set has one shape, with the same keys, wherever it is seen.
//
// Invariants:
//   - Plain encoding/json, one object per line, "type" first. The keys of
//     a line type are fixed: a field that can be empty is written empty,
//     not left out, except the fields marked optional below, which appear
//     on every channel alike when they are set.
//   - Text is carried exactly, JSON-escaped (control characters and line
//     breaks escaped, so a line stays one line); <, > and & are not
//     escaped. A reader that shows it to a person sanitises it first.
package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// Line types.
const (
	TypeQuestion = "question"
	TypeAnswers  = "answers"
	TypeError    = "error"
)

// Question opens a question set.
type Question struct {
	Type string `json:"type"`
	// ID names the set; an answer line gives it back.
	ID string `json:"id"`
	// SessionID is the run's session, "" outside a run (askuser ask).
	SessionID string         `json:"session_id"`
	Questions []ask.Question `json:"questions"`
	// Kind (optional) says what the set is for when it is not a model's
	// AskUserQuestion: ask.KindApproval or ask.KindElicitation.
	Kind string `json:"kind,omitempty"`
	// Agent (optional) names the sub-agent that asks.
	Agent string `json:"agent,omitempty"`
	// Tool (optional) names the tool an approval is for (ask.Request.Tool).
	Tool string `json:"tool,omitempty"`
}

// NewQuestion is the question line for req in session sessionID.
func NewQuestion(req ask.Request, sessionID string) Question {
	qs := req.Questions
	if qs == nil {
		qs = []ask.Question{}
	}
	return Question{Type: TypeQuestion, ID: req.ID, SessionID: sessionID, Questions: qs, Kind: req.Kind, Agent: req.Agent, Tool: req.Tool}
}

// Answers closes a question set: the answers, and the tool result text
// they make.
type Answers struct {
	Type      string       `json:"type"`
	ID        string       `json:"id"`
	SessionID string       `json:"session_id"`
	Answers   []ask.Answer `json:"answers"`
	// Result is the answers as the tool-result text a model reads.
	Result string `json:"result"`
	// Agent (optional) names the sub-agent that asked.
	Agent string `json:"agent,omitempty"`
	// Kind and Tool (optional) are the question line's: what the set was
	// for, when it was not a model's AskUserQuestion, and the tool an
	// approval was for, so a reader of the answers alone can tell
	// "Allow" approved mcp__fs__write_file.
	Kind string `json:"kind,omitempty"`
	Tool string `json:"tool,omitempty"`
}

// NewAnswers is the answers line for req's answers in session sessionID.
func NewAnswers(req ask.Request, sessionID string, answers []ask.Answer) Answers {
	if answers == nil {
		answers = []ask.Answer{}
	}
	return Answers{Type: TypeAnswers, ID: req.ID, SessionID: sessionID, Answers: answers,
		Result: ask.FormatResult(answers), Agent: req.Agent, Kind: req.Kind, Tool: req.Tool}
}

// Error says an input line was not used, and why.
type Error struct {
	Type string `json:"type"`
	// ID (optional) is the question set the line was about, when known.
	ID    string `json:"id,omitempty"`
	Error string `json:"error"`
}

// NewError is an error line.
func NewError(id, msg string) Error { return Error{Type: TypeError, ID: id, Error: msg} }

// Encode returns v as one line ending in "\n". Beyond encoding/json's
// escapes, C1 control characters and invisible format characters
// (bidirectional overrides, zero-width characters) are written as \u
// escapes: the text is the same, and a line shown raw (cat, jq -c) cannot
// reorder or hide what is on the screen.
func Encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only values that cannot be JSON fail (a func, a NaN); every line
		// type here can be encoded, so say what broke instead of losing it.
		b.Reset()
		_ = enc.Encode(NewError("", "askuser could not encode a line: "+err.Error()))
	}
	return escapeInvisible(b.Bytes())
}

// escapeInvisible writes C1 controls and format characters as \u escapes.
// In valid JSON such runes can only be inside strings, where an escape
// means the same rune.
func escapeInvisible(line []byte) []byte {
	i := 0
	for i < len(line) && line[i] < utf8.RuneSelf {
		i++
	}
	if i == len(line) {
		return line // ASCII: the common case
	}
	out := make([]byte, 0, len(line)+16)
	out = append(out, line[:i]...)
	for i < len(line) {
		r, size := utf8.DecodeRune(line[i:])
		if (r >= 0x80 && r < 0xa0) || unicode.Is(unicode.Cf, r) {
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else {
			out = append(out, line[i:i+size]...)
		}
		i += size
	}
	return out
}
