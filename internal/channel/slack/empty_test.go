package slack_test

import (
	"testing"

	"github.com/askuser/askuser/ask"
)

// A Submit with a multi-select left empty sends nothing: the person is
// told, and a second Submit by them, still empty, sends it with nothing
// selected (as the terminal asks "Submit with nothing selected? y/N");
// another person's empty Submit is not their second.
func TestAnEmptyMultiSelectTakesASecondSubmit(t *testing.T) {
	rg := newRig(t, rigOptions{})
	a := rg.ask("", ask.Request{ID: "ask_empty", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("Which features?")
	rg.submit(m, alice)
	rg.ephemeral(alice.ID, `"Features": nothing is ticked. Tick what applies, or press Submit again to send it with nothing selected.`)
	a.Pending(t)
	rg.submit(m, bob)
	rg.ephemeral(bob.ID, `"Features": nothing is ticked.`)
	a.Pending(t)
	rg.submit(m, alice)
	answers := a.Answers(t)
	if len(answers[0].Selected) != 0 || !answers[0].Skipped || answers[0].Via != "@alice on Slack" {
		t.Fatalf("answers %+v", answers)
	}
}
