package telegram_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// askuser serve killed before its next poll confirmed 23 presses, and
// started again: Telegram delivers every one again, and none is acted on
// a second time, though the set's own state remembers only the last 20.
// The tick on Docs stays, and Done answers Docs.
func TestPressesDeliveredAgainAfterARestartAreTakenOnce(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_r", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Features") })
	rg.srv.KeepUpdates(true)
	rg.tap(alice, m.ID, "☐ Docs")
	var last string
	for i := range 22 {
		label := "☐ Tests"
		if i%2 == 1 {
			label = "☑ Tests"
		}
		q, err := rg.srv.Press(alice, m.ID, label)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rg.srv.Answer(limit, q); err != nil {
			t.Fatal(err)
		}
		last = q
	}
	rg.restart()
	if !rg.srv.WaitAnswered(limit, last, 2) {
		t.Fatal("the presses were not delivered to the new process")
	}
	rg.srv.KeepUpdates(false)
	if got := labels(mustMessage(t, rg, m.ID)); got[0] != "☑ Docs" || got[1] != "☐ Tests" {
		t.Fatalf("the presses delivered again changed the ticks: %q", got)
	}
	rg.tap(alice, m.ID, "Done")
	answers, err := a.Wait(t)
	if err != nil || strings.Join(answers[0].Selected, ",") != "Docs" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
}

// Twenty strangers press a button in the group, and Telegram never
// answers askuser's answers to them (each goes silent): alice's press,
// after theirs, is taken all the same, and the strangers' presses record
// nothing.
func TestStrangersPressesNeverDelayThePerson(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_s", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	const n = 20
	rg.srv.Stall("answerCallbackQuery", n)
	for i := range n {
		stranger := telegramfake.User{ID: int64(5000 + i), FirstName: fmt.Sprintf("Stranger %d", i)}
		if _, err := rg.srv.Press(stranger, m.ID, "SQLite"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rg.srv.Press(alice, m.ID, "PostgreSQL (Recommended)"); err != nil {
		t.Fatal(err)
	}
	answers, err := a.Wait(t)
	if err != nil || strings.Join(answers[0].Selected, ",") != "PostgreSQL" || answers[0].Via != "@alice on Telegram" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
	for _, c := range rg.srv.Calls("answerCallbackQuery") {
		if text, _ := c.Params["text"].(string); text != "" && text != channel.NotAllowed && !strings.HasPrefix(text, "Answered") {
			t.Errorf("a press was answered %q", text)
		}
	}
}
