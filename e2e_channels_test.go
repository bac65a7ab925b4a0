// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// These tests drive real askuser processes against the test channel's
// fake platform, on loopback: a person taps in the chat, and the agent
// goes on. askuser is built with the test channel linked in (TestMain).

// chanScript asks one set, then ends with what it was told.
const chanScript = `model: scripted-chan
turns:
  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// chanRig is a fake platform and the environment that points askuser at
// it, with its own state directory; alice and bob may answer.
type chanRig struct {
	srv    *channeltest.Server
	env    []string
	state  string
	script string
}

func newChanRig(t testing.TB) *chanRig {
	t.Helper()
	srv := channeltest.NewServer("tok-e2e-0123456789")
	t.Cleanup(srv.Close)
	cr := &chanRig{srv: srv, state: filepath.Join(t.TempDir(), "state"), script: filepath.Join(t.TempDir(), "chan.yaml")}
	if err := os.WriteFile(cr.script, []byte(chanScript), 0o600); err != nil {
		t.Fatal(err)
	}
	cr.env = []string{"ASKUSER_STATE_DIR=" + cr.state, "XDG_CONFIG_HOME=" + t.TempDir(), "TESTCHAN_TOKEN=" + srv.Token,
		"ASKUSER_TESTCHAN_ROOM=room-1", "ASKUSER_TESTCHAN_USERS=U-alice,U-bob", "ASKUSER_TESTCHAN_API_URL=" + srv.URL,
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}
	return cr
}

// message waits for a message that cond accepts.
func (cr *chanRig) message(t testing.TB, what string, cond func(channeltest.Message) bool) channeltest.Message {
	t.Helper()
	var found channeltest.Message
	_, ok := cr.srv.WaitFor(waitLimit, func(ms []channeltest.Message) bool {
		for _, m := range ms {
			if cond(m) {
				found = m
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("no message %s; the platform has %+v", what, cr.srv.Messages())
	}
	return found
}

func asking(header string) func(channeltest.Message) bool {
	return func(m channeltest.Message) bool { return strings.Contains(m.Text, header+":") }
}

// tap taps as alice and requires the tap to be taken.
func (cr *chanRig) tap(t testing.TB, m channeltest.Message, picks ...channeltest.Pick) time.Time {
	t.Helper()
	at := time.Now()
	if _, v, err := cr.srv.Tap(waitLimit, "U-alice", "@alice", m, picks...); err != nil || !v.OK {
		t.Fatalf("alice's tap: %+v, %v", v, err)
	}
	return at
}

// A live run asks through the channel, which it serves itself (nothing
// else does); alice's tap answers it, the agent goes on with her answer,
// named as hers, and the widget says who answered.
func TestChannelAnswersALiveRun(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	p := startBackground(t, cr.env, "run", "-p", "--output-format", "stream-json", "--frontend", "testchan", "--script", cr.script, "Set up the project")
	m := cr.message(t, "asking about the database", asking("Database"))
	if m.Title != "Set up the project" {
		t.Errorf("the message's title: %q", m.Title)
	}
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	events := p.stdout.String()
	for _, want := range []string{`"selectedOptions":["SQLite"],"source":"person","via":"@alice on testchan"`,
		`Selected: SQLite\n   Via: @alice on testchan\n\nProceeding with user selections.`, `"subtype":"success"`} {
		if !strings.Contains(events, want) {
			t.Errorf("the run's events lack %s:\n%s", want, events)
		}
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by @alice on testchan, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
}

// startServe starts askuser serve on the rig's state directory, serving
// the test channel, and waits until it says so.
func (cr *chanRig) startServe(t testing.TB) *bgAskuser {
	t.Helper()
	p := startBackground(t, cr.env, "serve")
	for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), "serving chat channels: testchan"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start serving the channel: %s", p.stderr)
		}
	}
	return p
}

// suspend runs the script until it stops to wait on its question, asked
// through the channel, and returns the session's id.
func (cr *chanRig) suspend(t *testing.T) string {
	t.Helper()
	run := exec.Command(askuserBin(), "run", "-p", "--output-format", "json", "--frontend", "testchan", "--ask-timeout", "1s",
		"--on-timeout", "suspend", "--script", cr.script, "Set up the project")
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), cr.env...)
	out, err := run.Output()
	if run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the run should stop to wait (exit 6): %v\n%s", err, out)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.SessionID == "" {
		t.Fatalf("the run's result: %v\n%s", err, out)
	}
	return res.SessionID
}

// journal returns session id's journal.
func (cr *chanRig) journal(t *testing.T, id string) string {
	b, err := os.ReadFile(filepath.Join(cr.state, "sessions", id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// replied waits for what the agent did next to be posted beside m.
func (cr *chanRig) replied(t *testing.T, m channeltest.Message) channeltest.Message {
	t.Helper()
	return cr.message(t, "with what the agent did next", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 0 })
}

// A run stops to wait on its question (exit 6) while the platform is
// down; askuser serve holds the channel and sends the question when the
// platform is back. A stranger's tap is refused; alice and bob tap at
// once and one answer is taken: serve resumes the session in the
// background, the agent finishes with that answer, marked as given later
// and naming who gave it, and its final text is posted beside the
// question.
func TestChannelLateAnswerResumesTheSession(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.srv.FailSends(2)
	serve := cr.startServe(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the waiting session, once the platform is back", asking("Database"))
	if _, v, err := cr.srv.Tap(waitLimit, "U-mallory", "@mallory", m, channeltest.Pick{Options: []int{0}}); err != nil || v.OK {
		t.Fatalf("a stranger's tap: %+v, %v", v, err)
	}
	verdicts := make(chan channeltest.Verdict, 2)
	for i, who := range []string{"alice", "bob"} {
		go func() {
			_, v, _ := cr.srv.Tap(waitLimit, "U-"+who, "@"+who, m, channeltest.Pick{Options: []int{1 - i}})
			verdicts <- v
		}()
	}
	v1, v2 := <-verdicts, <-verdicts
	if v1.OK == v2.OK {
		t.Fatalf("alice's and bob's taps: %+v and %+v, want exactly one taken", v1, v2)
	}
	done := cr.replied(t, m)
	winner, label := "@alice", "SQLite"
	if strings.HasPrefix(done.Updates[0], "Answered: PostgreSQL") {
		winner, label = "@bob", "PostgreSQL"
	}
	if !strings.HasPrefix(done.Replies[0], "The agent went on and finished:\nSet up with what I was told:") ||
		!strings.Contains(done.Replies[0], "Selected: "+label+"\n   Via: "+winner+" on testchan\n   Answered later: by a person") {
		t.Errorf("the reply beside the question:\n%s", done.Replies[0])
	}
	if !strings.HasPrefix(done.Updates[0], "Answered: "+label+" — by "+winner+" on testchan, ") || len(done.Updates) != 1 {
		t.Errorf("the widget shows %q", done.Updates)
	}
	j := cr.journal(t, id)
	if n := strings.Count(j, `{"type":"answered",`); n != 1 {
		t.Errorf("the call was answered %d times in the journal, want once", n)
	}
	if !strings.Contains(j, `"status":"success"`) || !strings.Contains(j, `"via":"`+winner+` on testchan"`) || strings.Contains(j, "mallory") {
		t.Errorf("the journal does not record the run finished with %s's answer alone:\n%s", winner, j)
	}
	logs, _ := filepath.Glob(filepath.Join(cr.state, "sessions", "*.d", "serve.log"))
	if len(logs) != 1 {
		t.Fatalf("serve.log beside the session: %v\nserve: %s", logs, serve.stderr)
	}
	if log, _ := os.ReadFile(logs[0]); !strings.Contains(string(log), "resuming for an answer given in testchan by "+winner+" on testchan") {
		t.Errorf("serve.log:\n%s", log)
	}
	if strings.Contains(serve.stderr.String(), cr.srv.Token) {
		t.Errorf("serve's output holds the token:\n%s", serve.stderr)
	}
}

// askuser ask and askuser mcp have no session: their sets are answered
// through the channel askuser serve holds.
func TestChannelAnswersAskAndMCPThroughServe(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.startServe(t)
	a := startBackground(t, cr.env, "ask", "--frontend", "testchan", "testdata/questions/database.json")
	m := cr.message(t, "from askuser ask", func(x channeltest.Message) bool { return x.Title == "askuser ask" })
	cr.tap(t, m, channeltest.Pick{Options: []int{0}})
	if code := a.exit(t); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, a.stderr)
	}
	if out := a.stdout.String(); !strings.HasPrefix(out, "User answered the following questions:") || !strings.Contains(out, "\n   Via: @alice on testchan\n") {
		t.Errorf("ask printed:\n%s", out)
	}

	mcp := startMCP(t, cr.env, "--frontend", "testchan")
	mcp.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[`+
		`{"question":"Which region?","header":"Region","multiSelect":false,"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}`)
	m = cr.message(t, "from askuser mcp", func(x channeltest.Message) bool { return x.Title == "askuser mcp" })
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if reply := mcp.reply(t, "2"); !strings.Contains(reply, `Selected: us-east\n   Via: @alice on testchan`) || strings.Contains(reply, `"isError":true`) {
		t.Errorf("the tool result: %s", reply)
	}
}

