package relay_test

import (
	"context"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/channeltest"
)

// A set asked outside a session under an id an earlier one used (askuser
// ask --id deploy, run again tomorrow; a hook event without a tool_use_id)
// is a new question: the earlier set's answer, still in the mailbox, is
// never taken for it, and a person answers it anew.
func TestSetAskedAgainOutsideASessionIsAskedAnew(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	req := ask.Request{ID: "deploy", Questions: []ask.Question{dbQuestion}}
	first := ask1(context.Background(), rg.frontend(""), req)
	m1 := rg.message(titled("Database"), "asked the first time")
	if _, v, err := rg.srv.Tap(limit, "U-alice", "@alice", m1, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
		t.Fatalf("alice's tap: %+v, %v", v, err)
	}
	if answers, err := first.Wait(t); err != nil || answers[0].Via != "@alice on testchan" {
		t.Fatalf("the first set: %+v, %v", answers, err)
	}

	again := ask1(context.Background(), rg.frontend(""), req)
	m2 := rg.message(func(m channeltest.Message) bool { return m.ID != m1.ID && m.Key != m1.Key }, "asked anew")
	if _, v, err := rg.srv.Tap(limit, "U-bob", "@bob", m2, channeltest.Pick{Options: []int{0}}); err != nil || !v.OK {
		t.Fatalf("bob's tap: %+v, %v", v, err)
	}
	if answers, err := again.Wait(t); err != nil || answers[0].Via != "@bob on testchan" || answers[0].Selected[0] != "PostgreSQL" {
		t.Errorf("the set asked again: %+v, %v; want bob's answer", answers, err)
	}
}
