// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
	"github.com/askuser/askuser/internal/clients"
)

// These tests drive real askuser processes against a Slack workspace on
// loopback (slackfake): Web API and Socket Mode in Slack's wire format. A
// person fills in the Block Kit message and presses Submit; the agent goes
// on.

var (
	slackAlice   = slackfake.User{ID: "U0ALICE", Name: "alice"}
	slackMallory = slackfake.User{ID: "U0MALLORY", Name: "mallory"}
)

// dbSlackScript asks one set, then ends with what it was told.
const dbSlackScript = `model: scripted-slack
turns:
  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// slackRig is a fake Slack workspace and the environment that points
// askuser at it, with its own state directory; alice and bob may answer.
type slackRig struct {
	fake  *slackfake.Server
	env   []string
	state string
	dir   string
}

func newSlackRig(t testing.TB, extra ...string) *slackRig {
	t.Helper()
	return newSlackRigOf(t, slackfake.Config{}, extra...)
}

// newSlackRigOf is newSlackRig with a workspace configured as cfg says
// (the token's scopes).
func newSlackRigOf(t testing.TB, cfg slackfake.Config, extra ...string) *slackRig {
	t.Helper()
	fake := slackfake.NewServer(cfg)
	t.Cleanup(fake.Close)
	r := &slackRig{fake: fake, state: filepath.Join(t.TempDir(), "state"), dir: t.TempDir()}
	r.env = append([]string{"ASKUSER_STATE_DIR=" + r.state, "XDG_CONFIG_HOME=" + t.TempDir(),
		"SLACK_BOT_TOKEN=" + fake.BotToken(), "SLACK_APP_TOKEN=" + fake.AppToken(), "ASKUSER_SLACK_CHANNEL=" + slackfake.Channel,
		"ASKUSER_SLACK_USERS=U0ALICE,U0BOB", "ASKUSER_SLACK_API_URL=" + fake.URL,
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}, extra...)
	return r
}

// file writes a file for askuser to read, and returns its path.
func (r *slackRig) file(t testing.TB, name, text string) string {
	t.Helper()
	path := filepath.Join(r.dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// message waits for a message that shows want.
func (r *slackRig) message(t testing.TB, want string) slackfake.Message {
	t.Helper()
	m, ok := r.fake.WaitMessage(waitLimit, slackfake.Showing(want))
	if !ok {
		t.Fatalf("no message shows %q; the workspace has:\n%s", want, r.fake.Views())
	}
	return m
}

// updated waits until message ts shows text.
func (r *slackRig) updated(t *testing.T, ts, text string) {
	t.Helper()
	if _, ok := r.fake.WaitMessage(waitLimit, slackfake.UpdatedTo(ts, text)); !ok {
		t.Fatalf("message %s never showed %q; the workspace has:\n%s", ts, text, r.fake.Views())
	}
}

// submit fills in message m as user (as first posted, when posted) and
// presses Submit, and requires the envelope to be acknowledged within
// Slack's 3 s.
func (r *slackRig) submit(t testing.TB, m slackfake.Message, user slackfake.User, posted bool, picks ...slackfake.Pick) slackfake.Envelope {
	t.Helper()
	submit := r.fake.Submit
	if posted {
		submit = r.fake.SubmitAsPosted
	}
	e, err := submit(waitLimit, m.TS, user, picks...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.fake.Acked(waitLimit, e)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// told waits until user is told text, privately.
func (r *slackRig) told(t testing.TB, user, text string) {
	t.Helper()
	if !r.fake.WaitTold(waitLimit, user, text) {
		t.Fatalf("%s was never told %q; ephemerals: %+v", user, text, r.fake.Ephemerals())
	}
}

// connections waits until n Socket Mode connections were opened and one
// is open.
func (r *slackRig) connections(t testing.TB, n int) {
	t.Helper()
	if !r.fake.WaitConnections(waitLimit, n) {
		opened, open := r.fake.Connections()
		t.Fatalf("%d Socket Mode connections opened (%d open), want %d", opened, open, n)
	}
}

// noTokens fails if a token appears in any of texts, in any file of the
// state directory, or in the command line of a running askuser.
func (r *slackRig) noTokens(t *testing.T, texts ...string) {
	t.Helper()
	_ = filepath.WalkDir(r.state, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			texts = append(texts, path+": "+string(b))
		}
		return nil
	})
	texts = append(texts, askuserCmdlines()...)
	for _, text := range texts {
		for _, tok := range []string{r.fake.BotToken(), r.fake.AppToken()} {
			if strings.Contains(text, tok) {
				t.Errorf("a token leaked: %.300s", text)
			}
		}
	}
}

// noServeToken fails if the token in serve's printed URL went to Slack,
// in any argument of any Web API call: Slack's servers, and everyone in
// the channel, would have the key to every question.
func (r *slackRig) noServeToken(t *testing.T, printed string) {
	t.Helper()
	token := serveToken(t, printed)
	calls := r.fake.Calls("")
	if len(calls) == 0 {
		t.Fatal("Slack got no calls: nothing was checked")
	}
	for _, c := range calls {
		for k, vs := range c.Form {
			for _, v := range vs {
				if strings.Contains(v, token) {
					t.Errorf("serve's token was sent to Slack, in %s's %s: %.300s", c.Method, k, v)
				}
			}
		}
	}
}

// askuserCmdlines are the command lines of the askuser processes running
// now (the process list).
func askuserCmdlines() []string {
	var out []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), askuserBin()) {
			out = append(out, "process list: "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

// waitErr waits until a process's stderr holds want.
func waitErr(t testing.TB, p *bgAskuser, want string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("stderr never held %q:\n%s", want, p.stderr)
		}
	}
}

// fourSlackScript asks four questions in one set.
const fourSlackScript = `model: scripted-slack
turns:
  - text: Four things first.
    tool_calls:
      - id: toolu_four
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}, {question: "Which features?", header: Features, multiSelect: true, options: [{label: Docs, description: Write docs}, {label: Tests, description: Add tests}, {label: Lint, description: Lint it}]}, {question: "Which region?", header: Region, multiSelect: false, options: [{label: eu-north, description: Stockholm}, {label: us-east, description: Virginia}]}, {question: "Deploy now?", header: Deploy, multiSelect: false, options: [{label: "Yes", description: Ship it}, {label: "No", description: Wait}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// A live run asks four questions in one Block Kit message and serves the
// channel itself (nothing else does). A stranger's Submit is refused, a
// half-filled form is refused with what to do, and alice's answer — a
// radio button, ticks with text, text alone, a radio button — reaches the
// agent once, though Slack sends it twice, named as hers. The message
// then shows who answered.
func TestSlackAnswersALiveRun(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t)
	script := r.file(t, "four.yaml", fourSlackScript)
	p := startBackground(t, r.env, "run", "-p", "--output-format", "stream-json", "--frontend", "slack", "--script", script, "Set up the project")
	m := r.message(t, "Deploy now?")
	for _, want := range []string{"*Question* from askuser · Set up the project", "( ) PostgreSQL (Recommended) — Relational", "[ ] Lint — Lint it", "[Submit]"} {
		if !strings.Contains(m.View(), want) {
			t.Errorf("the message lacks %q:\n%s", want, m.View())
		}
	}
	full := []slackfake.Pick{{Options: []int{1}}, {Options: []int{0, 2}, Other: "and a demo"}, {Other: "ap-south"}, {Options: []int{0}}}
	r.submit(t, m, slackMallory, false, full...)
	r.told(t, slackMallory.ID, channel.NotAllowed)
	r.submit(t, m, slackAlice, false, slackfake.Pick{}, full[1], full[2], full[3])
	r.told(t, slackAlice.ID, `"Database" needs an answer`)
	e := r.submit(t, m, slackAlice, false, full...)
	// Slack sends the same envelope again.
	if _, err := r.fake.Resend(waitLimit, &e); err != nil {
		t.Fatal(err)
	}
	continued := waitOutput(t, p, `Via: @alice on Slack`)
	t.Logf("from the tap to the agent going on: %v", continued.Sub(e.Sent))
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	events := p.stdout.String()
	for _, want := range []string{`"selectedOptions":["SQLite"],"source":"person","via":"@alice on Slack"`,
		`"selectedOptions":["Docs","Lint"],"customInput":"and a demo","source":"person","via":"@alice on Slack"`,
		`"selectedOptions":[],"customInput":"ap-south","source":"person"`, `Selected: SQLite\n   Via: @alice on Slack\n`, `"subtype":"success"`} {
		if !strings.Contains(events, want) {
			t.Errorf("the run's events lack %s:\n%s", want, events)
		}
	}
	if n := strings.Count(events, `"tool_use_id":"toolu_four"`); n != 1 {
		t.Errorf("the set was answered %d times", n)
	}
	r.updated(t, m.TS, "Answered: Database: SQLite; Features: Docs, Lint, Other: and a demo; Region: Other: ap-south; Deploy: Yes — by @alice on Slack")
	for _, x := range r.fake.Ephemerals() {
		if x.User == slackAlice.ID && !strings.Contains(x.Text, "needs an answer") {
			t.Errorf("alice was told %q", x.Text)
		}
	}
}

// askuser ask, outside a session: a set asked again after it timed out is
// a new revision in a new message; a Submit on the old message is refused
// as outdated, and the new one answers it.
func TestSlackStaleTapIsRefused(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t)
	q := r.file(t, "q.json", `{"questions":[{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL"},{"label":"SQLite"}]}]}`)
	first := startBackground(t, r.env, "ask", "--frontend", "slack", "--id", "set-db", "--timeout", "2s", q)
	old := r.message(t, "Which database should we use?")
	if code := first.exit(t); code != 7 {
		t.Fatalf("the first ask: exit %d, want 7 (timeout)\nstderr: %s", code, first.stderr)
	}
	second := startBackground(t, r.env, "ask", "--frontend", "slack", "--id", "set-db", "--json", q)
	if !r.fake.WaitFor(waitLimit, func(s *slackfake.Server) bool { return len(s.Messages()) >= 2 }) {
		t.Fatalf("the set was not asked anew:\n%s", r.fake.Views())
	}
	fresh := r.fake.Messages()[1]
	r.submit(t, old, slackAlice, true, slackfake.Pick{Options: []int{0}})
	r.told(t, slackAlice.ID, "This question changed: answer the latest message.")
	r.submit(t, fresh, slackAlice, false, slackfake.Pick{Options: []int{1}})
	if code := second.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, second.stderr)
	}
	if out := second.stdout.String(); !strings.Contains(out, `"selectedOptions":["SQLite"],"source":"person","via":"@alice on Slack"`) {
		t.Errorf("ask printed %s", out)
	}
}