// mcpProc is askuser mcp driven with raw JSON-RPC lines, as a host would.
type mcpProc struct {
	in    io.WriteCloser
	lines chan string
}

func startMCP(t *testing.T, env []string, args ...string) *mcpProc {
	t.Helper()
	cmd := exec.Command(askuserBin(), append([]string{"mcp"}, args...)...)
	cmd.Dir, cmd.Env = repoRoot(t), append(os.Environ(), env...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &mcpProc{in: in, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Logf("askuser mcp: %v\n%s", err, stderr.String())
		}
	})
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	p.reply(t, "1")
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *mcpProc) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// reply returns the response to request id.
func (p *mcpProc) reply(t *testing.T, id string) string {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("askuser mcp ended before answering %s", id)
			}
			if strings.Contains(l, `"id":`+id+`,`) || strings.Contains(l, `"id":`+id+`}`) {
				return l
			}
		case <-deadline:
			t.Fatalf("no response to %s", id)
		}
	}
}

var sessionIDPattern = regexp.MustCompile(`"session_id":"([0-9a-f-]{36})"`)

// A live run asks "whoever answers first, wherever they are" through
// --frontend inbox: askuser serve's page answers it while the run waits
// (the page offers the set though the run holds its session), the run
// takes the answer from its mailbox and goes on, and the message serve
// sent to its channel says who answered.
func TestInboxPageAnswersALiveInboxRun(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	serve := cr.startServe(t)
	inboxURL := serve.url(t)
	run := startBackground(t, cr.env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", cr.script, "Set up the project")
	m := cr.message(t, "sent for the inbox", asking("Database"))
	id := sessionIDPattern.FindStringSubmatch(run.stdout.String())
	if id == nil {
		t.Fatalf("no session id in the run's events:\n%s", run.stdout)
	}
	base, token, _ := strings.Cut(inboxURL, "?")
	webAnswer(t, base+"s/"+id[1]+"?"+token, url.Values{"q0": {"1"}})
	if code := run.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, run.stderr)
	}
	events := run.stdout.String()
	if !strings.Contains(events, `"selectedOptions":["SQLite"],"source":"person","via":"web page"`) || strings.Contains(events, "Answered later") {
		t.Errorf("the run's events:\n%s", events)
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by a person on the inbox page, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
}

