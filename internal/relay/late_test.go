package relay_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

const lateScript = `model: scripted-late
turns:
  - text: One thing first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// lateRig is a rig serving as askuser serve does, with a session whose
// run stopped to wait, its set registered for the test channel as
// askuser run --frontend testchan leaves it. Its resume runs the session
// on, as askuser serve's background resume does, and counts the runs.
type lateRig struct {
	*rig
	prov    agentloop.Provider
	id      string
	resumes atomic.Int32
	ended   chan agentloop.Outcome
}

func newLateRig(t *testing.T, run bool) *lateRig {
	lr := &lateRig{ended: make(chan agentloop.Outcome, 4)}
	lr.rig = newRig(t, rigOptions{inbox: true, resume: lr.resume})
	path := filepath.Join(t.TempDir(), "late.yaml")
	os.WriteFile(path, []byte(lateScript), 0o600)
	var err error
	if lr.prov, err = agentloop.LoadScript(path); err != nil {
		t.Fatal(err)
	}
	sess, err := lr.st.Create(session.Meta{FirstPrompt: "Set up the project", Title: "Set up the project"})
	if err != nil {
		t.Fatal(err)
	}
	lr.id = string(sess.Meta.ID)
	out := lr.runOn(sess, &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "Set up the project"}}})
	if out.Status != agentloop.StatusWaiting {
		t.Fatalf("the first run: %s (%v), want waiting", out.Status, out.Err)
	}
	if run {
		lr.start()
	}
	return lr
}

// runOn runs the session's loop once through the relay's deferring
// frontend, as a background resume does, and closes the session.
func (lr *lateRig) runOn(sess *session.Session, prompt *agentloop.Message) agentloop.Outcome {
	defer sess.Close()
	fe := &relay.Mailboxed{Mailbox: lr.st.Mailbox(), Registry: lr.st.Registry(), Session: string(sess.Meta.ID),
		Inner: &relay.Frontend{Mailbox: lr.st.Mailbox(), Registry: lr.st.Registry(), Session: string(sess.Meta.ID), Title: sess.Meta.Title,
			Channels: []string{channeltest.Name}, Defer: true}}
	out := (&agentloop.Loop{Provider: lr.prov, Frontend: fe, Journal: sess}).Run(context.Background(), sess.State, prompt)
	if err := sess.SetStatus(string(out.Status), out.Reason, out.Turns, out.Usage); err != nil {
		lr.t.Error(err)
	}
	return out
}

// recorded waits for the set's message, and until the relay noted it.
func (lr *lateRig) recorded() channeltest.Message {
	lr.t.Helper()
	m := lr.message(titled("Database"), "of the waiting session")
	for deadline := time.Now().Add(limit); ; time.Sleep(5 * time.Millisecond) {
		if es, _ := lr.st.Registry().List(context.Background()); len(es) == 1 && es[0].Sent[channeltest.Name] != nil && len(es[0].Sent[channeltest.Name].Ref) > 0 {
			return m
		}
		if time.Now().After(deadline) {
			lr.t.Fatal("the message was never recorded")
		}
	}
}

// tappedMeanwhile posts alice's tap's answer (SQLite) to the set's
// mailbox, as a serve killed since took it.
func (lr *lateRig) tappedMeanwhile() {
	lr.t.Helper()
	es, _ := lr.st.Registry().List(context.Background())
	a, _ := ask.Selection(es[0].Request.Questions[0], []string{"SQLite"}, "", ask.SourcePerson)
	a.Via, a.AnsweredAt = "@alice on testchan", time.Now()
	who := channel.Who{Channel: channeltest.Name, ID: "U-alice", Name: "@alice"}
	if err := lr.st.Mailbox().Post(context.Background(), session.Box{Session: lr.id, Key: es[0].Key},
		session.Delivery{Answers: []ask.Answer{a}, By: a.Via, Who: &who, At: a.AnsweredAt}); err != nil {
		lr.t.Fatal(err)
	}
}

func (lr *lateRig) resume(e session.Entry) error {
	lr.resumes.Add(1)
	sess, err := lr.st.Open(e.Session)
	if err != nil {
		return err
	}
	go func() { lr.ended <- lr.runOn(sess, nil) }()
	return nil
}

func (lr *lateRig) resumed() agentloop.Outcome {
	lr.t.Helper()
	select {
	case out := <-lr.ended:
		return out
	case <-time.After(limit):
		lr.t.Fatalf("the session was not resumed; relay log:\n%s", lr.log.String())
		return agentloop.Outcome{}
	}
}

// A tap on a set whose run stopped to wait resumes the session; the
// model gets the person's answer, given later, naming them; the widget
// says who answered and the agent's final text is posted beside it.
func TestLateTapResumesTheSessionAndFollowsUp(t *testing.T) {
	lr := newLateRig(t, true)
	m := lr.message(titled("Database"), "of the waiting session")
	if m.Title != "Set up the project" {
		t.Errorf("title %q", m.Title)
	}
	if _, v, err := lr.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
		t.Fatalf("the tap: %+v, %v", v, err)
	}
	if out := lr.resumed(); out.Status != agentloop.StatusSuccess {
		t.Fatalf("the resumed run: %s (%v)", out.Status, out.Err)
	}
	done := lr.message(func(m channeltest.Message) bool { return len(m.Replies) > 0 }, "with the agent's final text")
	reply := done.Replies[0]
	for _, want := range []string{"The agent went on and finished:\nSet up with what I was told:", "Selected: SQLite\n   Via: @alice on testchan\n   Answered later: by a person"} {
		if !strings.Contains(reply, want) {
			t.Errorf("the reply lacks %q:\n%s", want, reply)
		}
	}
	if !strings.HasPrefix(done.Updates[0], "Answered: SQLite — by @alice on testchan, ") {
		t.Errorf("the widget shows %q", done.Updates)
	}
	if n := lr.resumes.Load(); n != 1 {
		t.Errorf("resumed %d times", n)
	}
	time.Sleep(100 * time.Millisecond) // more passes: nothing more is posted
	if m := lr.srv.Messages()[0]; len(m.Replies) != 1 || len(m.Updates) != 1 {
		t.Errorf("posted again: %q %q", m.Updates, m.Replies)
	}
}

// serve killed between a tap's answer reaching the mailbox and the
// resume: the next serve finds the answer, resumes the session once, and
// the model gets it once.
func TestAnswerPostedBeforeACrashIsResumedOnce(t *testing.T) {
	lr := newLateRig(t, true)
	lr.message(titled("Database"), "of the waiting session")
	var entries []session.Entry
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if entries, _ = lr.st.Registry().List(context.Background()); len(entries) == 1 && entries[0].Sent[channeltest.Name] != nil &&
			len(entries[0].Sent[channeltest.Name].Ref) > 0 {
			break // serve recorded the message it sent
		}
	}
	if len(entries) != 1 || !entries[0].Pending() {
		t.Fatalf("registry %+v", entries)
	}
	e := entries[0]
	a, _ := ask.Selection(e.Request.Questions[0], []string{"SQLite"}, "", ask.SourcePerson)
	a.Via, a.AnsweredAt = "@alice on testchan", time.Now()
	lr.restart(func() { // serve posted the tap's answer and was killed
		if err := lr.st.Mailbox().Post(context.Background(), session.Box{Session: lr.id, Key: e.Key},
			session.Delivery{Answers: []ask.Answer{a}, By: a.Via, At: a.AnsweredAt}); err != nil {
			t.Fatal(err)
		}
	})
	if out := lr.resumed(); out.Status != agentloop.StatusSuccess {
		t.Fatalf("the resumed run: %s (%v)", out.Status, out.Err)
	}
	lr.message(func(m channeltest.Message) bool { return len(m.Replies) > 0 }, "with the agent's final text")
	sess, err := lr.st.Load(lr.id)
	if err != nil {
		t.Fatal(err)
	}
	results := 0
	for _, m := range sess.State.Messages {
		for _, b := range m.Content {
			if b.Type == agentloop.BlockToolResult {
				results++
			}
		}
	}
	if results != 1 || lr.resumes.Load() != 1 {
		t.Errorf("%d tool results and %d resumes, want one each", results, lr.resumes.Load())
	}
}

// serve killed just after a tap's answer reached the mailbox and the
// resume it started: the next serve finds the session held by that
// resume, does not resume it again, and follows up once it has gone on.
func TestTapTakenByAResumeOfTheKilledServe(t *testing.T) {
	lr := newLateRig(t, true)
	m := lr.recorded()
	sess, err := lr.st.Open(lr.id)
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	lr.restart(func() { // serve took alice's tap, started the resume, and was killed
		lr.tappedMeanwhile()
		go func() { <-release; lr.ended <- lr.runOn(sess, nil) }()
	})
	time.Sleep(100 * time.Millisecond) // the new serve looks while the resume holds the session
	close(release)
	if out := lr.resumed(); out.Status != agentloop.StatusSuccess {
		t.Fatalf("the resume: %s (%v)", out.Status, out.Err)
	}
	done := lr.message(func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 0 }, "with the agent's final text")
	if !strings.Contains(done.Replies[0], "Via: @alice on testchan") || lr.resumes.Load() != 0 {
		t.Errorf("reply %q after %d resumes by serve, want the final text and none", done.Replies, lr.resumes.Load())
	}
}

// A follow-up the platform rate-limits is posted again when the platform
// said, and not before: the relay's passes in between (every 20 ms here)
// make no call.
func TestFollowUpWaitsAsThePlatformSays(t *testing.T) {
	lr := newLateRig(t, true)
	m := lr.message(titled("Database"), "of the waiting session")
	lr.srv.RateLimit("/reply", 1, 400*time.Millisecond)
	if _, v, err := lr.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
		t.Fatalf("the tap: %+v, %v", v, err)
	}
	lr.resumed()
	lr.message(func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 0 }, "with the agent's final text")
	// The fake notes a call once its handler has returned, a moment after
	// the reply it posted shows on the message.
	calls := lr.srv.Calls("/reply")
	for deadline := time.Now().Add(5 * time.Second); len(calls) < 2 && time.Now().Before(deadline); calls = lr.srv.Calls("/reply") {
		time.Sleep(5 * time.Millisecond)
	}
	if len(calls) != 2 || calls[0].Status != 429 || calls[1].Status != 200 || calls[1].At.Sub(calls[0].At) < 400*time.Millisecond {
		for _, c := range calls {
			t.Logf("%s %d at +%v", c.Path, c.Status, c.At.Sub(calls[0].At))
		}
		t.Errorf("%d calls of /reply; want a 429 saying to wait 400ms, then one call after that", len(calls))
	}
}

// An answer given on the inbox page is the inbox's to resume the session
// for, and to try again when that resume fails: the relay, which sees it
// in the mailbox as a late answer, does not resume the session too.
func TestPageAnswerIsLeftToTheInbox(t *testing.T) {
	lr := newLateRig(t, true)
	lr.message(titled("Database"), "of the waiting session")
	es, _ := lr.st.Registry().List(context.Background())
	a, _ := ask.Selection(es[0].Request.Questions[0], []string{"SQLite"}, "", ask.SourcePerson)
	a.Via, a.AnsweredAt = "web page", time.Now()
	if err := lr.st.Mailbox().Post(context.Background(), session.Box{Session: lr.id, Key: es[0].Key},
		session.Delivery{Answers: []ask.Answer{a}, By: relay.ByInboxPage, At: a.AnsweredAt}); err != nil {
		t.Fatal(err)
	}
	lr.message(func(m channeltest.Message) bool { return len(m.Updates) > 0 }, "saying it was answered on the page")
	time.Sleep(200 * time.Millisecond) // ten passes of the relay
	if n := lr.resumes.Load(); n != 0 {
		t.Errorf("the relay resumed the session %d times for an answer given on the page", n)
	}
}

// A relay that does not hold the channel yet (askuser serve just started,
// or a live run still holds it) does not count what a late answer led to
// as posted: it posts it once it holds the channel.
func TestFollowUpWaitsForTheChannel(t *testing.T) {
	lr := newLateRig(t, true)
	m := lr.recorded()
	var release func()
	lr.cfg.WaitForHold = true
	lr.restart(func() { // another process holds the channel; a tap's answer is in the mailbox
		var err error
		if release, err = lr.st.HoldChannel(channeltest.Name); err != nil {
			t.Fatal(err)
		}
		lr.tappedMeanwhile()
	})
	if out := lr.resumed(); out.Status != agentloop.StatusSuccess {
		t.Fatalf("the resumed run: %s (%v)", out.Status, out.Err)
	}
	time.Sleep(100 * time.Millisecond) // passes of a relay without the channel
	release()
	done := lr.message(func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 0 }, "with the agent's final text, once the channel is held")
	if !strings.Contains(done.Replies[0], "The agent went on and finished") {
		t.Errorf("the reply: %q", done.Replies)
	}
}

// A tap on a set whose session continues on another machine (or in a
// folder this one lacks) is not resumed here: the reply beside the
// question says where it continues, once, and nothing is tried again.
func TestLateTapOfASessionElsewhereSaysWhere(t *testing.T) {
	lr := &lateRig{ended: make(chan agentloop.Outcome, 4)}
	var tries atomic.Int32
	lr.rig = newRig(t, rigOptions{inbox: true, resume: func(e session.Entry) error {
		tries.Add(1)
		return &relay.ElsewhereError{Session: e.Session, Where: "on build-7 in /src/app"}
	}})
	path := filepath.Join(t.TempDir(), "late.yaml")
	os.WriteFile(path, []byte(lateScript), 0o600)
	var err error
	if lr.prov, err = agentloop.LoadScript(path); err != nil {
		t.Fatal(err)
	}
	sess, err := lr.st.Create(session.Meta{FirstPrompt: "Set up the project", Title: "Set up the project"})
	if err != nil {
		t.Fatal(err)
	}
	lr.id = string(sess.Meta.ID)
	lr.runOn(sess, &agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "Set up the project"}}})
	lr.start()
	m := lr.message(titled("Database"), "of the waiting session")
	if _, v, err := lr.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
		t.Fatalf("the tap: %+v, %v", v, err)
	}
	done := lr.message(func(m channeltest.Message) bool { return len(m.Replies) > 0 }, "saying where the session continues")
	if want := "Answered. The agent continues on build-7 in /src/app, once askuser resume " + lr.id + " runs there"; !strings.HasPrefix(done.Replies[0], want) {
		t.Errorf("the reply:\n%s\nwant it to begin %q", done.Replies[0], want)
	}
	time.Sleep(200 * time.Millisecond) // more passes: nothing more is posted or tried
	if m := lr.srv.Messages()[0]; len(m.Replies) != 1 || tries.Load() != 1 {
		t.Errorf("replies %q after %d tries", m.Replies, tries.Load())
	}
}