// askuser channels test checks the settings against Slack and sends a
// sample question; a bad token is one line naming it, exit 1.
func TestSlackChannelsTest(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t)
	ok := startBackground(t, r.env, "channels", "test", "slack")
	if code := ok.exit(t); code != 0 || strings.TrimSpace(ok.stdout.String()) != "slack: ok: the settings work and a sample question was sent" {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, ok.stdout, ok.stderr)
	}
	r.message(t, "This is how askuser asks here.")
	bad := startBackground(t, append(r.env, "SLACK_BOT_TOKEN=xoxb-revoked-0123"), "channels", "test", "slack")
	if code := bad.exit(t); code != 1 || bad.stderr.String() != "askuser: slack: SLACK_BOT_TOKEN was refused: invalid_auth\n" {
		t.Errorf("a bad token: exit %d, stderr %q", code, bad.stderr)
	}
}

// An approval through Slack while askuser serve holds the channel: the
// tool and its whole input as a code block, cut at Slack's 3,000
// characters with a link to the session's inbox page for the rest, and
// the approval's own options. alice allows it, and the write runs.
func TestSlackApprovalShowsTheWholeInput(t *testing.T) {
	fs := clients.FilesystemServer(t)
	t.Parallel()
	r := newSlackRig(t)
	work := filepath.Join(r.dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"fs": map[string]any{"command": fs, "args": []string{work}}}})
	const line = "a line of the notes that goes on"
	content := strings.Repeat(line+`\n`, 200) // the YAML string's escape
	script := r.file(t, "write.yaml", `model: scripted-fs
turns:
  - tool_calls:
      - {name: mcp__fs__write_file, input: {path: notes.txt, content: "`+content+`"}}
  - text: "Wrote: {{tool_results}}"
`)
	serve := startBackground(t, r.env, "serve")
	inbox := serve.url(t)
	run := startBackground(t, r.env, "run", "-p", "--frontend", "slack", "--mcp-config", r.file(t, "fs.json", string(cfg)), "--script", script, "Write the notes")
	m := r.message(t, "Allow mcp__fs__write_file to run?")
	view := m.View()
	base, _, _ := strings.Cut(inbox, "?")
	link := regexp.MustCompile("<(" + regexp.QuoteMeta(base) + `s/[0-9a-f-]{36})\|the inbox page>`).FindStringSubmatch(view)
	if link == nil {
		t.Errorf("the cut input does not link to the session's inbox page, without the token:\n%s", view)
	}
	code := view[strings.Index(view, "```") : strings.LastIndex(view, "```")+3]
	if n := utf8.RuneCountInString(code); n < 2800 || n > 3000 || !strings.HasPrefix(code, "```{\n  \"content\": \"a line of the notes") {
		t.Errorf("the input's code block (%d characters) should fill Slack's 3,000 from the input's start:\n%.200s", n, code)
	}
	for _, want := range []string{"*Approval* from askuser", "( ) Allow — Run this call", "( ) Allow for the rest of this session", "( ) Deny", "Other: instructions:", "more characters; all of it is on"} {
		if !strings.Contains(view, want) {
			t.Errorf("the approval lacks %q:\n%s", want, view)
		}
	}
	r.submit(t, m, slackAlice, false, slackfake.Pick{Options: []int{0}})
	if code := run.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s\nserve: %s", code, run.stderr, serve.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != strings.Repeat(line+"\n", 200) {
		t.Errorf("the approved write: %d bytes, %v", len(b), err)
	}
	r.updated(t, m.TS, "Answered: Allow — by @alice on Slack")
	r.noServeToken(t, inbox)
}

