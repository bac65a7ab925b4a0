package inbox

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

// A serve.log as askuser resume --output-format stream-json --frontend
// stdio leaves it: serve's own lines, question lines, events, what it said
// on stderr, and a line torn by a crash.
func serveLog(t *testing.T) string {
	t.Helper()
	approve := writeCall("toolu_w", authPlan).Question(true)
	answer, err := ask.Selection(authSet("toolu_1").Questions[0], []string{"JWT"}, "", ask.SourcePerson)
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{
		"",
		"--- askuser serve, 2026-11-26 02:51:02: resuming with 1 answer line given on the page by a person",
		`{"type":"system","subtype":"init","session_id":"s","model":"m","tools":["AskUserQuestion"]}`,
		strings.TrimSpace(string(wire.Encode(wire.NewQuestion(authSet("toolu_1"), "s")))),
		strings.TrimSpace(string(wire.Encode(wire.NewAnswers(authSet("toolu_1"), "s", []ask.Answer{answer})))),
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"Wrote 503 bytes to AUTH_PLAN.md"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"y","content":[{"type":"text","text":"no such file"}],"is_error":true}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"The file server answered.\n\u001b[31mDone\u001b[0m"},{"type":"tool_use","id":"t","name":"mcp__files__list_directory","input":{"path":"."}}]}}`,
		strings.TrimSpace(string(wire.Encode(wire.NewQuestion(approve, "s")))),
		fmt.Sprintf(`{"type":"result","subtype":"waiting_on_question","result":"x","pending_questions":[{"id":"toolu_w.approval","questions":[{"question":%q,"header":"Approve","options":[],"multiSelect":false}],"kind":"approval"}],"resume_command":"askuser resume s"}`,
			approve.Questions[0].Question),
		`askuser: warning: MCP server "files" said: <b>disk almost full</b>`,
		`{"type":"error","error":"answer line 2: no question set toolu_9 is waiting"}`,
		`{"type":"result","subtype":"error_max_turns","result":"Stopped at 3 turns."}`,
		`{"type":"question","id":"torn`,
		"--- askuser serve, 2026-11-26 02:51:03: askuser resume ended: exit 6, waiting: the session stopped to wait for an answer",
		"--- askuser serve: could not start askuser resume: fork/exec: no such file",
	}
	return strings.Join(lines, "\n") + "\n"
}

// The Progress box tells serve.log in words: never a JSON line, never a
// question line (the card shows it), every line made safe to show.
func TestReadableLog(t *testing.T) {
	stamp := func(s string) string {
		at, _ := time.ParseInLocation(time.DateTime, s, time.Local)
		return at.Format("15:04:05")
	}
	want := []logLine{
		{stamp("2026-11-26 02:51:02"), "serve", "resuming with 1 answer line given on the page by a person"},
		{"", "answer", "The session took the answer: Auth Method: JWT"},
		{"", "result", "Tool result: Wrote 503 bytes to AUTH_PLAN.md"},
		{"", "error", "Tool result (error): no such file"},
		{"", "agent", "The agent: The file server answered. Done"},
		{"", "tool", "Tool call: mcp__files__list_directory"},
		{"", "done", "The session stopped to wait for an answer: Allow mcp__fs__write_file to run?"},
		{"", "text", `askuser: warning: MCP server "files" said: <b>disk almost full</b>`},
		{"", "error", "askuser resume could not use an answer: answer line 2: no question set toolu_9 is waiting"},
		{"", "error", "The run ended (error_max_turns): Stopped at 3 turns."},
		{stamp("2026-11-26 02:51:03"), "serve", "askuser resume ended: exit 6, waiting: the session stopped to wait for an answer"},
		{"", "serve", "could not start askuser resume: fork/exec: no such file"},
	}
	got := readableLog(serveLog(t))
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the log told as\n%s\nwant\n%s", fmtLines(got), fmtLines(want))
	}
}

