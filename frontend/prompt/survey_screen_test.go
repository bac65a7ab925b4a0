//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

// longQuestion is taller than a 12-row screen at 40 columns when every
// option shows its description.
func longQuestion() ask.Question {
	q := featuresQuestion()
	q.Question = "Which features should we enable for the new web frontend? Each one adds a dependency and some setup to the project."
	return q
}

// startFilled asks req on a terminal that already shows n lines of
// earlier output, so the prompt is drawn at the bottom of a full screen,
// where a prompt that scrolls leaves copies.
func startFilled(t *testing.T, sz size, n int, req ask.Request) *surveyRun {
	t.Helper()
	tm := termtest.New(t, sz.cols, sz.rows)
	for i := 1; i <= n; i++ {
		if _, err := fmt.Fprintf(tm.TTY, "agent output line %d\n", i); err != nil {
			t.Fatal(err)
		}
	}
	tm.WaitText(fmt.Sprintf("agent output line %d", n))
	return startSurveyOn(t, tm, context.Background(), req, nil)
}

// TestSurveyTallerThanTheScreen answers a question taller than a 12-row
// screen with many keys. The header and the question stay on screen
// throughout, every option can be reached, and the scrollback gets no
// copy of the question.
func TestSurveyTallerThanTheScreen(t *testing.T) {
	for _, sz := range []size{short, {80, 12}} {
		t.Run(sizeName(sz), func(t *testing.T) {
			t.Parallel()
			q := longQuestion()
			tm := startFilled(t, sz, 30, oneQuestion(q))
			tm.ready("esc cancel")
			visible := func() {
				t.Helper()
				screen := tm.tm.Screen.String()
				// The footer's last key: esc cancel, or esc clear filter.
				for _, s := range []string{"╭─ Features ─╮", "Which features should we", "esc"} {
					if !strings.Contains(screen, s) {
						t.Fatalf("%q is not on screen:\n%s", s, tm.tm.Screen.Dump())
					}
				}
			}
			visible()
			steps := []step{
				{keys(sendDown), []string{"❯ ☐ 2. ESLint"}},
				{keys(sendDown), []string{"❯ ☐ 3. Testing"}},
				{keys(" "), []string{"❯ ☑ 3. Testing"}},
				{keys(sendDown), []string{"❯ ☐ 4. Tailwind"}},
				{keys(sendDown), []string{"❯ ☐ 5. Other"}},
				{keys(sendDown), []string{"❯ ☐ 1. TypeScript"}},
				{keys("t", "a"), []string{"filter: ta"}},
				{keys(sendBS, sendBS), []string{"!filter:"}},
				{keys("5"), []string{"Please specify:"}},
				{keys("Bio", "me", sendEnter), []string{"☑ 5. Other: Biome"}},
				{keys("1"), []string{"☑ 1. TypeScript"}},
			}
			for _, s := range steps {
				tm.play([]step{s})
				visible()
				checkFits(t, tm)
			}
			if n := tm.tm.Screen.Count("Which features should we"); n != 1 {
				t.Errorf("the question is %d times in the scrollback and on screen, want once\nscrollback:\n%s\nscreen:\n%s",
					n, strings.Join(tm.tm.Screen.Scrollback(), "\n"), tm.tm.Screen.Dump())
			}
			tm.tm.Send(sendEnter)
			res := tm.finish()
			if res.err != nil {
				t.Fatal(res.err)
			}
			checkAnswers(t, res.answers, person(q, []string{"TypeScript", "Testing (Vitest)"}, "Biome"))
			if n := tm.tm.Screen.Count("╭─ Features"); n != 0 {
				t.Errorf("the header chip is %d times in the scrollback and on screen after the answer, want none", n)
			}
		})
	}
}

// TestSurveyResize narrows the terminal while the prompt is open, then
// widens it: the prompt is drawn again at each width, once, whether the
// terminal cuts the lines it had (xterm) or re-wraps them (VTE, iTerm2).
func TestSurveyResize(t *testing.T) {
	for _, reflow := range []bool{false, true} {
		t.Run(map[bool]string{false: "cut", true: "re-wrap"}[reflow], func(t *testing.T) {
			t.Parallel()
			q := databaseQuestion()
			q.Question = "Which database should we use for the service that stores the orders of the new shop?"
			r := startFilled(t, wide, 5, oneQuestion(q))
			r.ready("↑↓ move • 1-4 pick • enter select • esc cancel")
			resize := r.tm.Resize
			if reflow {
				resize = r.tm.ResizeReflow
			}
			resize(40, 24)
			r.tm.Wait("the prompt drawn at 40 columns", func(*termtest.Screen) bool {
				l, ok := r.tm.Screen.Line("esc cancel")
				return ok && strings.TrimSpace(l) == "esc cancel"
			})
			checkFits(t, r)
			r.line("Which database should we use for the")
			if n := r.tm.Screen.Count("Which database"); n != 1 {
				t.Errorf("after narrowing, the question shows %d times, want once:\n%s", n, r.tm.Screen.Dump())
			}
			if n := r.tm.Screen.Count("Type your own answer"); n != 1 {
				t.Errorf("after narrowing, Other's description shows %d times, want once:\n%s", n, r.tm.Screen.Dump())
			}
			resize(80, 24)
			r.tm.WaitText("↑↓ move • 1-4 pick • enter select • esc cancel")
			r.line("Which database should we use for the service that stores the orders of the new")
			if n := r.tm.Screen.Count("Which database"); n != 1 {
				t.Errorf("after widening, the question shows %d times, want once:\n%s", n, r.tm.Screen.Dump())
			}
			r.tm.Send("3")
			if res := r.finish(); res.err != nil {
				t.Fatal(res.err)
			}
			r.line("✔ Database: SQLite")
		})
	}
}