// The faults, in a live run that serves the channel itself: a 429 is
// waited out before chat.postMessage is called again; a socket gone
// silent past its timeout plus the grace (shortened here) is abandoned
// and another opened; a dropped one is opened again; the tap then
// arrives on the third. No token reaches the output, --verbose, the
// journal, the state directory or the process list.
func TestSlackFaults(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t, "ASKUSER_SLACK_PING_TIMEOUT=300ms", "ASKUSER_SLACK_GRACE=200ms")
	script := r.file(t, "db.yaml", dbSlackScript)
	r.fake.RateLimit("chat.postMessage", 1)
	p := startBackground(t, r.env, "run", "-p", "--verbose", "--frontend", "slack", "--script", script, "Pick a database")
	m := r.message(t, "Which database should we use?")
	calls := r.fake.Calls("chat.postMessage")
	if len(calls) != 2 || calls[0].Status != 429 || calls[1].At.Sub(calls[0].At) < time.Second {
		t.Errorf("chat.postMessage after a 429 asking for 1s: %+v", calls)
	}
	r.connections(t, 1)
	processes := askuserCmdlines()
	r.fake.Silence()
	silent := time.Now()
	r.connections(t, 2)
	if d := time.Since(silent); d < 300*time.Millisecond {
		t.Errorf("a silent socket was abandoned after %v; it may stay silent 500ms", d)
	}
	r.fake.Drop()
	r.connections(t, 3)
	e := r.submit(t, m, slackAlice, false, slackfake.Pick{Options: []int{1}})
	if e.Conn != 3 {
		t.Errorf("the tap went to connection %d, want the third", e.Conn)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	if !strings.Contains(p.stdout.String(), "Selected: SQLite\n   Via: @alice on Slack") {
		t.Errorf("the result: %s", p.stdout)
	}
	r.noTokens(t, append(processes, p.stdout.String(), p.stderr.String())...)
}

