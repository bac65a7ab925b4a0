package slack_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/slack"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// A set is one Block Kit message; a Submit with a radio button, ticks and
// text under Other answers it with a person's answers that name them; the
// message then shows the outcome in place of its inputs.
func TestSubmitAnswersTheSet(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, featuresQuestion}})
	m := rg.message("Which database should we use?")
	view := m.View()
	for _, want := range []string{"*Database*\nWhich database should we use?", "( ) PostgreSQL (Recommended) — Relational",
		"( ) SQLite — Embedded", "[ ] Docs", "[ ] Lint", "Other:\n  [Your own answer (optional)]", "[Submit]", "askuser ask"} {
		if !strings.Contains(view, want) {
			t.Errorf("the message lacks %q:\n%s", want, view)
		}
	}
	rg.submit(m, alice, slackfake.Pick{Options: []int{1}}, slackfake.Pick{Options: []int{0, 2}, Other: "and a \x1b[31mdemo"})
	answers := a.Answers(t)
	if answers[0].Selected[0] != "SQLite" || strings.Join(answers[1].Selected, ",") != "Docs,Lint" || answers[1].Custom != "and a demo" {
		t.Errorf("answers %+v", answers)
	}
	for _, a := range answers {
		if a.Source != ask.SourcePerson || a.Via != "@alice on Slack" {
			t.Errorf("answer %+v is not @alice's on Slack", a)
		}
	}
	if text := ask.FormatResult(answers); !strings.Contains(text, "   Via: @alice on Slack\n") {
		t.Errorf("the result lacks the Via line:\n%s", text)
	}
	u := rg.updated(m.TS, "Answered: Database: SQLite; Features: Docs, Lint, Other: and a demo — by @alice on Slack, ")
	if v := u.View(); strings.Contains(v, "[Submit]") || strings.Contains(v, "( )") || !strings.Contains(v, "*Database* Which database should we use?") {
		t.Errorf("the answered message still offers inputs, or lost its question:\n%s", v)
	}
	if len(rg.fake.Ephemerals()) != 0 {
		t.Errorf("a taken answer was told something privately: %+v", rg.fake.Ephemerals())
	}
}

// Typed text answers a single-select question in the person's own words.
func TestOtherAnswersInOwnWords(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_other", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	rg.submit(m, bob, slackfake.Pick{Options: []int{0}, Other: "CockroachDB"})
	answers := a.Answers(t)
	if len(answers[0].Selected) != 0 || answers[0].Custom != "CockroachDB" || answers[0].Via != "@bob on Slack" {
		t.Errorf("answers %+v", answers)
	}
}

// Four questions in one set are one message, answered with one Submit.
func TestFourQuestionsInOneMessage(t *testing.T) {
	rg := newRig(t, rigOptions{})
	qs := []ask.Question{dbQuestion, featuresQuestion,
		{Question: "Which region?", Header: "Region", Options: []ask.Option{{Label: "eu-north"}, {Label: "us-east"}}},
		{Question: "Deploy now?", Header: "Deploy", Options: []ask.Option{{Label: "Yes"}, {Label: "No"}}}}
	a := rg.ask("", ask.Request{ID: "ask_four", Questions: qs})
	m := rg.message("Deploy now?")
	if n := strings.Count(m.View(), "[Submit]"); n != 1 {
		t.Errorf("%d Submit buttons, want one:\n%s", n, m.View())
	}
	rg.submit(m, alice, slackfake.Pick{Options: []int{0}}, slackfake.Pick{Options: []int{1}},
		slackfake.Pick{Other: "ap-south"}, slackfake.Pick{Options: []int{1}})
	answers := a.Answers(t)
	got := []string{answers[0].Selected[0], answers[1].Selected[0], answers[2].Custom, answers[3].Selected[0]}
	if strings.Join(got, ",") != "PostgreSQL,Tests,ap-south,No" {
		t.Errorf("answers %q", got)
	}
}

// A stranger's tap gets "not allowed", privately, and is recorded
// nowhere: the set still waits, and alice can answer it.
func TestStrangersTapIsRefused(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_stranger", Questions: []ask.Question{dbQuestion}}
	a := rg.ask("", req)
	m := rg.message("Which database should we use?")
	rg.submit(m, mallory, slackfake.Pick{Options: []int{1}})
	rg.ephemeral(mallory.ID, channel.NotAllowed)
	if !rg.pending(channel.Key("", req.ID)) {
		t.Fatal("the stranger's tap settled the set")
	}
	rg.submit(m, alice, slackfake.Pick{Options: []int{0}})
	if answers := a.Answers(t); answers[0].Selected[0] != "PostgreSQL" || answers[0].Via != "@alice on Slack" {
		t.Errorf("answers %+v", answers)
	}
}

// A form left half filled in is refused with what to do, and the set
// still waits.
func TestIncompleteFormIsRefused(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_half", Questions: []ask.Question{dbQuestion, featuresQuestion}}
	rg.ask("", req)
	m := rg.message("Which database should we use?")
	rg.submit(m, alice, slackfake.Pick{}, slackfake.Pick{Options: []int{0}})
	rg.ephemeral(alice.ID, `"Database" needs an answer: choose one, or type your own under Other`)
	if !rg.pending(channel.Key("", req.ID)) {
		t.Fatal("a half answer settled the set")
	}
}

