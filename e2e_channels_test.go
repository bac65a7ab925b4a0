// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/url"
	"os"
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

// askDBTurn is a scripted model's turn asking which database to use.
const askDBTurn = `  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
`

// chanScript asks one set, then ends with what it was told.
const chanScript = "model: scripted-chan\nturns:\n" + askDBTurn + `  - text: "Set up with what I was told:\n{{tool_results}}"
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
	m, ok := cr.srv.Find(waitLimit, cond)
	if !ok {
		t.Fatalf("no message %s; the platform has %+v", what, cr.srv.Messages())
	}
	return m
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
func (cr *chanRig) startServe(t testing.TB) *bgAskuser { return serveChannels(t, cr.env, "testchan") }

// suspend runs the script until it stops to wait on its question, asked
// through the channel, and returns the session's id.
func (cr *chanRig) suspend(t testing.TB) string {
	t.Helper()
	id, _ := suspendThrough(t, cr.env, "testchan", cr.script)
	return id
}

// journal returns session id's journal.
func (cr *chanRig) journal(t testing.TB, id string) string { return readJournal(t, cr.state, id) }

// replied waits for what the agent did next to be posted beside m.
func (cr *chanRig) replied(t testing.TB, m channeltest.Message) channeltest.Message {
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

// twoScript asks one set, then, with its answer, another.
const twoScript = "model: scripted-two\nturns:\n" + askDBTurn + `  - text: And one more.
    tool_calls:
      - id: toolu_region
        name: AskUserQuestion
        input: {questions: [{question: "Which region?", header: Region, multiSelect: false, options: [{label: eu-north, description: Stockholm}, {label: us-east, description: Virginia}]}]}
  - text: "Done with both."
`

// A session resumed for a late answer asks again: the next question is
// sent under the first (its thread), the chat is told the agent asks
// again, and a tap on it resumes the session once more, to the end.
func TestChannelLateAnswerThreadsTheNextQuestion(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	if err := os.WriteFile(cr.script, []byte(twoScript), 0o600); err != nil {
		t.Fatal(err)
	}
	cr.startServe(t)
	id := cr.suspend(t)
	first := cr.message(t, "of the first question", asking("Database"))
	cr.tap(t, first, channeltest.Pick{Options: []int{1}})
	next := cr.message(t, "of the next question", asking("Region"))
	if next.Thread != first.ID {
		t.Errorf("the next question was posted under message %d, want %d (the first)", next.Thread, first.ID)
	}
	if r := cr.replied(t, first); r.Replies[0] != "The agent went on and now asks: Region." {
		t.Errorf("beside the first question: %q", r.Replies)
	}
	cr.tap(t, next, channeltest.Pick{Options: []int{0}})
	if r := cr.replied(t, next); r.Replies[0] != "The agent went on and finished:\nDone with both." {
		t.Errorf("beside the next question: %q", r.Replies)
	}
	if j := cr.journal(t, id); strings.Count(j, `{"type":"answered",`) != 2 || !strings.Contains(j, `"status":"success"`) {
		t.Errorf("the journal:\n%s", j)
	}
}
