package session

import (
	"strconv"
	"strings"

	"github.com/askuser/askuser/ask"
)

// How a listing, the inbox and the command line's messages say what a
// session waits on, in one place, so that nobody reads an approval as a
// question: an approval or a form is named by its tool.

// maxToolChars bounds a tool's name as said.
const maxToolChars = 60

// WaitingWhat says what sets wait on, approvals and forms by their tool:
// "an approval of mcp__fs__write_file", "2 question sets and a form of
// mcp__db__query". questions says the question sets (a model's
// AskUserQuestion), given how many there are (n > 0): "a question",
// "2 question sets".
func WaitingWhat(sets []Waiting, questions func(n int) string) string {
	n := 0
	var approvals, forms []string
	for _, w := range sets {
		tool := ask.Display(w.Tool)
		if r := []rune(tool); len(r) > maxToolChars {
			tool = string(r[:maxToolChars-1]) + "…"
		}
		if tool == "" {
			tool = "a tool call" // a set recorded before sets named their tool
		}
		switch w.Kind {
		case ask.KindApproval:
			approvals = append(approvals, tool)
		case ask.KindElicitation:
			forms = append(forms, tool)
		default:
			n++
		}
	}
	var parts []string
	if n > 0 {
		parts = append(parts, questions(n))
	}
	parts = append(parts, ofTools(approvals, "an approval", "approvals")...)
	parts = append(parts, ofTools(forms, "a form", "forms")...)
	switch len(parts) {
	case 0:
		return "a tool call"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// ofTools says "an approval of T", or "2 approvals (of T, U)".
func ofTools(tools []string, one, many string) []string {
	switch len(tools) {
	case 0:
		return nil
	case 1:
		return []string{one + " of " + tools[0]}
	}
	return []string{strconv.Itoa(len(tools)) + " " + many + " (of " + strings.Join(tools, ", ") + ")"}
}

// QuestionSets says n question sets: "a question", "2 question sets".
func QuestionSets(n int) string {
	if n == 1 {
		return "a question"
	}
	return strconv.Itoa(n) + " question sets"
}

// StatusWords is the session's status for a person: a waiting session
// says on what ("waiting on an approval of mcp__fs__write_file"), any
// other as Status. Status itself stays as it is: scripts match it.
func (s Summary) StatusWords() string {
	if s.Status != StatusWaiting || len(s.Questions) == 0 {
		return s.Status
	}
	return "waiting on " + WaitingWhat(s.Questions, QuestionSets)
}
