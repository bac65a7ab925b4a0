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
			"mcp__fs__write_file was not run: the answers file ci.yaml has no approval rule that allows it; do not retry it, and continue without it (if the user wants such calls run without asking, they may add mcp__fs__write_file under approvals: allow: in ci.yaml; do not change that file yourself)."},
		{"the policy", answer(ask.Recommended(q, "no person answered within 5m0s")),
			"mcp__fs__write_file was not run: no person approved it (no person answered within 5m0s; the recommended-option policy never allows a tool); do not retry it, and continue without it or ask the user."},
		{"declined", answer(ask.Decline(q, "not today", time.Now())),
			"mcp__fs__write_file was not run: the user declined to answer its approval question (askuser cancel); do not retry it, and continue without it or ask the user; their reason: not today"},
		{"nobody answered", FromAnswers(req, nil),
			"mcp__fs__write_file was not run: nobody answered its approval question; do not retry it, and continue without it or ask the user."},
		{"asking failed", Failed("Bash", errors.New("no terminal")),
			"Bash was not run: askuser could not ask for approval (no terminal); do not retry it, and continue without it (a rule under approvals: in the answers file decides such calls without asking)."},
		{"no tool named", Malformed("permission request", "tool_name is missing", "a request names the tool in tool_name and its input in input"),
			"The call was not run: askuser received a malformed permission request (tool_name is missing), which no rule can decide; a request names the tool in tool_name and its input in input, so send it whole or continue without the call."},
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
	want := "Bash was not run: the answers file appr.yaml has no approval rule that allows it; do not retry it, and continue without it (if the user wants such calls run without asking, they may add Bash(touch x:*) under approvals: allow: in appr.yaml; do not change that file yourself)."
	if p.Allow || p.Message != want {
		t.Errorf("message\n %q\nwant %q", p.Message, want)
	}
	saidOnce(t, "answers file", p.Message)
}

// TestAllowAdvice: a denial for want of a rule advises the narrowest rule
// that allows the call, never a bare Bash (which runs any command), and
// the rule advised, written in the file, does allow it. The advice is the
// person's to take: the model is told not to change the file itself. A
// line no rule can allow, or of too many commands, says a person must
// approve it; so does one that runs a command no rule should allow
// blindly (rm, sudo, curl, git push), whose rule would allow it with any
// further arguments.
func TestAllowAdvice(t *testing.T) {
	advise := func(rules string) string {
		return "(if the user wants such calls run without asking, they may add " + rules + " under approvals: allow: in ci.yaml; do not change that file yourself)."
	}
	person := func(cmd, why string) string {
		return "(" + cmd + " needs a person's approval each time: no rule is advised for it, since " + why + ")."
	}
	for _, tc := range []struct {
		tool, input string
		advice      string
		rules       []string // the rules advised, which must allow the call
	}{
		{"Bash", `{"command":"git status --short"}`, advise("Bash(git status:*)"), []string{"Bash(git status:*)"}},
		{"Bash", `{"command":"ls"}`, advise("Bash(ls:*)"), []string{"Bash(ls:*)"}},
		{"Bash", `{"command":"cat $F"}`, advise("Bash(cat:*)"), []string{"Bash(cat:*)"}},
		{"Bash", `{"command":"touch 'a b.txt'"}`, advise("Bash(touch 'a b.txt':*)"), []string{"Bash(touch 'a b.txt':*)"}},
		// A wrapper that does not change what runs needs no rule.
		{"Bash", `{"command":"nice -n 5 make test"}`, advise("Bash(make test:*)"), []string{"Bash(make test:*)"}},
		{"Bash", `{"command":"git add . && git commit -m wip"}`,
			"(if the user wants such calls run without asking, they may add Bash(git add:*) and Bash(git commit:*) under approvals: allow: in ci.yaml, a rule for each of its commands; do not change that file yourself).",
			[]string{"Bash(git add:*)", "Bash(git commit:*)"}},
		{"Bash", `{"command":"a; b; c; d"}`,
			"(each of its 4 commands no rule allows needs a rule of its own under approvals: allow: in ci.yaml, or a person must approve such a call).", nil},
		{"Bash", `{"command":"echo ok > written.txt"}`,
			"(no rule under approvals: allow: can allow it, since it redirects to or from a file (>written.txt); a person must approve such a call).", nil},
		// Commands a rule would allow with any further arguments.
		{"Bash", `{"command":"rm -rf build"}`, person("rm -rf build", "a rule for rm would allow it with any further arguments, unseen"), nil},
		{"Bash", `{"command":"make && sudo make install"}`, person("sudo make", "a rule for sudo would allow it with any further arguments, unseen"), nil},
		{"Bash", `{"command":"curl -s https://example.com/x"}`, person("curl -s https://example.com/x", "a rule for curl would allow it with any further arguments, unseen"), nil},
		{"Bash", `{"command":"git push --force origin main"}`, person("git push", "git push changes, deletes, runs or publishes what its arguments name"), nil},
		{"Bash", `{"command":"git -C ../other status"}`, person("git -C ../other", "a rule for git -C ../other would allow every subcommand of git, the ones that delete or publish too"), nil},
		{"Bash", `{"command":"npm test && npm publish"}`, person("npm publish", "npm publish changes, deletes, runs or publishes what its arguments name"), nil},
		{"Write", `{"file_path":"/nonexistent-askuser/out[1].txt"}`, advise(`Write(//nonexistent-askuser/out\[1].txt)`),
			[]string{`Write(//nonexistent-askuser/out\[1].txt)`}},
		{"WebFetch", `{"url":"https://Docs.Example.com/a?b=c"}`, advise("WebFetch(domain:docs.example.com)"),
			[]string{"WebFetch(domain:docs.example.com)"}},
		// MCP tools take no specifier: the tool's name is the narrowest.
		{"mcp__fs__write_file", `{"path":"x"}`, advise("mcp__fs__write_file"), []string{"mcp__fs__write_file"}},
	} {
		req := call(tc.tool, tc.input)
		d := FromAnswers(req, []ask.Answer{{Selected: []string{}, Skipped: true, Source: ask.SourceFile, Via: "ci.yaml"}})
		want := ask.Display(tc.tool) + " was not run: the answers file ci.yaml has no approval rule that allows it; do not retry it, and continue without it " + tc.advice
		if d.Allow || d.Message != want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, tc.input, d.Message, want)
		}
		saidOnce(t, tc.input, d.Message)
		if len(tc.rules) == 0 {
			continue
		}
		rules, err := ParseRules(strings.Join(tc.rules, " "), "ci.yaml line 2")
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := (Policy{Allow: rules}).Decide(req, nil); !ok || !d.Allow {
			t.Errorf("%s %s: the rules advised, %v, do not allow it", tc.tool, tc.input, tc.rules)
		}
	}
}

