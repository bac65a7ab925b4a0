// The pty and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"context"
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/termtest"
)

// Keys as a terminal sends them.
const (
	sendUp    = "\x1b[A"
	sendDown  = "\x1b[B"
	sendEnter = "\r"
	sendEsc   = "\x1b"
	sendTab   = "\t"
	sendBS    = "\x7f"
	sendCtrlC = "\x03"
	sendCtrlD = "\x04"
)

// waitLimit bounds every wait in these tests, so a broken prompt fails the
// test instead of hanging it.
const waitLimit = termtest.WaitLimit

var sgrPattern = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// surveyRun is Survey.Ask running in the background on an emulated
// terminal.
type surveyRun struct {
	t    *testing.T
	tm   *termtest.Term
	done chan surveyResult
}

type surveyResult struct {
	answers []ask.Answer
	err     error
}

// size is a terminal size; color says whether the prompt may colour.
type size struct{ cols, rows int }

var (
	wide   = size{80, 24}
	narrow = size{40, 24}
	short  = size{40, 12}
)

// startSurvey asks req on a new terminal of size sz. setup, when given,
// adjusts the Survey (colour, plain, ...). The context ends with the
// test, which also ends a prompt left open by a failed test.
func startSurvey(t *testing.T, sz size, req ask.Request, setup func(*Survey)) *surveyRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return startSurveyCtx(t, ctx, sz, req, setup)
}

func startSurveyCtx(t *testing.T, ctx context.Context, sz size, req ask.Request, setup func(*Survey)) *surveyRun {
	t.Helper()
	return startSurveyOn(t, termtest.New(t, sz.cols, sz.rows), ctx, req, setup)
}

// startSurveyOn asks req on tm, a terminal made by the caller.
func startSurveyOn(t *testing.T, tm *termtest.Term, ctx context.Context, req ask.Request, setup func(*Survey)) *surveyRun {
	t.Helper()
	s := NewSurvey(tm.TTY, tm.TTY)
	off := false
	s.Color = &off
	if setup != nil {
		setup(s)
	}
	r := &surveyRun{t: t, tm: tm, done: make(chan surveyResult, 1)}
	ctx, cancel := context.WithCancel(ctx)
	ended := make(chan struct{})
	go func() {
		a, err := s.Ask(ctx, req)
		close(ended)
		r.done <- surveyResult{a, err}
	}()
	// Ask must be over before the terminal is closed (cleanups run last
	// first): a prompt still reading a closed descriptor would read, and
	// restore the mode of, whatever terminal the next test opens under
	// the same number.
	t.Cleanup(func() {
		cancel()
		select {
		case <-ended:
		case <-time.After(waitLimit):
			t.Error("Ask did not return after its context ended")
		}
	})
	return r
}

func withColor(on bool) func(*Survey) {
	return func(s *Survey) { s.Color = &on }
}

// ready waits for the prompt to show texts and to be reading keys.
func (r *surveyRun) ready(texts ...string) {
	r.t.Helper()
	r.tm.WaitText(texts...)
	r.tm.WaitRaw()
}

// finish waits for Ask to return, then requires the terminal to be back
// in its mode with the cursor shown, and closes it so the screen holds
// everything written.
func (r *surveyRun) finish() surveyResult {
	r.t.Helper()
	var res surveyResult
	select {
	case res = <-r.done:
	case <-time.After(waitLimit):
		r.t.Fatalf("Ask did not return\nscreen:\n%s", r.tm.Screen.Dump())
	}
	if !r.tm.Restored() {
		r.t.Error("terminal left in raw mode")
	}
	r.tm.Close()
	if !r.tm.Screen.CursorLeftShown() {
		r.t.Errorf("cursor left hidden; the last bytes written: %s", r.tm.Screen.RawTail(120))
	}
	return res
}

// line returns the screen line holding s, failing when there is none.
func (r *surveyRun) line(s string) string {
	r.t.Helper()
	l, ok := r.tm.Screen.Line(s)
	if !ok {
		r.t.Fatalf("%q not on screen:\n%s", s, r.tm.Screen.Dump())
	}
	return l
}

