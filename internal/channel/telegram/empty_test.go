package telegram_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// Done pressed with nothing ticked sends nothing: the keyboard then
// offers "Submit with nothing selected", a tick takes the offer away,
// and only a press on it answers the question with nothing, as the
// terminal's "Submit with nothing selected? y/N" does.
func TestAnEmptyMultiSelectTakesASecondPress(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_e", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Features") })
	const none = "Submit with nothing selected"
	if got := rg.tap(alice, m.ID, "Done"); !strings.HasPrefix(got, "Nothing is ticked.") {
		t.Errorf("Done with nothing ticked was answered %q", got)
	}
	a.Pending(t)
	if got := labels(mustMessage(t, rg, m.ID)); !slices.Contains(got, none) {
		t.Fatalf("the keyboard does not offer %q: %q", none, got)
	}
	rg.tap(alice, m.ID, "☐ Docs")
	rg.tap(alice, m.ID, "☑ Docs")
	if got := labels(mustMessage(t, rg, m.ID)); slices.Contains(got, none) {
		t.Fatalf("a tick left the offer: %q", got)
	}
	rg.tap(alice, m.ID, "Done")
	a.Pending(t)
	rg.tap(alice, m.ID, none)
	answers, err := a.Wait(t)
	if err != nil || len(answers[0].Selected) != 0 || !answers[0].Skipped || answers[0].Source != ask.SourcePerson {
		t.Fatalf("answers %+v, %v", answers, err)
	}
}