// askuser serve is killed (kill -9) after it sent a question, and again
// just as a tap's answer reaches the mailbox: each time the next serve
// goes on from the state directory, sends nothing twice, and the session
// gets its answer exactly once.
func TestChannelSurvivesServeKilled(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	serve := cr.startServe(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the waiting session", asking("Database"))
	cr.waitFile(t, filepath.Join(cr.state, "relay", m.Key+".json"), `"ref":{"id":1}`)
	kill(t, serve)
	serve = cr.startServe(t)
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	cr.replied(t, m)
	if n := countKey(cr.srv.Messages(), m.Key); n != 1 {
		t.Errorf("the question was sent %d times", n)
	}
	if j := cr.journal(t, id); strings.Count(j, `{"type":"answered",`) != 1 {
		t.Errorf("the call was not answered exactly once:\n%s", j)
	}

	// Killed between the tap's answer reaching the mailbox and the resume.
	id2 := cr.suspend(t)
	m2 := cr.message(t, "of the second session", func(x channeltest.Message) bool { return x.ID > m.ID && strings.Contains(x.Text, "Database:") })
	go cr.srv.Tap(waitLimit, "U-bob", "@bob", m2, channeltest.Pick{Options: []int{0}})
	cr.waitGlob(t, filepath.Join(cr.state, "sessions", id2+".d", "mailbox", "*.json"))
	kill(t, serve)
	cr.startServe(t)
	done := cr.replied(t, m2)
	if !strings.Contains(done.Replies[0], "Selected: PostgreSQL\n   Via: @bob on testchan") {
		t.Errorf("the reply beside the second question:\n%s", done.Replies[0])
	}
	if j := cr.journal(t, id2); strings.Count(j, `{"type":"answered",`) != 1 || strings.Count(j, `"selectedOptions":["PostgreSQL"]`) == 0 {
		t.Errorf("the second call was not answered exactly once with bob's answer:\n%s", j)
	}
	if n := countKey(cr.srv.Messages(), m2.Key); n != 1 {
		t.Errorf("the second question was sent %d times", n)
	}
}

func countKey(ms []channeltest.Message, key string) int {
	n := 0
	for _, m := range ms {
		if m.Key == key {
			n++
		}
	}
	return n
}

// kill kills p with SIGKILL and waits for it.
func kill(t *testing.T, p *bgAskuser) {
	t.Helper()
	_ = p.cmd.Process.Kill()
	p.exit(t)
}

// waitFile waits until the file at path holds want.
func (cr *chanRig) waitFile(t *testing.T, path, want string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %s", path, want)
		}
	}
}

