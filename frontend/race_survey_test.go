//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package frontend

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

// browserAnswers is a frontend standing for the web page: once release is
// closed it answers every question with its option labelled pick[i], as
// a person in the browser would.
func browserAnswers(release <-chan struct{}, pick ...string) funcFE {
	return funcFE{ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ask.CtxErr(ctx)
		}
		var out []ask.Answer
		for i, q := range req.Questions {
			a, err := ask.Selection(q, []string{pick[i]}, "", ask.SourcePerson)
			if err != nil {
				return nil, err
			}
			out = append(out, a)
		}
		return out, nil
	}}
}

// raceRun is a Race of the terminal prompt (on an emulated terminal) and
// a browser stand-in, asked in the background.
type raceRun struct {
	tm   *termtest.Term
	done chan surveyResult
}

func startRace(t *testing.T, req ask.Request, browser funcFE, setup func(*Survey)) *raceRun {
	t.Helper()
	tm := termtest.New(t, 80, 24)
	s := NewSurvey(tm.TTY, tm.TTY)
	off := false
	s.Color = &off
	if setup != nil {
		setup(s)
	}
	r := &raceRun{tm: tm, done: make(chan surveyResult, 1)}
	race := NewRace(Racer{"survey", s}, Racer{"web", browser})
	go func() {
		a, err := race.Ask(bounded(t), req)
		r.done <- surveyResult{a, err}
	}()
	return r
}

func (r *raceRun) finish(t *testing.T) surveyResult {
	t.Helper()
	var res surveyResult
	select {
	case res = <-r.done:
	case <-time.After(waitLimit):
		t.Fatalf("the race did not end\nscreen:\n%s", r.tm.Screen.Dump())
	}
	if !r.tm.Restored() {
		t.Error("terminal left in raw mode")
	}
	r.tm.Close()
	return res
}

// TestRaceSurveyShowsWinner (issue 24 §6): a person answers the first
// question at the terminal, then the browser answers the set. The
// terminal shows the browser's answers, said to come from there, and no
// line of its own first answer, which did not count: in the full prompt
// and in plain mode, which once printed each ✔ line as it went.
func TestRaceSurveyShowsWinner(t *testing.T) {
	want := "Answered in the browser:\n  ✔ Database: SQLite\n  ✔ Features: TypeScript"
	for _, mode := range []struct {
		name  string
		setup func(*Survey)
		// pick answers the first question with MongoDB and waits for
		// the second.
		pick func(*termtest.Term)
	}{
		{"full", nil, func(tm *termtest.Term) {
			tm.WaitText("esc cancel")
			tm.WaitRaw()
			tm.Send("1")
			tm.WaitText("Question 2 of 2")
		}},
		{"plain", plain, func(tm *termtest.Term) {
			tm.WaitText("Type a number")
			tm.Send("1\r")
			tm.WaitText("[Features]")
		}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			release := make(chan struct{})
			r := startRace(t, twoQuestions(), browserAnswers(release, "SQLite", "TypeScript"), mode.setup)
			mode.pick(r.tm)
			close(release)
			res := r.finish(t)
			if res.err != nil {
				t.Fatal(res.err)
			}
			checkPicked(t, res.answers[:1], "SQLite")
			if got := r.tm.Screen.String(); !strings.HasSuffix(got, want) || (mode.setup == nil && got != want) {
				t.Errorf("the terminal shows:\n%s\nwant it to end with:\n%s", r.tm.Screen.Dump(), want)
			}
			if n := r.tm.Screen.Count("✔ Database: MongoDB"); n != 0 {
				t.Errorf("the terminal's first answer, which did not count, shows as given:\n%s", r.tm.Screen.Dump())
			}
		})
	}
}