// TestReadableLogApprovals (issue 24 §7): an approval answered on the
// page is told as what it decided, with the tool, not as a question and
// its option ("Approve: Allow").
func TestReadableLogApprovals(t *testing.T) {
	approve := writeCall("toolu_w", authPlan).Question(true)
	var lines []string
	for _, a := range []struct{ label, other string }{{"Allow", ""}, {"Allow for the rest of this session", ""}, {"Deny", ""}, {"", "write it under docs/ instead"}} {
		var picked []string
		if a.label != "" {
			picked = []string{a.label}
		}
		answer, err := ask.Selection(approve.Questions[0], picked, a.other, ask.SourcePerson)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.TrimSpace(string(wire.Encode(wire.NewAnswers(approve, "s", []ask.Answer{answer})))))
	}
	want := []string{
		"The session took the answer: approved mcp__fs__write_file",
		"The session took the answer: approved mcp__fs__write_file for the rest of the session",
		"The session took the answer: denied mcp__fs__write_file",
		"The session took the answer: denied mcp__fs__write_file, and told the agent: write it under docs/ instead",
	}
	var got []string
	for _, l := range readableLog(strings.Join(lines, "\n")) {
		got = append(got, l.Text)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("approvals told as\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func fmtLines(ls []logLine) string {
	var b strings.Builder
	for _, l := range ls {
		fmt.Fprintf(&b, "  %s [%s] %s\n", l.At, l.Class, l.Text)
	}
	return b.String()
}

// On the page: the box says where the answer is, and shows no JSON and no
// instruction to run askuser resume.
func TestInboxProgressBox(t *testing.T) {
	g := newInboxRig(t)
	id := g.waitingCall("Plan the auth", writeCall("toolu_w", authPlan))
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_w.approval"), map[string][]string{"q0": {"0"}}); res.Code != 200 {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	g.args(1)
	page := g.get("/s/" + id).Body.String()
	progress, _, _ := strings.Cut(page[strings.Index(page, `id="progress"`):], "</section>")
	mustContain(t, progress, "askuser resume is taking your answer to the session (since ")
	g.release(1)
	g.eventually("the resume to end", func() bool { return len(g.in.Resuming()) == 0 })
	page = g.get("/s/" + id).Body.String()
	progress, _, _ = strings.Cut(page[strings.Index(page, `id="progress"`):], "</section>")
	mustContain(t, progress, `<li class="log-serve"><time>`, "resuming for an answer given on the page by a person",
		`<li class="log-text">resumed `+id+` (1)</li>`)
	for _, never := range []string{`{&#34;`, `{"`, "askuser resume " + id, "Answer at a terminal"} {
		if strings.Contains(page, never) {
			t.Errorf("the page shows %q", never)
		}
	}
}

// askuser serve says on stderr what happens: each answer taken, with who
// gave it, and each resume started and ended, naming the session by its
// short id and title, safe to show, never with the token.
func TestInboxLogsAnswers(t *testing.T) {
	g := newInboxRig(t)
	id := g.waitingCall("Plan the \x1b[2Jauth", writeCall("toolu_w", authPlan))
	qid := g.waiting("Pick one", authSet("toolu_1"))
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_w.approval"), map[string][]string{"q0": {"2"}}); res.Code != 200 {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	g.args(1)
	g.release(1)
	g.eventually("the resume to end", func() bool { return strings.Contains(g.logged(), "ended") })
	if res := g.post("/s/"+qid+"/answer/"+setKey("toolu_1"), map[string][]string{"q0": {"1"}, "q1": {"0", "other"}, "q1.other": {"Okta"}}); res.Code != 200 {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	g.args(2)
	clock := `askuser: [0-9]{2}:[0-9]{2}:[0-9]{2} session `
	want := []string{
		clock + id[:8] + ` "Plan the auth": a person on the page answered the approval of mcp__fs__write_file: Deny$`,
		clock + id[:8] + ` "Plan the auth": askuser resume started, for an answer given on the page by a person$`,
		clock + id[:8] + ` "Plan the auth": askuser resume ended: exit 6$`,
		clock + qid[:8] + ` "Pick one": a person on the page answered Auth Method: JWT; Providers: Google, Other: Okta$`,
		clock + qid[:8] + ` "Pick one": askuser resume started, for an answer given on the page by a person$`,
	}
	lines := strings.Split(strings.TrimSpace(g.logged()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("serve logged %d lines, want %d:\n%s", len(lines), len(want), g.logged())
	}
	for i, w := range want {
		if !regexp.MustCompile("^" + w).MatchString(lines[i]) {
			t.Errorf("line %d:\n%s\nwant\n%s", i+1, lines[i], w)
		}
	}
	if strings.Contains(g.logged(), g.in.srv.guard.token) || strings.Contains(g.logged(), "\x1b") {
		t.Error("serve's log holds the token or an escape sequence")
	}
	g.release(2)
}

// A long session's log is told from its end: the last maxLogLines lines,
// and an event line far longer than a line of the box (a tool's whole
// output) still told, cut.
func TestReadableLogBounded(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "askuser: warning %d\n", i)
	}
	fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":%q}]}}`+"\n",
		strings.Repeat("the whole file ", 2000))
	b.WriteString(`{"type":"result","subtype":"success","result":"done"}` + "\n")
	path := filepath.Join(t.TempDir(), logName)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	got := readableLog(tail(path, maxLogBytes))
	if len(got) != maxLogLines {
		t.Fatalf("%d lines told, want the last %d", len(got), maxLogLines)
	}
	last, result := got[len(got)-1], got[len(got)-2]
	if last.Text != "The session finished." || !strings.HasPrefix(result.Text, "Tool result: the whole file") ||
		len([]rune(result.Text)) != maxLogLineChars || got[0].Text != "askuser: warning 102" {
		t.Errorf("first %q, then … %q (%d characters), %q", got[0].Text, result.Text, len([]rune(result.Text)), last.Text)
	}
}
