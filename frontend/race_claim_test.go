package frontend

import (
	"context"
	"testing"

	"github.com/askuser/askuser/ask"
)

// TestRaceClaimTellsLoserAtOnce: a frontend that claims the set with its
// answers (as the terminal does before printing them) wins it, and the
// one that lost learns what won and where at once, before the winner has
// returned: so the web card can say "Answered at the terminal" as soon as
// it is withdrawn. The loser's own later claim does not count.
func TestRaceClaimTellsLoserAtOnce(t *testing.T) {
	req := oneQ("q1", "Color", "Red", "Blue")
	checked := make(chan struct{})
	terminal := funcFE{ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		a, err := ask.Selection(req.Questions[0], []string{"Red"}, "", ask.SourcePerson)
		if err != nil {
			return nil, err
		}
		if !ask.ClaimerOf(ctx).Claim([]ask.Answer{a}) {
			t.Error("the first claim lost")
		}
		<-checked // returns only after the loser looked
		return []ask.Answer{a}, nil
	}}
	var where string
	var won []ask.Answer
	var lateClaim bool
	web := funcFE{conc: true, ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		defer close(checked)
		<-ctx.Done()
		where, won, _ = ask.ClaimerOf(ctx).Winner()
		a, _ := ask.Selection(req.Questions[0], []string{"Blue"}, "", ask.SourcePerson)
		lateClaim = ask.ClaimerOf(ctx).Claim([]ask.Answer{a})
		return nil, ask.CtxErr(ctx)
	}}
	answers, err := NewRace(Racer{"survey", terminal}, Racer{"web", web}).Ask(bounded(t), req)
	if err != nil {
		t.Fatal(err)
	}
	checkPicked(t, answers, "Red")
	if where != "at the terminal" {
		t.Errorf("the loser was told it was answered %q, want at the terminal", where)
	}
	checkPicked(t, won, "Red")
	if lateClaim {
		t.Error("a claim after the set was won counted")
	}
}

// TestClaimOutsideRace: a frontend asked alone always wins its claim, and
// nobody else answered.
func TestClaimOutsideRace(t *testing.T) {
	c := ask.ClaimerOf(context.Background())
	if !c.Claim(nil) {
		t.Error("a claim outside a race lost")
	}
	if where, answers, ok := c.Winner(); ok {
		t.Errorf("outside a race, answered %s with %v", where, answers)
	}
}

// TestRaceWinnerNamesThePerson: when a chat channel wins a race (askuser
// --frontend slack,survey), the terminal is told who answered, as the
// answers name them ("by @alice on Slack"), not the channel's flag name.
func TestRaceWinnerNamesThePerson(t *testing.T) {
	req := oneQ("q1", "Color", "Red", "Blue")
	// Slack answers once the terminal asks: a terminal still waiting for
	// its turn when the set is won is never asked, and has nothing to say.
	asking := make(chan struct{})
	slack := funcFE{conc: true, ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		<-asking
		a, err := ask.Selection(req.Questions[0], []string{"Blue"}, "", ask.SourcePerson)
		a.Via = ask.ViaOn("@alice", "Slack")
		return []ask.Answer{a}, err
	}}
	var where string
	terminal := funcFE{ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		close(asking)
		<-ctx.Done()
		where, _, _ = ask.ClaimerOf(ctx).Winner()
		return nil, ask.CtxErr(ctx)
	}}
	if _, err := NewRace(Racer{"slack", slack}, Racer{"survey", terminal}).Ask(bounded(t), req); err != nil {
		t.Fatal(err)
	}
	if where != "by @alice on Slack" {
		t.Errorf("the terminal was told it was answered %q, want by @alice on Slack", where)
	}
}