// journalHas reports whether a session journal of the state directory
// holds text.
func (r *slackRig) journalHas(t *testing.T, text string) bool {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(r.state, "sessions", "*.jsonl"))
	for _, f := range files {
		if b, _ := os.ReadFile(f); strings.Contains(string(b), text) {
			return true
		}
	}
	return false
}

// waitFile waits until a file matching glob holds text.
func (r *slackRig) waitFile(t *testing.T, glob, text string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			if b, _ := os.ReadFile(f); strings.Contains(string(b), text) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no file %s holds %q", glob, text)
		}
	}
}

// sessionID is the only session of the state directory.
func (r *slackRig) sessionID(t *testing.T) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(r.state, "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d sessions, want one", len(files))
	}
	return strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
}

// A run asks through Slack while askuser serve holds the channel, and the
// Web API is down: the set waits, the run stops to wait (exit 6), and
// serve sends the set when the API is back. serve is killed (kill -9) and
// started again before anyone answers; alice's Submit then reaches the new
// serve, which resumes the session in the background and posts what the
// agent did next in the question's thread.
func TestSlackAnswersASuspendedRun(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t)
	script := r.file(t, "db.yaml", dbSlackScript)
	r.fake.Fail("chat.postMessage", 2, 503)
	first, run := r.suspendUnderServe(t, script)
	m := r.message(t, "Which database should we use?")
	if calls := r.fake.Calls("chat.postMessage"); len(calls) != 3 || calls[0].Status != 503 || calls[1].Status != 503 {
		t.Errorf("chat.postMessage calls: %+v; want two failures, then the message", calls)
	}
	// Killed once it has kept the message's reference (a kill before that
	// posts the set again: TestBothCopiesOfASetShowTheAnswer).
	r.waitFile(t, filepath.Join(r.state, "relay", "*.json"), `"ref":{"channel":"`+slackfake.Channel)
	_ = first.cmd.Process.Kill()
	<-first.done
	second := startBackground(t, r.env, "serve")
	waitErr(t, second, "serving chat channels: slack")
	r.connections(t, 2)
	r.submit(t, m, slackAlice, false, slackfake.Pick{Options: []int{1}})
	r.updated(t, m.TS, "Answered: SQLite — by @alice on Slack")
	var reply slackfake.Message
	if !r.fake.WaitFor(waitLimit, func(s *slackfake.Server) bool {
		for _, x := range s.Messages() {
			if x.Thread == m.TS && strings.Contains(x.View(), "Set up with what I was told") {
				reply = x
				return true
			}
		}
		return false
	}) {
		t.Fatalf("what the agent did next was not posted in the thread:\n%s\nserve: %s", r.fake.Views(), second.stderr)
	}
	if !strings.Contains(reply.View(), "Via: @alice on Slack") {
		t.Errorf("the reply: %s", reply.View())
	}
	if !r.journalHas(t, `"via":"@alice on Slack"`) {
		t.Error("the journal does not name alice on Slack")
	}
	r.noTokens(t, first.stderr.String(), second.stderr.String(), run.stdout.String(), run.stderr.String())
}

