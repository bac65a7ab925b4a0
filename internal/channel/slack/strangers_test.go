package slack_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
)

// Two hundred strangers press Submit at once: every envelope is
// acknowledged, alice's Submit after theirs answers the set, and the
// strangers' refusals spend a bounded number of chat.postEphemeral calls
// (Slack allows about 100 a minute; alice's own refusals need them).
func TestStrangersSubmitsCostABoundedNumberOfCalls(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_flood", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	const n = 200
	envs := make([]*slackfake.Envelope, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := slackfake.User{ID: fmt.Sprintf("U0STRANGER%03d", i), Name: "stranger"}
			e, err := rg.fake.Submit(limit, m.TS, u, slackfake.Pick{Options: []int{1}})
			if err != nil {
				t.Error(err)
			}
			envs[i] = e
		}()
	}
	wg.Wait()
	rg.submit(m, alice, slackfake.Pick{Options: []int{0}})
	if answers := a.Answers(t); answers[0].Selected[0] != "PostgreSQL" || answers[0].Via != "@alice on Slack" {
		t.Fatalf("answers %+v", answers)
	}
	for _, e := range envs {
		if e != nil {
			if _, ok := rg.fake.WaitAck(limit, e); !ok {
				t.Fatalf("a stranger's envelope %s was not acknowledged", e.ID)
			}
		}
	}
	told := 0
	for _, c := range rg.fake.Calls("chat.postEphemeral") {
		if strings.HasPrefix(c.Form.Get("user"), "U0STRANGER") {
			told++
		}
	}
	if told > 32 {
		t.Errorf("%d chat.postEphemeral calls for %d strangers; want at most 32", told, n)
	}
	if told == 0 {
		t.Errorf("no stranger was told %q", channel.NotAllowed)
	}
}

// A Submit Slack delivers again after askuser serve restarted is taken
// no second time: alice, told once that her form needs an answer, is
// not told again.
func TestASubmitDeliveredAgainAfterARestartIsTakenOnce(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_again", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	e := rg.submit(m, alice)
	rg.ephemeral(alice.ID, "needs an answer")
	rg.restart()
	rg.fake.WaitFor(limit, func(s *slackfake.Server) bool { // the new process's socket alone
		opened, open := s.Connections()
		return opened >= 2 && open == 1
	})
	again, err := rg.fake.Resend(limit, &e)
	if err != nil {
		t.Fatal(err)
	}
	rg.acked(again, nil)
	rg.submit(m, alice, slackfake.Pick{Options: []int{1}})
	if answers := a.Answers(t); answers[0].Selected[0] != "SQLite" {
		t.Fatalf("answers %+v", answers)
	}
	rg.updated(m.TS, "Answered: SQLite — by @alice on Slack")
	n := 0
	for _, x := range rg.fake.Ephemerals() {
		if x.User == alice.ID && strings.Contains(x.Text, "needs an answer") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("alice was told %d times that her form needs an answer; want once", n)
	}
}
