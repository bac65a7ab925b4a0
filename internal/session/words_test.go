package session

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
)

func TestWaitingWhat(t *testing.T) {
	q := Waiting{Tool: "AskUserQuestion"}
	w := Waiting{Kind: ask.KindApproval, Tool: "mcp__fs__write_file"}
	e := Waiting{Kind: ask.KindElicitation, Tool: "mcp__db__\x1b[2Jquery"}
	for _, tc := range []struct {
		sets []Waiting
		want string
	}{
		{[]Waiting{q}, "a question"},
		{[]Waiting{q, q}, "2 question sets"},
		{[]Waiting{w}, "an approval of mcp__fs__write_file"},
		{[]Waiting{w, {Kind: ask.KindApproval, Tool: "Bash"}}, "2 approvals (of mcp__fs__write_file, Bash)"},
		{[]Waiting{q, w, e}, "a question, an approval of mcp__fs__write_file and a form of mcp__db__query"},
		{[]Waiting{{Kind: ask.KindApproval, Tool: strings.Repeat("x", 100)}}, "an approval of " + strings.Repeat("x", 59) + "…"},
		{[]Waiting{{Kind: ask.KindApproval}}, "an approval of a tool call"},
		{nil, "a tool call"},
	} {
		if got := WaitingWhat(tc.sets, QuestionSets); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.sets, got, tc.want)
		}
	}
}

// TestStatusWords: a waiting session says on what, an approval by its
// tool; Status, which scripts match, is left as it is.
func TestStatusWords(t *testing.T) {
	approval := Summary{Status: StatusWaiting, Questions: []Waiting{{Kind: ask.KindApproval, Tool: "mcp__fs__write_file"}}}
	if got := approval.StatusWords(); got != "waiting on an approval of mcp__fs__write_file" || approval.Status != "waiting on a question" {
		t.Errorf("StatusWords %q, Status %q", got, approval.Status)
	}
	for _, s := range []Summary{{Status: StatusWaiting}, {Status: StatusFinished}, {Status: StatusCancelled, Questions: approval.Questions}} {
		if got := s.StatusWords(); got != s.Status {
			t.Errorf("%+v: StatusWords %q, want the status as it is", s, got)
		}
	}
}
