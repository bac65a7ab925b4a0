package inbox

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
)

// terminalPick answers req as a person at the terminal would: JWT, and
// GitHub.
func terminalPick(t *testing.T, req ask.Request) []ask.Answer {
	t.Helper()
	var out []ask.Answer
	for i, label := range []string{"JWT", "GitHub"} {
		a, err := ask.Selection(req.Questions[i], []string{label}, "", ask.SourcePerson)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// wonAtTerminal is a race the terminal has just won: its claim is made,
// and the withdrawal has not reached the card yet (its context is still
// live), as when the page's answer comes a hair after the terminal's.
type wonAtTerminal struct{ answers []ask.Answer }

func (w wonAtTerminal) Claim([]ask.Answer) bool { return false }
func (w wonAtTerminal) Winner() (string, []ask.Answer, bool) {
	return "at the terminal", w.answers, true
}

// TestCardLosesClaim (issue 24 §6, on the card): the page's answer comes
// while its card is still open, but the terminal has claimed the set: the
// submission gets 409 "already answered", the card shows the terminal's
// answer and says where it was given, and Ask does not return the page's.
func TestCardLosesClaim(t *testing.T) {
	g := newCardRig(t)
	req := authSet("toolu_1")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := g.ask(ask.WithClaimer(ctx, wonAtTerminal{terminalPick(t, req)}), req)
	res := g.post("/answer/"+setKey("toolu_1"), url.Values{"q0": {"2"}, "q1": {"0"}})
	checkLostCard(t, res)
	// The card stays as it is when the race's withdrawal arrives.
	cancel()
	if r := waitAsked(t, ch); r.err == nil {
		t.Errorf("Ask returned %v, the answer that lost", r.answers)
	}
	mustContain(t, g.get("/").Body.String(), "Answered at the terminal.", "<dd>JWT</dd>")
}

// TestCardRaceTerminalFirst: --frontend web,survey with a terminal that
// claims the set first and the page answering right after, whether the
// card was withdrawn by then or not: the page's answer is refused with
// 409, the card says the terminal answered and shows what, and the race's
// answer is the terminal's.
func TestCardRaceTerminalFirst(t *testing.T) {
	g := newCardRig(t)
	req := authSet("toolu_1")
	claimed, release := make(chan struct{}), make(chan struct{})
	terminal := terminalFE(func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		answers := terminalPick(t, req)
		if !ask.ClaimerOf(ctx).Claim(answers) {
			t.Error("the terminal's claim, made first, lost")
		}
		close(claimed)
		<-release
		return answers, nil
	})
	race := frontend.NewRace(frontend.Racer{Name: "survey", FE: terminal}, frontend.Racer{Name: "web", FE: g.b})
	done := make(chan asked, 1)
	go func() {
		a, err := race.Ask(context.Background(), req)
		done <- asked{a, err}
	}()
	select {
	case <-claimed:
	case <-time.After(5 * time.Second):
		t.Fatal("the terminal never claimed the set")
	}
	checkLostCard(t, g.post("/answer/"+setKey("toolu_1"), url.Values{"q0": {"2"}, "q1": {"0"}}))
	close(release)
	r := waitAsked(t, done)
	if r.err != nil {
		t.Fatal(r.err)
	}
	if got := r.answers[0].Selected; len(got) != 1 || got[0] != "JWT" {
		t.Errorf("the race answered %v, want the terminal's JWT", got)
	}
	mustContain(t, g.get("/").Body.String(), "Answered at the terminal.", "<dd>JWT</dd>", "<dd>GitHub</dd>")
}

// checkLostCard checks the reply to a page's answer that lost the set to
// the terminal: 409, "already answered", and the terminal's answer on the
// card, never the page's.
func checkLostCard(t *testing.T, res *httptest.ResponseRecorder) {
	t.Helper()
	body := res.Body.String()
	if res.Code != http.StatusConflict || !strings.Contains(body, "Already answered") {
		t.Errorf("the page's late answer: status %d, want 409 and already answered:\n%s", res.Code, body)
	}
	mustContain(t, body, "Answered at the terminal.", "<dd>JWT</dd>", "<dd>GitHub</dd>")
	if strings.Contains(body, "Session-based</dd>") || strings.Contains(body, "Answered on this page") {
		t.Errorf("the card shows the page's answer as accepted:\n%s", body)
	}
}

type terminalFE func(ctx context.Context, req ask.Request) ([]ask.Answer, error)

func (f terminalFE) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	return f(ctx, req)
}
