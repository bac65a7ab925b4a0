package approval

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// Each decision is one sentence, written once: who decided, and what to
// do. These are the exact texts a model reads (and a person in a log).
func TestDecisionMessages(t *testing.T) {
	req := call("mcp__fs__write_file", `{"path":"x"}`)
	q := req.Question(false).Questions[0]
	rm, err := ParseRule("Bash(rm:*)", "ci.yaml line 5")
	if err != nil {
		t.Fatal(err)
	}
	answer := func(a ask.Answer) Decision { return FromAnswers(req, []ask.Answer{a}) }
	for _, tc := range []struct {
		name string
		d    Decision
		want string
	}{
		{"a deny rule", deniedByRule("Bash", rm),
			"Bash was not run: rule Bash(rm:*) (ci.yaml line 5) denies it; do not retry it, and continue without it or ask the user to change the rule."},
		{"the user denies", answer(ask.Answer{Selected: []string{LabelDeny}, Source: ask.SourcePerson}),
			"mcp__fs__write_file was not run: the user denied it; do not retry it, and continue without it or ask the user what to do instead."},
		{"the user says instead", answer(ask.Answer{Selected: []string{}, Custom: "write it to /tmp instead", Source: ask.SourcePerson}),
			"mcp__fs__write_file was not run, and the user said instead: write it to /tmp instead"},
		{"a program denies", answer(ask.Answer{Selected: []string{LabelDeny}, Source: ask.SourceProgram, Via: "stdin"}),
			"mcp__fs__write_file was not run: a program over JSON lines (not confirmed to be a person) on stdin denied it; do not retry it, and continue without it or ask the user what to do instead."},
		{"the answers file has no rule", answer(ask.Answer{Selected: []string{}, Skipped: true, Source: ask.SourceFile, Via: "ci.yaml", Reason: "no approval rule in the answers file allows this call"}),
			"mcp__fs__write_file was not run: the answers file ci.yaml has no approval rule that allows it; do not retry it, and continue without it (to allow such calls, add mcp__fs__write_file under approvals: allow: in ci.yaml)."},
		{"the policy", answer(ask.Recommended(q, "no person answered within 5m0s")),
			"mcp__fs__write_file was not run: no person approved it (no person answered within 5m0s; the recommended-option policy never allows a tool); do not retry it, and continue without it or ask the user."},
		{"declined", answer(ask.Decline(q, "not today", time.Now())),
			"mcp__fs__write_file was not run: the user declined to answer its approval question (askuser cancel); do not retry it, and continue without it or ask the user; their reason: not today"},
		{"nobody answered", FromAnswers(req, nil),
			"mcp__fs__write_file was not run: nobody answered its approval question; do not retry it, and continue without it or ask the user."},
		{"asking failed", Failed("Bash", errors.New("no terminal")),
			"Bash was not run: askuser could not ask for approval (no terminal); do not retry it, and continue without it (a rule under approvals: in the answers file decides such calls without asking)."},
		{"no tool named", Failed("", errors.New("tool_name is missing")),
			"The call was not run: askuser could not ask for approval (tool_name is missing); do not retry it, and continue without it (a rule under approvals: in the answers file decides such calls without asking)."},
	} {
		if tc.d.Allow || tc.d.Message != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, tc.d.Message, tc.want)
		}
		saidOnce(t, tc.name, tc.d.Message)
	}
}

// saidOnce fails when a message says a clause twice, or runs to a second
// sentence.
func saidOnce(t *testing.T, name, msg string) {
	t.Helper()
	seen := map[string]bool{}
	for _, part := range strings.FieldsFunc(msg, func(r rune) bool { return strings.ContainsRune(";:()", r) }) {
		part = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "."))
		if len(part) >= 16 && seen[part] {
			t.Errorf("%s: %q says %q twice", name, msg, part)
		}
		seen[part] = true
	}
	if i := strings.Index(msg, ". "); i >= 0 && i < len(msg)-2 {
		t.Errorf("%s: %q runs to a second sentence", name, msg)
	}
}

func TestAllowNote(t *testing.T) {
	rules, err := ParseRules("Bash(git status:*) Bash(git log:*)", "ci.yaml line 3")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := Policy{Allow: rules}.Decide(call("Bash", `{"command":"git status && git log"}`), nil)
	want := "Bash was allowed by rules Bash(git status:*) (ci.yaml line 3) and Bash(git log:*) (ci.yaml line 3), not by a person at the time."
	if !ok || d.AllowNote("Bash") != want {
		t.Errorf("note %q, want %q", d.AllowNote("Bash"), want)
	}
	if n := (Decision{Allow: true, By: ByPerson}).AllowNote("Bash"); n != "" {
		t.Errorf("a person's allow has note %q", n)
	}
}

// The Decider passes a decision's sentence on as it is: an answers file
// without a rule for the call is named once, with the fix, not repeated
// in a "(Decided by …)" clause.
func TestDeciderSaysItOnce(t *testing.T) {
	fromFile := func(_ context.Context, req ask.Request) ([]ask.Answer, error) {
		q := req.Questions[0]
		return []ask.Answer{{Question: q.Question, Header: q.Header, Selected: []string{}, Skipped: true, Source: ask.SourceFile, Via: "appr.yaml",
			Reason: "no approval rule in the answers file allows this call"}}, nil
	}
	p := Decider{Ask: fromFile}.Decide(t.Context(), "Bash", "toolu_1", json.RawMessage(`{"command":"touch x"}`))
	want := "Bash was not run: the answers file appr.yaml has no approval rule that allows it; do not retry it, and continue without it (to allow such calls, add Bash under approvals: allow: in appr.yaml)."
	if p.Allow || p.Message != want {
		t.Errorf("message\n %q\nwant %q", p.Message, want)
	}
	saidOnce(t, "answers file", p.Message)
}