// A tap on an outdated rendering is refused: the set was asked again
// with other questions, and the old message's form answers nothing.
func TestStaleTapIsRefused(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_stale", Questions: []ask.Question{dbQuestion}}
	ctx, cancel := context.WithCancel(context.Background())
	fe := &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Title: "t", Channels: []string{"slack"}, Wake: rg.relay.Wake}
	go fe.Ask(ctx, req)
	old := rg.message("Which database should we use?")
	cancel()
	// Asked again with its question changed: a new revision, a new message.
	req.Questions = []ask.Question{dbQuestion}
	req.Questions[0].Question = "Which database, now?"
	b := rg.ask("", req)
	fresh := rg.message("Which database, now?")
	rg.submitAsPosted(old, alice, slackfake.Pick{Options: []int{1}})
	rg.ephemeral(alice.ID, "This question changed: answer the latest message.")
	rg.submit(fresh, alice, slackfake.Pick{Options: []int{0}})
	if answers := b.Answers(t); answers[0].Selected[0] != "PostgreSQL" {
		t.Errorf("answers %+v", answers)
	}
}

// The same tap delivered twice (Slack resends an envelope) is answered
// once and told nothing the second time; a second Submit after the
// answer is told who answered.
func TestDoubleTapIsAnsweredOnce(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_double", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	e, err := rg.fake.Submit(limit, m.TS, alice, slackfake.Pick{Options: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	again, err := rg.fake.Resend(limit, e)
	if err != nil {
		t.Fatal(err)
	}
	rg.fake.WaitAck(limit, e)
	rg.fake.WaitAck(limit, again)
	if answers := a.Answers(t); answers[0].Selected[0] != "SQLite" {
		t.Errorf("answers %+v", answers)
	}
	rg.updated(m.TS, "Answered: SQLite — by @alice on Slack")
	rg.submitAsPosted(m, bob, slackfake.Pick{Options: []int{0}})
	rg.ephemeral(bob.ID, "Already answered by @alice on Slack")
	for _, x := range rg.fake.Ephemerals() {
		if x.User == alice.ID {
			t.Errorf("alice's resent tap was told %q", x.Text)
		}
	}
}

// A set posted twice (a process killed after posting it and before
// keeping its reference posts it again): a Submit on either copy answers
// it, and both copies then show the outcome.
func TestBothCopiesOfASetShowTheAnswer(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_twice", Questions: []ask.Question{dbQuestion}}
	a := rg.ask("", req)
	kept := rg.message("Which database should we use?")
	e, err := rg.st.Registry().Get(context.Background(), channel.Key("", req.ID))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rg.ch.Send(context.Background(), channel.Set{Key: e.Key, Rev: e.Rev, Request: e.Request, Title: e.Title}); err != nil {
		t.Fatal(err)
	}
	ms := rg.fake.Messages()
	orphan := ms[len(ms)-1]
	rg.submit(orphan, alice, slackfake.Pick{Options: []int{1}})
	a.Answers(t)
	rg.updated(orphan.TS, "Answered: SQLite — by @alice on Slack")
	rg.updated(kept.TS, "Answered: SQLite — by @alice on Slack")
}

// askuser killed after Slack took a set's message and before it noted
// it: the registry says a send began, and the message is in the channel.
// The relay started next finds it by its metadata (conversations.history,
// with a history scope) and adopts it: the set is not posted again, and
// the outcome updates that message. Without the scope it cannot look, and
// posts the set again, saying so on the new message.
func TestAKilledSendIsFoundOrMarked(t *testing.T) {
	for _, c := range []struct {
		scopes string
		posts  int
	}{{"chat:write,channels:history", 1}, {"chat:write", 2}} {
		t.Run(c.scopes, func(t *testing.T) {
			rg := newRig(t, rigOptions{noRun: true, scopes: c.scopes})
			req := ask.Request{ID: "ask_killed", Questions: []ask.Question{dbQuestion}}
			a := rg.ask("", req)
			key := channel.Key("", req.ID)
			var e session.Entry
			for deadline := time.Now().Add(limit); ; time.Sleep(5 * time.Millisecond) {
				var err error
				if e, err = rg.st.Registry().Get(context.Background(), key); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the set was never registered")
				}
			}
			// What the killed process left: the send noted, Slack's message.
			began := time.Now()
			if _, err := rg.st.Registry().Update(context.Background(), key, func(x *session.Entry, found bool) error {
				x.Sent = map[string]*session.Sent{slack.Name: {Sending: began, SendingRev: e.Rev}}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := rg.ch.Send(context.Background(), channel.Set{Key: e.Key, Rev: e.Rev, Request: e.Request, Title: e.Title}); err != nil {
				t.Fatal(err)
			}
			first := rg.fake.Messages()[0]
			rg.start()
			var last slackfake.Message
			for deadline := time.Now().Add(limit); ; time.Sleep(5 * time.Millisecond) {
				x, _ := rg.st.Registry().Get(context.Background(), key)
				ms := rg.fake.Messages()
				last = ms[len(ms)-1]
				if x.Sent[slack.Name] != nil && len(x.Sent[slack.Name].Ref) > 0 && len(ms) == c.posts {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the set's message was not noted; the workspace has:\n%s\nrelay log:\n%s", rg.fake.Views(), rg.logText())
				}
			}
			if n := len(rg.fake.Calls("chat.postMessage")); n != c.posts {
				t.Errorf("chat.postMessage was called %d times, want %d", n, c.posts)
			}
			resent := strings.Contains(last.View(), "Sent again after askuser restarted")
			if resent != (c.posts == 2) || strings.Contains(first.View(), "Sent again") {
				t.Errorf("the note on the messages:\n%s", rg.fake.Views())
			}
			rg.submit(first, alice, slackfake.Pick{Options: []int{1}})
			a.Answers(t)
			rg.updated(last.TS, "Answered: SQLite — by @alice on Slack")
		})
	}
}
