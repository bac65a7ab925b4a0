package page

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
)

// TestCardName: each kind of card is named in a phrase a screen reader
// can say (TestWebCardLabel reads one in a browser).
func TestCardName(t *testing.T) {
	q := func(header, text string) ask.Question { return ask.Question{Header: header, Question: text} }
	long := strings.Repeat("Which one ", 10) + "?"
	for _, tc := range []struct {
		req  ask.Request
		want string
	}{
		{ask.Request{Questions: []ask.Question{q("Database", "Which?")}}, "Question: Database"},
		{ask.Request{Questions: []ask.Question{q("Auth Method", "a"), q("Providers", "b")}}, "2 questions: Auth Method and Providers"},
		{ask.Request{Questions: []ask.Question{q("A", "a"), q("B", "b"), q("", long)}}, "3 questions: A, B and Which one Which one Which one Which one Which one Which one…"},
		{ask.Request{Kind: ask.KindApproval, Tool: "mcp__fs__write_file", Questions: []ask.Question{q("Approve", "Allow?")}}, "Approval of mcp__fs__write_file"},
		{ask.Request{Kind: ask.KindElicitation, Questions: []ask.Question{q("Name", "a"), q("Age", "b")}}, "Form: Name and Age"},
	} {
		if got := cardName(tc.req); got != tc.want {
			t.Errorf("cardName = %q, want %q", got, tc.want)
		}
	}
}
