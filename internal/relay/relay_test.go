package relay_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// A set asked through the channel is sent, a tap answers it with a
// person's answers naming who gave them, and its widget says so.
func TestTapAnswersTheSet(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	req := ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, featuresQuestion}}
	a := ask1(context.Background(), rg.frontend(""), req)
	m := rg.message(titled("Database"), "asking about the database")
	if m.Title != "askuser ask" || m.Rev != 1 || m.Room != "room-1" || !strings.Contains(m.Text, "2. SQLite") {
		t.Errorf("the message: %+v", m)
	}
	_, v, err := rg.srv.Tap(limit, "U-alice", "@al\x1b[31mice\u202e", m, channeltest.Pick{Options: []int{1}},
		channeltest.Pick{Options: []int{0, 2}, Other: "and a \x1b[31mdemo"})
	if err != nil || !v.OK {
		t.Fatalf("the tap: %+v, %v", v, err)
	}
	answers, err := a.Wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if answers[0].Selected[0] != "SQLite" || strings.Join(answers[1].Selected, ",") != "Docs,Lint" || answers[1].Custom != "and a demo" {
		t.Errorf("answers %+v", answers)
	}
	for _, a := range answers {
		if a.Source != ask.SourcePerson || a.Via != "@alice on testchan" || a.AnsweredAt.IsZero() {
			t.Errorf("answer %+v is not @alice's", a)
		}
	}
	if text := ask.FormatResult(answers); !strings.Contains(text, "   Via: @alice on testchan\n") || !strings.HasPrefix(text, "User answered the following questions:") {
		t.Errorf("the result:\n%s", text)
	}
	u := rg.updated(m.ID)
	if u.State != channel.Answered || !strings.HasPrefix(u.Updates[0], "Answered: Database: SQLite; Features: Docs, Lint, Other: and a demo — by @alice on testchan, ") {
		t.Errorf("the widget shows %q (%s)", u.Updates, u.State)
	}
}

// A tap from someone not on the allow-list is refused and recorded
// nowhere; the set still takes an answer.
func TestStrangersTapIsRefused(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	a := ask1(context.Background(), rg.frontend(""), ask.Request{ID: "ask_2", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "asked")
	_, v, err := rg.srv.Tap(limit, "U-mallory", "@mallory", m, channeltest.Pick{Options: []int{0}})
	if err != nil || v.OK || v.Text != channel.NotAllowed {
		t.Fatalf("a stranger's tap: %+v, %v", v, err)
	}
	if _, ok, _ := rg.st.Mailbox().Get(context.Background(), session.Box{Key: m.Key}); ok {
		t.Fatal("a stranger's tap reached the mailbox")
	}
	if len(rg.srv.Messages()[0].Updates) != 0 {
		t.Error("a stranger's tap changed the widget")
	}
	if _, v, _ := rg.srv.Tap(limit, "U-bob", "@bob", m, channeltest.Pick{Options: []int{1}}); !v.OK {
		t.Fatalf("bob's tap after it: %+v", v)
	}
	if answers, err := a.Wait(t); err != nil || answers[0].Via != "@bob on testchan" {
		t.Errorf("answers %+v, %v", answers, err)
	}
}

// A tap on an outdated rendering is refused; the newest takes answers.
func TestStaleRevisionIsRefused(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	req := ask.Request{ID: "ask_3", Questions: []ask.Question{dbQuestion, featuresQuestion}}
	a := ask1(context.Background(), rg.frontend(""), req)
	old := rg.message(titled("Features"), "asked")
	// The set changes (its first question was answered elsewhere, say):
	// a new revision, sent anew.
	_, err := rg.st.Registry().Update(context.Background(), old.Key, func(e *session.Entry, found bool) error {
		e.Request.Questions[0].Options = append(e.Request.Questions[0].Options, ask.Option{Label: "DuckDB"})
		e.Rev++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rg.message(func(m channeltest.Message) bool { return m.Key == old.Key && m.Rev == 2 }, "of revision 2")
	rg.updated(old.ID)
	_, v, err := rg.srv.Tap(limit, "U-alice", "@alice", old, channeltest.Pick{Options: []int{0}}, channeltest.Pick{Options: []int{0}})
	if err != nil || v.OK || !strings.Contains(v.Text, "out of date") {
		t.Fatalf("a tap on revision 1: %+v, %v", v, err)
	}
	if a.Answered() {
		t.Fatal("a stale tap answered the set")
	}
}

// Two people tap at once: one answer is taken, the other is told whose
// it was; the same tap delivered again gets the same verdict.
func TestDoubleTapIsAnsweredOnce(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	a := ask1(context.Background(), rg.frontend(""), ask.Request{ID: "ask_4", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "asked")
	var wg sync.WaitGroup
	ids := make([]string, 2)
	verdicts := make([]channeltest.Verdict, 2)
	for i, who := range []string{"alice", "bob"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], verdicts[i], _ = rg.srv.Tap(limit, "U-"+who, "@"+who, m, channeltest.Pick{Options: []int{i}})
		}()
	}
	wg.Wait()
	if verdicts[0].OK == verdicts[1].OK {
		t.Fatalf("verdicts %+v: want exactly one taken", verdicts)
	}
	won := 0
	if verdicts[1].OK {
		won = 1
	}
	winner := []string{"@alice", "@bob"}[won]
	if !strings.HasPrefix(verdicts[1-won].Text, "Already answered by "+winner+" on testchan at ") {
		t.Errorf("the loser was told %q", verdicts[1-won].Text)
	}
	answers, err := a.Wait(t)
	if err != nil || answers[0].Via != winner+" on testchan" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
	again, err := rg.srv.Redeliver(limit, ids[won])
	if err != nil || again != verdicts[won] {
		t.Errorf("the winning tap delivered again: %+v, %v; want %+v", again, err, verdicts[won])
	}
	if u := rg.updated(m.ID); len(u.Updates) != 1 {
		t.Errorf("the widget was updated %d times: %q", len(u.Updates), u.Updates)
	}
}

// The platform is down when the set is to be sent: it stays pending and
// is sent when the platform is back; each failed attempt is said once.
func TestSendIsRetriedWhileThePlatformIsDown(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	rg.srv.FailSends(3)
	a := ask1(context.Background(), rg.frontend(""), ask.Request{ID: "ask_5", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "sent once the platform is back")
	if n := strings.Count(rg.log.String(), "could not send question"); n < 1 || n > 3 {
		t.Errorf("the failures were logged %d times:\n%s", n, rg.log.String())
	}
	if strings.Contains(rg.log.String(), rg.srv.Token) {
		t.Errorf("the log holds the token:\n%s", rg.log.String())
	}
	rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}})
	if _, err := a.Wait(t); err != nil {
		t.Fatal(err)
	}
}

