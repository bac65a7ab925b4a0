package approval

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
)

func call(tool, input string) Request {
	return Request{ID: "toolu_1", Tool: tool, Input: json.RawMessage(input)}
}

func TestRuleForms(t *testing.T) {
	tests := []struct {
		rule  string
		call  Request
		match bool
	}{
		{"mcp__fs__read_file", call("mcp__fs__read_file", `{"path":"a"}`), true},
		{"mcp__fs__read_file", call("mcp__fs__write_file", `{}`), false},
		{"mcp__fs__read_file", call("mcp__fs__read_file_extra", `{}`), false},
		{"mcp__fs", call("mcp__fs__write_file", `{}`), true},
		{"mcp__fs", call("mcp__fsx__write_file", `{}`), false},
		{"mcp__fs__*", call("mcp__fs__list_directory", `{}`), true},
		{"mcp__fs__*", call("mcp__other__list_directory", `{}`), false},
		{"Bash", call("Bash", `{"command":"rm -rf /"}`), true},
		{"Bash(*)", call("Bash", `{"command":"anything"}`), true},
		{"Bash(git status:*)", call("Bash", `{"command":"git status"}`), true},
		{"Bash(git status:*)", call("Bash", `{"command":"git status --short"}`), true},
		{"Bash(git status:*)", call("Bash", `{"command":"git statusx"}`), false},
		{"Bash(git status:*)", call("Bash", `{"command":"git push"}`), false},
		{"Bash(npm run build)", call("Bash", `{"command":"npm run build"}`), true},
		{"Bash(npm run build)", call("Bash", `{"command":"npm run build && rm -rf /"}`), false},
		{"Bash(npm run *)", call("Bash", `{"command":"npm run test"}`), true},
		{"Bash(ls *)", call("Bash", `{"command":"ls"}`), true},
		{"Bash(git * main)", call("Bash", `{"command":"git push origin main"}`), true},
		{"Bash(git * main)", call("Bash", `{"command":"git push origin dev"}`), false},
		{"Write(src/*)", call("Write", `{"file_path":"src/a.go"}`), true},
		{"Write(src/*)", call("Write", `{"file_path":"etc/passwd"}`), false},
		{"Bash(git status:*)", call("Bash", `{"cmd":"git status"}`), false}, // no subject: a specifier cannot match
		{"Bash", call("BashOutput", `{}`), false},
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.rule, "--allowedTools")
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		d, decided := Policy{Allow: []Rule{r}}.Decide(tt.call, nil)
		if got := decided && d.Allow; got != tt.match {
			t.Errorf("%s matches %s %s = %v, want %v", tt.rule, tt.call.Tool, tt.call.Input, got, tt.match)
		}
	}
}

func TestBadRules(t *testing.T) {
	for rule, want := range map[string]string{
		"":                      "names no tool",
		"mcp__*":                "would match every server",
		"mcp__fs__":             "name the tool",
		"Bash(git status":       "ends with ')'",
		"mcp__fs__read(x)":      "MCP tools take no specifier",
		"Bash git":              "", // two rules when split, one when parsed alone: see TestParseRules
		"Read File(x)":          "no spaces",
		"Bash()":                "empty specifier",
		"Bash( )":               "empty specifier",
		"Read(src/[a)":          "malformed",
		"mcp__\x1b[2Jfs*__tool": "would match every server",
	} {
		_, err := ParseRule(rule, "x")
		if want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRule(%q) = %v, want an error saying %q", rule, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\x1b") {
			t.Errorf("error %q quotes an escape sequence", err)
		}
	}
}

func TestParseRules(t *testing.T) {
	rules, err := ParseRules("mcp__fs__read_file, mcp__fs__list_directory Bash(git log:*),Bash(npm run test, lint)", "--allowedTools")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.String())
	}
	if strings.Join(got, "|") != "mcp__fs__read_file|mcp__fs__list_directory|Bash(git log:*)|Bash(npm run test, lint)" {
		t.Errorf("rules %q", got)
	}
	if _, err := ParseRules("mcp__fs, mcp__*", "--allowedTools"); err == nil || !strings.HasPrefix(err.Error(), "--allowedTools: ") {
		t.Errorf("err %v, want one naming the flag", err)
	}
}