// waitGlob waits until a file matches pattern.
func (cr *chanRig) waitGlob(t *testing.T, pattern string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing matched %s", pattern)
		}
	}
}

// askuser cancel on a session whose question waits in the chat: the
// widget says it was cancelled, and why; a tap on it is refused, and
// nothing is resumed.
func TestChannelCancelShowsOnTheWidget(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.startServe(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the waiting session", asking("Database"))
	cancel := exec.Command(askuserBin(), "cancel", id, "--reason", "not needed any more")
	cancel.Env = append(os.Environ(), cr.env...)
	if out, err := cancel.CombinedOutput(); err != nil {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if u.State != "cancelled" || !strings.HasPrefix(u.Updates[0], "Cancelled: the person declined to answer: not needed any more (") {
		t.Errorf("the widget shows %q (%s)", u.Updates, u.State)
	}
	if _, v, _ := cr.srv.Tap(waitLimit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}}); v.OK || !strings.HasPrefix(v.Text, "This question was cancelled") {
		t.Errorf("a tap after the cancel: %+v", v)
	}
	if logs, _ := filepath.Glob(filepath.Join(cr.state, "sessions", "*.d", "serve.log")); len(logs) != 0 {
		t.Errorf("a cancelled session was resumed: %v", logs)
	}
}

// askuser hook asks through a channel too (it needs no listener): the
// questions of a PreToolUse on AskUserQuestion, and an approval, whose
// whole tool input the message carries (cut at the platform's limit).
func TestChannelAnswersAHook(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	hook := func(event string) *bgAskuser {
		p := exec.Command(askuserBin(), "hook", "--frontend", "testchan")
		b := &bgAskuser{cmd: p, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
		p.Dir, p.Env, p.Stdin, p.Stdout, p.Stderr = repoRoot(t), append(os.Environ(), cr.env...), strings.NewReader(event), b.stdout, b.stderr
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = p.Wait(); close(b.done) }()
		t.Cleanup(func() { _ = p.Process.Kill(); <-b.done })
		return b
	}
	h := hook(`{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":{"questions":[` +
		`{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"R"},{"label":"SQLite","description":"E"}],"multiSelect":false}]}}`)
	m := cr.message(t, "from the hook", func(x channeltest.Message) bool { return x.Title == "askuser hook" })
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := h.exit(t); code != 0 || !strings.Contains(h.stdout.String(), `"permissionDecision":"allow"`) || !strings.Contains(h.stdout.String(), `"Which database should we use?":"SQLite"`) {
		t.Errorf("the hook: exit %d\n%s\n%s", code, h.stdout, h.stderr)
	}

	long := strings.Repeat("echo line; ", 300)
	h = hook(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_2","tool_input":{"command":"` + long + `rm -rf build"}}`)
	m = cr.message(t, "asking to approve", func(x channeltest.Message) bool { return x.Title == "askuser hook" && x.ID > m.ID })
	if !strings.Contains(m.Text, "echo line; echo line;") || !strings.Contains(m.Text, "more characters") {
		t.Errorf("the approval does not show the input, cut:\n%s", m.Text)
	}
	var allow int
	for i, o := range m.Questions[0].Options {
		if o.Label == "Allow" {
			allow = i
		}
	}
	cr.tap(t, m, channeltest.Pick{Options: []int{allow}})
	if code := h.exit(t); code != 0 || !strings.Contains(h.stdout.String(), `"permissionDecision":"allow"`) {
		t.Errorf("the approval: exit %d\n%s\n%s", code, h.stdout, h.stderr)
	}
}
