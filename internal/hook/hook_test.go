package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/approval"
)

const dbQuestion = "Which database should we use?"

// askInput is AskUserQuestion input as Claude Code passes it, with a key
// askuser's schema lacks (metadata), which must survive unchanged.
const askInput = `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"Relational"},{"label":"SQLite","description":"Embedded"}],"multiSelect":false},` +
	`{"question":"Which features?","header":"Features","options":[{"label":"Auth","description":"a"},{"label":"Export, CSV","description":"b"},{"label":"Search","description":"c"}],"multiSelect":true}],"metadata":{"source":"x"}}`

func preToolUse(tool, input string) []byte {
	return []byte(fmt.Sprintf(`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","prompt_id":"p","permission_mode":"default","effort":{"level":"high"},"hook_event_name":"PreToolUse","tool_name":%q,"tool_input":%s,"tool_use_id":"toolu_1"}`, tool, input))
}

// out decodes a reply's hookSpecificOutput, failing on anything that is
// not exit 0 with one JSON object.
func out(t *testing.T, r Reply) map[string]any {
	t.Helper()
	if r.Exit != 0 {
		t.Fatalf("exit %d, stderr %q; want a decision with exit 0", r.Exit, r.Stderr)
	}
	var v struct {
		Out map[string]any `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(r.Stdout, &v); err != nil || v.Out == nil {
		t.Fatalf("stdout %q is not a hook decision: %v", r.Stdout, err)
	}
	return v.Out
}

func cfgFor(fe ask.Frontend) Config {
	return Config{Ask: fe.Ask, SelfTool: "mcp__askuser__AskUserQuestion"}
}

func TestPreToolUseAnswersWithExactLabels(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("postgresql").Choose("Export, CSV", "Search")
	o := out(t, Run(t.Context(), preToolUse("AskUserQuestion", askInput), cfgFor(fe)))
	if o["hookEventName"] != "PreToolUse" || o["permissionDecision"] != "allow" {
		t.Fatalf("decision %v", o)
	}
	if _, ok := o["additionalContext"]; ok {
		t.Errorf("a person answered, yet additionalContext is %q", o["additionalContext"])
	}
	upd := o["updatedInput"].(map[string]any)
	want := map[string]any{dbQuestion: "PostgreSQL (Recommended)", "Which features?": `"Export, CSV", Search`}
	if fmt.Sprint(upd["answers"]) != fmt.Sprint(want) {
		t.Errorf("answers %v, want %v", upd["answers"], want)
	}
	var orig map[string]any
	_ = json.Unmarshal([]byte(askInput), &orig)
	for k, v := range orig {
		if fmt.Sprint(upd[k]) != fmt.Sprint(v) {
			t.Errorf("updatedInput[%s] = %v, want the input's %v unchanged", k, upd[k], v)
		}
	}
}

func TestPreToolUseNamesAMachineAnswer(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite").Other("also logging").From(ask.SourceFile)
	o := out(t, Run(t.Context(), preToolUse("AskUserQuestion", askInput), cfgFor(fe)))
	ctx, _ := o["additionalContext"].(string)
	if o["permissionDecision"] != "allow" || !strings.Contains(ctx, "answers file") || !strings.Contains(ctx, "No person answered") {
		t.Errorf("decision %v; want allow with additionalContext naming the answers file", o)
	}
	if a := o["updatedInput"].(map[string]any)["answers"].(map[string]any); a["Which features?"] != "also logging" || a[dbQuestion] != "SQLite" {
		t.Errorf("answers %v", a)
	}
	if _, ok := o["updatedInput"].(map[string]any)["annotations"]; ok {
		t.Error("the hook put annotations in updatedInput; it says who answered in additionalContext")
	}
}

func TestPreToolUseDeniesWithoutAnAnswer(t *testing.T) {
	for name, tc := range map[string]struct {
		script func(*asktest.Stub)
		want   string
	}{
		"nobody":  {func(s *asktest.Stub) { s.Fail(fmt.Errorf("%w: no terminal", ask.ErrNoAnswer)) }, "no terminal"},
		"skipped": {func(s *asktest.Stub) { s.Skip().Skip() }, "every question was skipped"},
	} {
		t.Run(name, func(t *testing.T) {
			fe := asktest.New(t)
			tc.script(fe.Expect("Database"))
			o := out(t, Run(t.Context(), preToolUse("AskUserQuestion", askInput), cfgFor(fe)))
			reason, _ := o["permissionDecisionReason"].(string)
			if o["permissionDecision"] != "deny" || !strings.Contains(reason, tc.want) || !strings.Contains(reason, dbQuestion) {
				t.Errorf("decision %v; want a denial saying %q and naming the question", o, tc.want)
			}
		})
	}
}

func TestPreToolUseInvalidInputListsEveryProblem(t *testing.T) {
	fe := asktest.New(t) // nothing may be asked
	bad := `{"questions":[{"question":"Q?","header":"Far too long a header","options":[{"label":"only one"}]}]}`
	o := out(t, Run(t.Context(), preToolUse("AskUserQuestion", bad), cfgFor(fe)))
	reason, _ := o["permissionDecisionReason"].(string)
	if o["permissionDecision"] != "deny" || !strings.Contains(reason, "header") || !strings.Contains(reason, "options") {
		t.Errorf("decision %v; want a denial listing the header and options problems", o)
	}
}

// The hook must never fail open: each broken input gets a denial (exit 0)
// or exit 2, never another code and never an allow.
func TestNeverFailsOpen(t *testing.T) {
	panicky := func(context.Context, ask.Request) ([]ask.Answer, error) { panic("frontend exploded") }
	hangs := func(context.Context, ask.Request) ([]ask.Answer, error) { select {} }
	cases := map[string]struct {
		input []byte
		ask   approval.Asker
		exit  int
		want  string
	}{
		"not JSON":      {[]byte("{not json"), panicky, 2, "not a JSON object"},
		"empty":         {nil, panicky, 2, "not a JSON object"},
		"no event name": {[]byte(`{"tool_name":"Bash"}`), panicky, 2, "no hook_event_name"},
		"unknown event": {[]byte(`{"hook_event_name":"PostToolUse"}`), panicky, 2, "PostToolUse"},
		"no tool":       {[]byte(`{"hook_event_name":"PreToolUse"}`), panicky, 0, "malformed PreToolUse event (tool_name is missing or empty), which no rule can decide; an event names the tool in tool_name and its input in tool_input"},
		"panic":         {preToolUse("AskUserQuestion", askInput), panicky, 0, "frontend exploded"},
		"hang":          {preToolUse("Bash", `{"command":"touch x"}`), hangs, 0, "no answer within"},
		"input garbage": {preToolUse("AskUserQuestion", `"a string"`), panicky, 0, "not a JSON object"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			r := Run(ctx, tc.input, Config{Ask: tc.ask, Grace: 20 * time.Millisecond})
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("took %v; the hook must answer within its deadline plus the grace", el)
			}
			if r.Exit != tc.exit {
				t.Fatalf("exit %d (stderr %q), want %d", r.Exit, r.Stderr, tc.exit)
			}
			if tc.exit == 2 {
				if len(r.Stdout) != 0 || !strings.Contains(r.Stderr, tc.want) {
					t.Errorf("stdout %q stderr %q; want only a message saying %q", r.Stdout, r.Stderr, tc.want)
				}
				return
			}
			o := out(t, r)
			if o["permissionDecision"] != "deny" || !strings.Contains(fmt.Sprint(o["permissionDecisionReason"]), tc.want) {
				t.Errorf("decision %v; want a denial saying %q", o, tc.want)
			}
		})
	}
}

func TestOtherToolsAreApproved(t *testing.T) {
	rules, err := approval.ParseRules("Bash(git status:*)", "ci.yaml line 3")
	if err != nil {
		t.Fatal(err)
	}
	policy := &approval.Policy{Allow: rules}
	cases := []struct {
		name, tool, input string
		script            func(*asktest.Frontend)
		allow             bool
		want              string
	}{
		{"rule allows", "Bash", `{"command":"git status"}`, func(*asktest.Frontend) {}, true, "Bash was allowed by rule Bash(git status:*) (ci.yaml line 3), not by a person at the time."},
		{"rule does not cover a second command", "Bash", `{"command":"git status && rm -rf x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Choose("Deny") }, false,
			"Bash was not run: the user denied it; do not retry it, and continue without it or ask the user what to do instead."},
		{"own tool", "mcp__askuser__AskUserQuestion", `{"questions":[]}`, func(*asktest.Frontend) {}, true, ""},
		{"person allows", "Bash", `{"command":"touch x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Choose("Allow") }, true, ""},
		{"person says instead", "Bash", `{"command":"touch x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Other("use /tmp") }, false, "Bash was not run, and the user said instead: use /tmp"},
		{"policy never approves", "Bash", `{"command":"touch x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Choose("Allow").From(ask.SourcePolicy) }, false,
			"Bash was not run: no person approved it (the recommended-option policy never allows a tool); do not retry it, and continue without it or ask the user."},
		{"file denies", "Bash", `{"command":"touch x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Choose("Deny").From(ask.SourceFile) }, false,
			"Bash was not run: an answers file denied it; do not retry it, and continue without it or ask the user what to do instead."},
		{"nobody", "Bash", `{"command":"touch x"}`, func(f *asktest.Frontend) { f.Expect("Approve").Fail(ask.ErrNoAnswer) }, false,
			"Bash was not run: askuser could not ask for approval (" + ask.ErrNoAnswer.Error() + "); do not retry it, and continue without it (a rule under approvals: in the answers file decides such calls without asking)."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fe := asktest.New(t)
			tc.script(fe)
			cfg := cfgFor(fe)
			cfg.Approvals = policy
			o := out(t, Run(t.Context(), preToolUse(tc.tool, tc.input), cfg))
			if (o["permissionDecision"] == "allow") != tc.allow {
				t.Fatalf("decision %v, want allow %v", o, tc.allow)
			}
			text, _ := o["permissionDecisionReason"].(string)
			if tc.allow {
				text, _ = o["additionalContext"].(string)
			}
			if text != tc.want {
				t.Errorf("decision %v\nsays %q\nwant %q", o, text, tc.want)
			}
			if tc.allow && fmt.Sprint(o["updatedInput"]) != fmt.Sprint(decode(t, tc.input)) {
				t.Errorf("updatedInput %v, want the input unchanged", o["updatedInput"])
			}
		})
	}
}

func TestPermissionRequestShape(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite").Choose("Auth")
	ev := strings.Replace(string(preToolUse("AskUserQuestion", askInput)), `"PreToolUse"`, `"PermissionRequest"`, 1)
	o := out(t, Run(t.Context(), []byte(ev), cfgFor(fe)))
	d, _ := o["decision"].(map[string]any)
	if o["hookEventName"] != "PermissionRequest" || d["behavior"] != "allow" {
		t.Fatalf("decision %v", o)
	}
	if a := d["updatedInput"].(map[string]any)["answers"].(map[string]any); a[dbQuestion] != "SQLite" || a["Which features?"] != "Auth" {
		t.Errorf("answers %v", a)
	}
}

// A PermissionRequest decision has no additionalContext, so an answer no
// person gave is named in updatedInput's annotations, the one channel to
// the model (as askuser mcp's approve does); without it Claude Code tells
// the model "Your questions have been answered" as if the user had.
func TestPermissionRequestNamesAMachineAnswer(t *testing.T) {
	fe := asktest.New(t)
	fe.Expect("Database").Choose("SQLite").Choose("Auth").From(ask.SourceFile)
	ev := strings.Replace(string(preToolUse("AskUserQuestion", askInput)), `"PreToolUse"`, `"PermissionRequest"`, 1)
	o := out(t, Run(t.Context(), []byte(ev), cfgFor(fe)))
	d, _ := o["decision"].(map[string]any)
	upd, _ := d["updatedInput"].(map[string]any)
	notes := fmt.Sprint(upd["annotations"])
	if d["behavior"] != "allow" || !strings.Contains(notes, dbQuestion) || !strings.Contains(notes, "Answered by an answers file") {
		t.Errorf("decision %v; want allow with annotations naming the answers file for each question", o)
	}
}

func decode(t *testing.T, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestWithAnswersNotesAndNoHTMLEscaping(t *testing.T) {
	qs := []ask.Question{{Question: "A & B <x>?", Header: "H", Options: []ask.Option{{Label: "<one>"}, {Label: "two"}}}}
	a, _ := ask.Selection(qs[0], []string{"<one>"}, "", ask.SourceFile)
	a.Via = "ci.yaml"
	got, n, err := approval.WithAnswers(json.RawMessage(`{"questions":[]}`), qs, []ask.Answer{a}, true)
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	if !strings.Contains(string(got), `"A & B <x>?":"<one>"`) {
		t.Errorf("updatedInput %s: the question and label must be exact, not HTML-escaped", got)
	}
	if !strings.Contains(string(got), `"annotations":{"A & B <x>?":{"notes":"Answered by an answers file`) || !strings.Contains(string(got), "ci.yaml") {
		t.Errorf("updatedInput %s: a file's answer must be noted in annotations", got)
	}
}

// Path rules read the call's path against the event's cwd: a path that
// leaves the rule's folder is asked about, not allowed.
func TestPathRulesReadAgainstCwd(t *testing.T) {
	rules, err := approval.ParseRules("Write(src/**)", "ci.yaml line 3")
	if err != nil {
		t.Fatal(err)
	}
	event := func(path string) []byte {
		return []byte(`{"hook_event_name":"PreToolUse","cwd":"/home/me/proj","tool_name":"Write","tool_use_id":"toolu_1","tool_input":{"file_path":"` + path + `","content":"x"}}`)
	}
	for path, want := range map[string]string{
		"src/a.go":                "allow",
		"/home/me/proj/src/b.go":  "allow",
		"src/../../etc/passwd":    "deny", // asked, and the person denies
		"/home/me/other/src/a.go": "deny",
	} {
		fe := asktest.New(t)
		if want == "deny" {
			fe.Expect("Approve").Choose("Deny")
		}
		cfg := cfgFor(fe)
		cfg.Approvals = &approval.Policy{Allow: rules}
		if o := out(t, Run(t.Context(), event(path), cfg)); o["permissionDecision"] != want {
			t.Errorf("%s: decision %v, want %s", path, o, want)
		}
	}
}

// A value the hook refuses is quoted in at most ask.ExcerptChars
// characters, with its length, however long the host sent it.
func TestRefusedValuesAreQuotedShort(t *testing.T) {
	long := strings.Repeat("P", 100_000)
	for name, ev := range map[string][]byte{
		"event":            []byte(`{"hook_event_name":"` + long + `"}`),
		"elicitation mode": []byte(`{"hook_event_name":"Elicitation","mcp_server_name":"s","mode":"` + long + `","message":"open"}`),
	} {
		r := Run(t.Context(), ev, cfgFor(asktest.New(t)))
		if len(r.Stderr) > 300 || !strings.Contains(r.Stderr, "(100000 characters)") {
			t.Errorf("%s: stderr of %d bytes: %.300q; want the value quoted short, with its length", name, len(r.Stderr), r.Stderr)
		}
	}
}