func mustRules(t *testing.T, list string) []Rule {
	t.Helper()
	r, err := ParseRules(list, "test")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDecidePrecedence(t *testing.T) {
	write := call("mcp__fs__write_file", `{"path":"x"}`)
	tests := []struct {
		name    string
		policy  Policy
		grants  Grants
		decided bool
		allow   bool
		by      Maker
	}{
		{"nothing allows: ask", Policy{}, nil, false, false, ""},
		{"allow rule", Policy{Allow: mustRules(t, "mcp__fs")}, nil, true, true, ByRule},
		{"deny beats allow", Policy{Allow: mustRules(t, "mcp__fs"), Deny: mustRules(t, "mcp__fs__write_file")}, nil, true, false, ByRule},
		{"ask beats allow", Policy{Allow: mustRules(t, "mcp__fs"), Ask: mustRules(t, "mcp__fs__write_file")}, nil, false, false, ""},
		{"bypass mode allows", Policy{Mode: ModeBypass}, nil, true, true, ByMode},
		{"deny beats bypass", Policy{Mode: ModeBypass, Deny: mustRules(t, "mcp__fs")}, nil, true, false, ByRule},
		{"grant allows", Policy{}, Grants{"mcp__fs__write_file": {Allow: true, Scope: ScopeSession, By: ByPerson, Why: "a person"}}, true, true, ByGrant},
		{"grant for another tool", Policy{}, Grants{"mcp__fs__read_file": {Allow: true}}, false, false, ""},
		{"deny beats grant", Policy{Deny: mustRules(t, "mcp__fs")}, Grants{"mcp__fs__write_file": {Allow: true}}, true, false, ByRule},
	}
	for _, tt := range tests {
		d, ok := tt.policy.Decide(write, tt.grants)
		if ok != tt.decided || d.Allow != tt.allow || d.By != tt.by {
			t.Errorf("%s: decided %v %+v; want decided %v allow %v by %q", tt.name, ok, d, tt.decided, tt.allow, tt.by)
		}
		if ok && !d.Allow && !strings.Contains(d.Message, "mcp__fs__write_file") {
			t.Errorf("%s: denial %q does not name the tool", tt.name, d.Message)
		}
	}
}

// Trap 1: the recommended-option policy falls back to the first option,
// and "Allow" is first. Its answers never approve, whatever it picked.
func TestPolicyNeverApproves(t *testing.T) {
	req := call("mcp__fs__write_file", `{"path":"x","content":"y"}`)
	q := req.Question(true)
	for _, answer := range []ask.Answer{
		ask.Recommended(q.Questions[0], ""),
		ask.Recommended(q.Questions[0], "no person answered within 5m0s"),
		{Selected: []string{LabelAllowSession}, Source: ask.SourcePolicy},
		{Selected: []string{LabelAllow}, Source: ""},
		{Selected: []string{LabelAllow}, Source: "robot"},
	} {
		d := FromAnswers(req, []ask.Answer{answer})
		if d.Allow || d.By != ByPolicy || !strings.Contains(d.Message, "no person approved") {
			t.Errorf("answer %+v gave %+v; want a denial saying no person approved", answer, d)
		}
	}
	if got := ask.Recommended(q.Questions[0], "").Selected; len(got) != 1 || got[0] != LabelAllow {
		t.Fatalf("the policy picked %v: this test assumes it would pick Allow", got)
	}
}

// Trap 2: a caller that cannot decide must still deny, never fail open.
func TestFailureDenies(t *testing.T) {
	var zero Decision
	if zero.Allow {
		t.Error("the zero Decision allows")
	}
	d := Failed("Bash", errors.New("stdin ended"))
	if d.Allow || !strings.Contains(d.Message, "Bash") || !strings.Contains(d.Message, "stdin ended") {
		t.Errorf("Failed = %+v", d)
	}
}

func TestFromAnswers(t *testing.T) {
	req := call("mcp__fs__write_file", `{"path":"x"}`)
	fe := asktest.New(t)
	q := req.Question(true)
	fe.Expect(q.Questions[0].Question).Choose(LabelAllowSession)
	fe.Expect(q.Questions[0].Question).Other("write it to /tmp instead")
	fe.Expect(q.Questions[0].Question).Choose(LabelDeny).From(ask.SourceProgram)
	want := []struct {
		allow bool
		scope Scope
		by    Maker
		msg   string
	}{
		{true, ScopeSession, ByPerson, ""},
		{false, "", ByPerson, "said instead: write it to /tmp instead"},
		{false, "", ByProgram, "a program over JSON lines (not confirmed to be a person) denied it"},
	}
	for _, w := range want {
		answers, err := fe.Ask(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		d := FromAnswers(req, answers)
		if d.Allow != w.allow || d.Scope != w.scope || d.By != w.by || !strings.Contains(d.Message, w.msg) {
			t.Errorf("decision %+v, want allow %v scope %q by %q message with %q", d, w.allow, w.scope, w.by, w.msg)
		}
	}
	// Declined (askuser cancel): not run, and the model is told why.
	declined := []ask.Answer{ask.Decline(q.Questions[0], "not today", time.Now())}
	if d := FromAnswers(req, declined); d.Allow || !strings.Contains(d.Message, "declined to answer its approval question (askuser cancel); do not retry it, and continue without it or ask the user; their reason: not today") {
		t.Errorf("declined approval: %+v", d)
	}
}

func TestQuestionAndSummary(t *testing.T) {
	big := strings.Repeat("x", 5000)
	req := Request{ID: "toolu_9", Tool: "mcp__fs__write_file", Input: json.RawMessage(`{"path":"/tmp/a\u001b[2J","content":"` + big + `","mode":420}`)}
	q := req.Question(false)
	if q.ID != "toolu_9.approval" || q.Kind != ask.KindApproval || len(q.Questions) != 1 {
		t.Fatalf("question set %+v", q)
	}
	if _, err := ask.Parse(mustJSON(t, ask.Input{Questions: q.Questions})); err != nil {
		t.Errorf("the approval question is not a valid question set: %v", err)
	}
	text := q.Questions[0].Question
	for _, want := range []string{"Allow mcp__fs__write_file to run?", "path: /tmp/a", "mode: 420", "(5000 characters)"} {
		if !strings.Contains(text, want) {
			t.Errorf("question %q lacks %q", text, want)
		}
	}
	if strings.Contains(text, "\x1b") || len(text) > 600 {
		t.Errorf("question is not sanitised and short: %d bytes", len(text))
	}
	// The whole input travels with the set, for a person who asks to see it.
	if q.Detail != req.FullInput() || !strings.Contains(q.Detail, big) || strings.Contains(q.Detail, "\x1b") {
		t.Errorf("Detail is not the whole input, sanitised: %d bytes", len(q.Detail))
	}
	labels := []string{}
	for _, o := range q.Questions[0].Options {
		labels = append(labels, o.Label)
		if ask.IsRecommended(o.Label) {
			t.Errorf("option %q is recommended: an approval has no default", o.Label)
		}
	}
	if strings.Join(labels, "|") != "Allow|Deny" {
		t.Errorf("labels %v without the session option", labels)
	}
	if f, s := subjectField(req.Input); f == "" || s != "/tmp/a\x1b[2J" {
		t.Errorf("subject %q from field %q; rules match the input as sent", s, f)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSummaryCountsAsWritten: a value cut short in the summary says how
// long it is as written, not after its line breaks and runs of spaces
// were collapsed to show it on one line.
func TestSummaryCountsAsWritten(t *testing.T) {
	value := strings.Repeat("x\n\n", 99) + "xx" // 299 characters; shown, 199
	for name, in := range map[string]string{
		"a value":    string(mustJSON(t, map[string]string{"content": value})),
		"a key":      string(mustJSON(t, map[string]int{value: 1})),
		"not a JSON": value,
	} {
		got := call("Write", in).Summary()
		if !strings.Contains(got, "… (299 characters)") || strings.Contains(got, "\n\n") {
			t.Errorf("%s: summary %q, want it cut on one line saying (299 characters)", name, got)
		}
	}
}

// The options' descriptions fit a chat platform's option (Slack's 75
// characters), whatever the tool is called, so no channel lists them
// again "in full"; they still say what each does.
func TestOptionDescriptionsFitAChatOption(t *testing.T) {
	const limit = 75 // Slack's option description
	for _, tool := range []string{"Bash", "mcp__" + strings.Repeat("filesystem", 6) + "__write_file"} {
		for _, session := range []bool{true, false} {
			q := call(tool, `{"command":"ls"}`).Question(session).Questions[0]
			for _, o := range q.Options {
				if n := utf8.RuneCountInString(o.Description); n > limit || n == 0 {
					t.Errorf("%s: %q has a description of %d characters, want 1 to %d: %q", tool, o.Label, n, limit, o.Description)
				}
			}
		}
	}
	opts := call("Bash", `{}`).Question(true).Questions[0].Options
	for label, words := range map[string][]string{LabelAllowSession: {"later call", "session"}, LabelDeny: {"not run", "told", "Other"}} {
		i := slices.IndexFunc(opts, func(o ask.Option) bool { return o.Label == label })
		for _, w := range words {
			if i < 0 || !strings.Contains(opts[i].Description, w) {
				t.Errorf("%q's description lost %q: %+v", label, w, opts)
			}
		}
	}
}