// A set raced at the terminal and answered there has its widget say so;
// a tap after that is told it was answered.
func TestAnswerElsewhereIsShownOnTheWidget(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	terminal, fe := rg.raced()
	a := ask1(context.Background(), fe, ask.Request{ID: "ask_6", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "asked")
	terminal.answer <- []string{"SQLite"}
	if answers, err := a.Wait(t); err != nil || answers[0].Selected[0] != "SQLite" {
		t.Fatalf("%+v, %v", answers, err)
	}
	u := rg.updated(m.ID)
	if !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by a person at the terminal, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
	if _, v, _ := rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}}); v.OK || !strings.HasPrefix(v.Text, "Already answered by a person at the terminal") {
		t.Errorf("a tap after it: %+v", v)
	}
}

// A tap that wins while the terminal still asks withdraws the prompt and
// is the answer; the terminal's answer, had it come, would not be used.
func TestTapWithdrawsTheTerminal(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	terminal, fe := rg.raced()
	a := ask1(context.Background(), fe, ask.Request{ID: "ask_7", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "asked")
	rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}})
	answers, err := a.Wait(t)
	if err != nil || answers[0].Via != "@alice on testchan" {
		t.Fatalf("%+v, %v", answers, err)
	}
	if !terminal.withdrawn() {
		t.Error("the terminal prompt was not withdrawn")
	}
}

// A set asked outside a session and given up on (its timeout) is
// withdrawn, and its widget says why; so is one whose asker died.
func TestGivenUpSetsAreWithdrawn(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, ask.ErrTimeout)
	defer cancel()
	a := ask1(ctx, rg.frontend(""), ask.Request{ID: "ask_8", Questions: []ask.Question{dbQuestion}})
	m := rg.message(titled("Database"), "asked")
	if _, err := a.Wait(t); !errors.Is(err, ask.ErrTimeout) {
		t.Fatalf("err %v, want a timeout", err)
	}
	if u := rg.updated(m.ID); u.State != channel.Withdrawn || u.Updates[0] != "Withdrawn: nobody answered in time." {
		t.Errorf("the widget shows %q (%s)", u.Updates, u.State)
	}
	if _, v, _ := rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}}); v.OK {
		t.Errorf("a tap on a withdrawn set was taken: %+v", v)
	}

	// An asker killed: its set was sent, and then nobody held its lock.
	dead := relay.Key("", "ask_dead", time.Time{})
	register := func(title string) {
		rg.st.Registry().Update(context.Background(), dead, func(e *session.Entry, found bool) error {
			e.Request, e.Channels, e.Rev, e.Title = ask.Request{ID: "ask_dead", Questions: []ask.Question{featuresQuestion}}, []string{channeltest.Name}, 1, title
			return nil
		})
	}
	release, _ := rg.st.Registry().Hold(dead)
	register("alive")
	rg.relay.Wake()
	sent := rg.message(func(m channeltest.Message) bool { return m.Key == dead }, "of the asker that will die")
	release()
	rg.skew.Store(int64(-time.Minute))
	register("dead a minute")
	rg.relay.Wake()
	if d := rg.updated(sent.ID); d.Updates[0] != "Withdrawn: the asking process ended." {
		t.Errorf("the dead asker's widget shows %q", d.Updates)
	}
}

// gated is a terminal that answers when told, and notes a withdrawal.
type gated struct {
	answer chan []string
	mu     sync.Mutex
	gone   bool
}

func (g *gated) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	select {
	case labels := <-g.answer:
		a, err := ask.Selection(req.Questions[0], labels, "", ask.SourcePerson)
		return []ask.Answer{a}, err
	case <-ctx.Done():
		g.mu.Lock()
		g.gone = true
		g.mu.Unlock()
		return nil, ask.CtxErr(ctx)
	}
}

func (g *gated) withdrawn() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gone
}

// The process a tap answers may stop as soon as it has the answer (a
// live run serving its own channel): the tap still gets its verdict.
func TestTapIsAnsweredThoughTheRelayStops(t *testing.T) {
	for i := range 5 {
		rg := newRig(t, rigOptions{run: true})
		a := ask1(context.Background(), rg.frontend(""), ask.Request{ID: fmt.Sprintf("ask_stop_%d", i), Questions: []ask.Question{dbQuestion}})
		m := rg.message(titled("Database"), "asked")
		verdict := make(chan channeltest.Verdict, 1)
		go func() {
			_, v, _ := rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}})
			verdict <- v
		}()
		if _, err := a.Wait(t); err != nil {
			t.Fatal(err)
		}
		rg.stop() // the run ends
		if v := <-verdict; !v.OK {
			t.Fatalf("round %d: the tap got %+v", i, v)
		}
	}
}