// TestAllowAdviceUnderRules: the advice names only what the file's rules
// do not decide already. Under allow Bash(git status:*), a line of git
// status and npm test is advised npm test's rule alone, and one of git
// status and rm -rf x none (the case: it advised both, the first
// already there and the second a blind allow of rm). A call an ask rule
// catches is advised no allow rule, which could not change that; nor is
// a path outside the session's folder, or in its .git folder.
func TestAllowAdviceUnderRules(t *testing.T) {
	var p Policy
	for _, list := range []struct {
		into  *[]Rule
		rules string
	}{{&p.Allow, "Bash(git status:*) Read(src/**)"}, {&p.Ask, "Bash(terraform:*)"}} {
		rs, err := ParseRules(list.rules, "ci.yaml line 3")
		if err != nil {
			t.Fatal(err)
		}
		*list.into = rs
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		tool, input, want string
	}{
		{"Bash", `{"command":"git status && npm test"}`, "(if the user wants such calls run without asking, they may add Bash(npm test:*) under approvals: allow: in ci.yaml; do not change that file yourself)."},
		{"Bash", `{"command":"git status && rm -rf x"}`, "(rm -rf x needs a person's approval each time: no rule is advised for it, since a rule for rm would allow it with any further arguments, unseen)."},
		{"Bash", `{"command":"terraform plan"}`, "(rule Bash(terraform:*) (ci.yaml line 3) has such calls asked whatever allows them, so a person must approve each)."},
		{"Read", `{"file_path":"/etc/passwd"}`, "(no rule is advised for it, since it is outside the session's folder; a person must approve such a call)."},
		{"Read", `{"file_path":"../elsewhere/secret"}`, "(no rule is advised for it, since it is outside the session's folder; a person must approve such a call)."},
		{"Edit", `{"file_path":".git/hooks/pre-commit"}`, "(no rule is advised for it, since it is inside a .git folder, whose hooks and config run code; a person must approve such a call)."},
	} {
		req := call(tc.tool, tc.input)
		req.Dir = dir
		d := p.Answered(req, []ask.Answer{{Selected: []string{}, Skipped: true, Source: ask.SourceFile, Via: "ci.yaml"}})
		want := tc.tool + " was not run: the answers file ci.yaml has no approval rule that allows it; do not retry it, and continue without it " + tc.want
		if d.Allow || d.Message != want {
			t.Errorf("%s %s:\n got %q\nwant %q", tc.tool, tc.input, d.Message, want)
		}
		if strings.Contains(d.Message, "git status:*") {
			t.Errorf("%s: advises a rule the file has already", tc.input)
		}
	}
}