// suspendUnderServe starts askuser serve holding Slack, then a run of
// script asking through Slack, and waits until the run stops to wait
// (exit 6); it returns both.
func (r *slackRig) suspendUnderServe(t *testing.T, script string) (serve, run *bgAskuser) {
	t.Helper()
	serve = startBackground(t, r.env, "serve")
	waitErr(t, serve, "serving chat channels: slack")
	run = startBackground(t, r.env, "run", "-p", "--frontend", "slack", "--ask-timeout", "1s", "--script", script, "Pick a database")
	if code := run.exit(t); code != 6 {
		t.Fatalf("the run: exit %d, want 6 (waiting)\nstderr: %s", code, run.stderr)
	}
	return serve, run
}

// A message the person deleted: the set is answered on the inbox page
// instead, the outcome has nowhere to show (not retried for ever), and
// what the agent did next goes to the channel, the thread being gone.
func TestSlackDeletedMessage(t *testing.T) {
	t.Parallel()
	r := newSlackRig(t)
	script := r.file(t, "db.yaml", dbSlackScript)
	serve := startBackground(t, r.env, "serve")
	inbox := serve.url(t)
	run := startBackground(t, r.env, "run", "-p", "--frontend", "slack", "--ask-timeout", "1s", "--script", script, "Pick a database")
	if code := run.exit(t); code != 6 {
		t.Fatalf("the run: exit %d, want 6\nstderr: %s", code, run.stderr)
	}
	m := r.message(t, "Which database should we use?")
	r.fake.Delete(m.TS)
	base, query, _ := strings.Cut(inbox, "?")
	webAnswer(t, base+"s/"+r.sessionID(t)+"?"+query, url.Values{"q0": {"1"}})
	if !r.fake.WaitFor(waitLimit, func(s *slackfake.Server) bool {
		for _, x := range s.Messages() {
			if x.Thread == "" && strings.Contains(x.View(), "Set up with what I was told") {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("what the agent did next was not posted:\n%s\nserve: %s", r.fake.Views(), serve.stderr)
	}
	var updates []slackfake.Call
	for _, c := range r.fake.Calls("chat.update") {
		if c.Form.Get("ts") == m.TS {
			updates = append(updates, c)
		}
	}
	if len(updates) != 1 || updates[0].Error != "message_not_found" {
		t.Errorf("updates of the deleted message: %+v; want one, refused", updates)
	}
	if strings.Contains(serve.stderr.String(), "message_not_found") {
		t.Errorf("serve reported the deleted message as a failure:\n%s", serve.stderr)
	}
	r.noServeToken(t, inbox)
}

// askuser serve killed (kill -9) after Slack took a question's message and
// before serve noted it: the next serve finds that message by its metadata
// (the bot may read the channel's history) and adopts it, so the question
// is in the channel once, and alice's Submit on it resumes the session.
func TestSlackFindsTheMessageAKilledServeSent(t *testing.T) {
	t.Parallel()
	r := newSlackRigOf(t, slackfake.Config{Scopes: "chat:write,channels:history"})
	script := r.file(t, "db.yaml", dbSlackScript)
	r.fake.Stall("chat.postMessage")
	first, _ := r.suspendUnderServe(t, script)
	m := r.message(t, "Which database should we use?")
	r.waitFile(t, filepath.Join(r.state, "relay", "*.json"), `"sending":`)
	_ = first.cmd.Process.Kill()
	<-first.done
	second := startBackground(t, r.env, "serve")
	waitErr(t, second, "serving chat channels: slack")
	r.waitFile(t, filepath.Join(r.state, "relay", "*.json"), `"ts":"`+m.TS+`"`)
	r.connections(t, 2)
	r.submit(t, m, slackAlice, false, slackfake.Pick{Options: []int{1}})
	r.updated(t, m.TS, "Answered: SQLite — by @alice on Slack")
	// serve's background resume posts what the agent did next when it
	// ends; the test ends after it, not while it still writes the state
	// directory (whose removal then failed now and then).
	if !r.fake.WaitFor(waitLimit, func(s *slackfake.Server) bool { return threadReplies(r, m.TS) > 0 }) {
		t.Fatalf("what the agent did next was not posted in the thread:\n%s\nserve: %s", r.fake.Views(), second.stderr)
	}
	if n := len(r.fake.Messages()); n < 1 || len(r.fake.Calls("chat.postMessage")) != 1+threadReplies(r, m.TS) {
		t.Errorf("the question was posted again:\n%s", r.fake.Views())
	}
	if len(r.fake.Calls("conversations.history")) == 0 {
		t.Error("the second serve never looked for the message")
	}
}

// threadReplies counts the messages posted in thread ts (what the agent
// did next).
func threadReplies(r *slackRig, ts string) int {
	n := 0
	for _, x := range r.fake.Messages() {
		if x.Thread == ts {
			n++
		}
	}
	return n
}