// checkAnswers compares answers, requiring AnsweredAt to be set.
func checkAnswers(t *testing.T, got []ask.Answer, want ...ask.Answer) {
	t.Helper()
	for i := range got {
		if got[i].AnsweredAt.IsZero() {
			t.Errorf("answer %d: AnsweredAt not set", i)
		}
		got[i].AnsweredAt = time.Time{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("answers:\n got %#v\nwant %#v", got, want)
	}
}

// The prompt's sample questions, shared with its other tests.
var (
	databaseQuestion = asktest.DatabaseQuestion
	featuresQuestion = asktest.FeaturesQuestion
)

func person(q ask.Question, selected []string, custom string) ask.Answer {
	if selected == nil {
		selected = []string{}
	}
	return ask.Answer{
		Question: q.Question, Header: q.Header, Selected: selected, Custom: custom,
		Skipped: len(selected) == 0 && custom == "", Source: ask.SourcePerson,
	}
}

func oneQuestion(q ask.Question) ask.Request {
	return ask.Request{ID: "r1", Questions: []ask.Question{q}}
}

func TestSurveyContextEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string // to reach the state that is open when ctx ends
		at   string
		want error
	}{
		{"deadline at the options", nil, "esc cancel", ask.ErrTimeout},
		{"cancel at the options", nil, "esc cancel", ask.ErrCancelled},
		{"cancel in the Other field", []string{"4"}, "Please specify:", ask.ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			if tc.want == ask.ErrTimeout {
				// Long enough for the prompt to open first; the test
				// checks that it did.
				ctx, cancel = context.WithTimeoutCause(context.Background(), 3*time.Second, ask.ErrTimeout)
			}
			defer cancel()
			r := startSurveyCtx(t, ctx, wide, oneQuestion(databaseQuestion()), nil)
			r.ready("esc cancel")
			if tc.keys != nil {
				r.tm.Send(tc.keys...)
				r.tm.WaitText(tc.at)
			}
			if tc.want == ask.ErrTimeout {
				// The clock is on the screen while it runs.
				r.tm.WaitText("s left")
			} else {
				cancel()
			}
			var res surveyResult
			select {
			case res = <-r.done:
			case <-time.After(waitLimit):
				t.Fatal("Ask did not return")
			}
			if !errors.Is(res.err, tc.want) || res.answers != nil {
				t.Fatalf("Ask = %v, %v; want no answers and %v", res.answers, res.err, tc.want)
			}
			if !r.tm.Restored() {
				t.Error("terminal left in raw mode")
			}
			// Nothing is left reading the terminal: a line typed now
			// reaches a fresh reader.
			r.tm.Send("x\n")
			fresh, err := newTTYReader(r.tm.TTY)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			timer := time.AfterFunc(waitLimit, fresh.Cancel)
			defer timer.Stop()
			buf := make([]byte, 16)
			n, err := fresh.Read(buf)
			if err != nil || string(buf[:n]) != "x\n" {
				t.Fatalf("fresh read = %q, %v; want \"x\\n\" (was the key taken by a leftover reader?)", buf[:n], err)
			}
			r.tm.Close()
			// The prompt was withdrawn: nothing of it is left on screen.
			if screen := r.tm.Screen.String(); strings.Contains(screen, "Which database") || strings.Contains(screen, "esc cancel") {
				t.Errorf("the prompt was left on the screen:\n%s", r.tm.Screen.Dump())
			}
			if !r.tm.Screen.CursorLeftShown() {
				t.Errorf("cursor left hidden; the last bytes written: %s", r.tm.Screen.RawTail(120))
			}
		})
	}
}

func TestSurveyContextDoneBeforeAsking(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := startSurveyCtx(t, ctx, wide, oneQuestion(databaseQuestion()), nil)
	res := r.finish()
	if !errors.Is(res.err, ask.ErrCancelled) {
		t.Fatalf("Ask error = %v, want ask.ErrCancelled", res.err)
	}
	if raw := r.tm.Screen.Raw(); raw != "" {
		t.Errorf("drew %q for a question set it was too late to ask", raw)
	}
}
