package runflow

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
)

// TestDescribePendingApprovals: a run that stops on questions and
// approvals says so, names each approval's tool, offers the policy as one
// that approves nothing, and writes the answers file's rules for the
// approvals (quoted where a tool's name needs it), never their option
// under answers:, which the file does not read for approvals.
func TestDescribePendingApprovals(t *testing.T) {
	approve := func(id, tool string) ask.Request {
		return ask.Request{ID: id, Kind: ask.KindApproval, Tool: tool, Questions: []ask.Question{{Header: "Approve",
			Question: "Allow " + tool + " to run?", Options: []ask.Option{{Label: "Allow"}, {Label: "Deny"}}}}}
	}
	db := ask.Question{Header: "Database", Question: "Which database?", Options: []ask.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "SQLite"}}}
	region := ask.Question{Header: "Region", Question: "Which region?", Options: []ask.Option{{Label: "eu"}, {Label: "us"}}}
	r := runResult{SessionID: "s1", ResumeCommand: "askuser resume s1", Reason: "no answers file rule",
		PendingQuestions: []ask.Request{{ID: "q", Questions: []ask.Question{db, region}}, approve("w", "mcp__fs__write_file"), approve("b", "odd: tool")}}
	got := describePending(r)
	for _, want := range []string{
		"Session s1 is waiting on 2 questions and 2 approvals (of mcp__fs__write_file, odd: tool) (no answers file rule):\n",
		"  Approve: Allow mcp__fs__write_file to run?\n",
		"Take the recommended options: askuser resume s1 --frontend auto (it approves no tool call)\n",
		"  answers:\n    Database: PostgreSQL",
		"  approvals:  # a rule allows every call of its tool; deny: [...] refuses them\n    allow: [mcp__fs__write_file, \"odd: tool\"]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "Approve: Allow  #") {
		t.Errorf("suggests answering an approval under answers:\n%s", got)
	}
	only := describePending(runResult{SessionID: "s1", ResumeCommand: "askuser resume s1", PendingQuestions: []ask.Request{approve("w", "mcp__fs__write_file")}})
	if !strings.HasPrefix(only, "Session s1 is waiting on an approval of mcp__fs__write_file:\n") || strings.Contains(only, "--frontend auto") || strings.Contains(only, "answers:\n") {
		t.Errorf("an approval alone:\n%s", only)
	}
}

// TestSetWords: --notify-cmd's ASKUSER_WAITING and its failure message
// name an approval by its tool.
func TestSetWords(t *testing.T) {
	a := ask.Request{Kind: ask.KindApproval, Tool: "mcp__fs__write_file"}
	if got := setWords(a) + " / " + theSet(a); got != "an approval of mcp__fs__write_file / the approval of mcp__fs__write_file" {
		t.Errorf("an approval: %q", got)
	}
	if got := setWords(ask.Request{}) + " / " + theSet(ask.Request{}); got != "a question / the question" {
		t.Errorf("a question: %q", got)
	}
}