// TestRaceSurveySameMoment: the terminal's pick and the browser's answer
// come at nearly the same moment, in either order. Whichever wins, what
// the terminal shows is what was answered: never a line for a pick that
// did not count.
func TestRaceSurveySameMoment(t *testing.T) {
	for attempt := range 12 {
		release := make(chan struct{})
		r := startRace(t, oneQuestion(databaseQuestion()), browserAnswers(release, "SQLite"), nil)
		r.tm.WaitText("esc cancel")
		r.tm.WaitRaw()
		// The key first, and the browser's answer a little later each
		// time, so that either can come first: how much later does not
		// decide the outcome the test requires, only which one it sees.
		r.tm.Send("1")
		time.Sleep(time.Duration(attempt) * 250 * time.Microsecond)
		close(release)
		res := r.finish(t)
		if res.err != nil {
			t.Fatal(res.err)
		}
		screen := r.tm.Screen.String()
		switch res.answers[0].Selected[0] {
		case "MongoDB": // the terminal won
			if screen != "✔ Database: MongoDB" {
				t.Errorf("attempt %d: the terminal's pick won, yet the terminal shows:\n%s", attempt, r.tm.Screen.Dump())
			}
		case "SQLite": // the browser won
			if screen != "Answered in the browser:\n  ✔ Database: SQLite" {
				t.Errorf("attempt %d: the browser's answer won, yet the terminal shows:\n%s", attempt, r.tm.Screen.Dump())
			}
		default:
			t.Fatalf("attempt %d: answers %+v", attempt, res.answers)
		}
	}
}

// TestRaceSurveyPlain: the plain prompt, withdrawn because the browser
// answered, says so in plain text.
func TestRaceSurveyPlain(t *testing.T) {
	release := make(chan struct{})
	r := startRace(t, oneQuestion(databaseQuestion()), browserAnswers(release, "SQLite"), plain)
	r.tm.WaitText("Type a number")
	close(release)
	res := r.finish(t)
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkPicked(t, res.answers, "SQLite")
	if !strings.HasSuffix(r.tm.Screen.String(), "Answered in the browser:\n  ✔ Database: SQLite") {
		t.Errorf("the plain prompt does not say what won:\n%s", r.tm.Screen.Dump())
	}
	if raw := r.tm.Screen.Raw(); strings.Contains(raw, "\x1b") {
		t.Errorf("plain mode wrote an escape sequence: %q", raw)
	}
}

// TestRaceSurveyClaimOutlivesBrokenScreen: once the terminal has claimed
// the set, the browser is withdrawn and told the terminal's answer won,
// so that answer must be the set's answer even when the confirmation
// line cannot be written (the screen went away just after the pick): the
// race returns it rather than an error that would lose it.
func TestRaceSurveyClaimOutlivesBrokenScreen(t *testing.T) {
	tm := termtest.New(t, 80, 24)
	screenR, screenW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer screenW.Close()
	s := NewSurvey(tm.TTY, screenW)
	off := false
	s.Color = &off
	var where string
	var won []ask.Answer
	browser := funcFE{conc: true, ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		<-ctx.Done()
		where, won, _ = ask.ClaimerOf(ctx).Winner()
		return nil, ask.CtxErr(ctx)
	}}
	r := &raceRun{tm: tm, done: make(chan surveyResult, 1)}
	go func() {
		a, err := NewRace(Racer{"survey", s}, Racer{"web", browser}).Ask(bounded(t), oneQuestion(databaseQuestion()))
		r.done <- surveyResult{a, err}
	}()
	// Read the first frame whole, then take the screen away: the next
	// write to it fails.
	var drawn []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(drawn, []byte("esc cancel")) {
		n, err := screenR.Read(buf)
		if err != nil {
			t.Fatalf("reading the screen: %v (read %q)", err, drawn)
		}
		drawn = append(drawn, buf[:n]...)
	}
	screenR.Close()
	tm.WaitRaw()
	tm.Send("1") // MongoDB
	res := r.finish(t)
	if res.err != nil {
		t.Fatalf("the race lost the terminal's claimed answer: %v", res.err)
	}
	checkPicked(t, res.answers, "MongoDB")
	if where != "at the terminal" {
		t.Errorf("the browser was told it was answered %q, want at the terminal", where)
	}
	checkPicked(t, won, "MongoDB")
}
