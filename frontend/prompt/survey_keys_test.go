//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

// step is a key (or keys) to send, then what the screen must show before
// the next step; a text starting with "!" is one it must not show.
type step struct {
	keys []string
	show []string
}

func keys(k ...string) []string { return k }

// everySize runs f at 80 and 40 columns and at 12 rows, with and without
// colour.
func everySize(t *testing.T, f func(t *testing.T, sz size, color bool)) {
	for _, sz := range []size{wide, narrow, short} {
		for _, color := range []bool{false, true} {
			name := sizeName(sz) + "/no-color"
			if color {
				name = sizeName(sz) + "/color"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f(t, sz, color)
			})
		}
	}
}

// play sends each step's keys and waits for what it shows.
func (r *surveyRun) play(steps []step) {
	r.t.Helper()
	for _, s := range steps {
		r.tm.Send(s.keys...)
		if len(s.show) == 0 {
			continue
		}
		r.tm.Wait(fmt.Sprintf("%q after %q", s.show, s.keys), func(sc *termtest.Screen) bool {
			screen := sc.String()
			for _, x := range s.show {
				h, hide := strings.CutPrefix(x, "!")
				if strings.Contains(screen, h) == hide {
					return false
				}
			}
			return true
		})
	}
}

// TestSurveySingleKeys drives every key of a single select.
func TestSurveySingleKeys(t *testing.T) {
	q := databaseQuestion()
	for _, tc := range []struct {
		name   string
		steps  []step
		sel    string // the option chosen, or
		custom string // the text typed through Other
	}{
		{"enter takes the focused recommended option", []step{{keys(sendEnter), nil}}, "PostgreSQL", ""},
		{"up then enter", []step{{keys(sendUp), []string{"❯ ● 1. MongoDB"}}, {keys(sendEnter), nil}}, "MongoDB", ""},
		{"down wraps past Other", []step{{keys(sendDown, sendDown, sendDown), []string{"❯ ● 1. MongoDB"}}, {keys(sendEnter), nil}}, "MongoDB", ""},
		{"a digit picks at once", []step{{keys("3"), nil}}, "SQLite", ""},
		{"the digit after the last option is Other", []step{{keys("4"), []string{"Please specify:"}}, {keys("Cockroach", "DB", sendEnter), nil}}, "", "CockroachDB"},
		{"a digit past Other picks nothing", []step{{keys("7"), []string{"no option 7"}}, {keys("1"), nil}}, "MongoDB", ""},
		{"letters filter", []step{{keys("l", "i"), []string{"filter: li", "❯ ● 3. SQLite"}}, {keys(sendEnter), nil}}, "SQLite", ""},
		{"a filter hides what it does not match, and goes to the best match", []step{{keys("s", "q"), []string{"filter: sq", "2. PostgreSQL", "❯ ● 3. SQLite", "!MongoDB"}}, {keys(sendUp), []string{"❯ ● 2. PostgreSQL"}}, {keys(sendEnter), nil}}, "PostgreSQL", ""},
		{"backspace edits the filter", []step{{keys("s", "q", sendBS, sendBS, "m"), []string{"❯ ● 1. MongoDB"}}, {keys(sendEnter), nil}}, "MongoDB", ""},
		{"a filter that matches nothing offers the text as Other",
			[]step{{keys("c", "o", "c", "k"), []string{`No option matches "cock"`, "1. MongoDB", "3. SQLite", "4. Other"}}, {keys(sendEnter), nil}}, "", "cock"},
		{"esc in the Other field goes back to the list",
			[]step{{keys("4"), []string{"Please specify:"}}, {keys("x", sendEsc), []string{"esc cancel", "1. MongoDB"}}, {keys("2"), nil}}, "PostgreSQL", ""},
		{"the Other text is kept when going back to the list",
			[]step{{keys("4", "Cock"), []string{"Please specify: Cock"}}, {keys(sendEsc), []string{"esc cancel", "1. MongoDB"}},
				{keys("4"), []string{"Please specify: Cock"}}, {keys("roach", sendEnter), nil}}, "", "Cockroach"},
		{"the Other field edits where the cursor is",
			[]step{{keys("4", "xabc"), []string{"Please specify: xabc"}}, {keys(sendHome, sendDelete, sendEnd, sendLeft, "Z"), []string{"Please specify: abZ"}},
				{keys(sendRight, "!", sendEnter), nil}}, "", "abZc!"},
		{"esc clears the filter first",
			[]step{{keys("s", "q"), []string{"filter: sq", "esc clear filter", "!MongoDB"}}, {keys(sendEsc), []string{"!filter:", "esc cancel", "1. MongoDB"}}, {keys("1"), nil}}, "MongoDB", ""},
		{"an empty Other is asked again",
			[]step{{keys("4", "  "), []string{"Please specify:"}}, {keys(sendEnter), []string{"type an answer"}}, {keys("bun", sendEnter), nil}}, "", "bun"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			everySize(t, func(t *testing.T, sz size, color bool) {
				r := startSurvey(t, sz, oneQuestion(q), withColor(color))
				r.ready("esc cancel")
				r.play(tc.steps)
				res := r.finish()
				if res.err != nil {
					t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
				}
				var sel []string
				if tc.sel != "" {
					sel = []string{tc.sel}
				}
				checkAnswers(t, res.answers, person(q, sel, tc.custom))
				want := "✔ Database: " + tc.sel
				if tc.custom != "" {
					want = "✔ Database: " + tc.custom + " (typed)"
				}
				if got := r.line("✔"); got != want {
					t.Errorf("confirmation %q, want %q", got, want)
				}
				if strings.Contains(r.tm.Screen.String(), "esc cancel") {
					t.Errorf("the prompt was left on the screen:\n%s", r.tm.Screen.Dump())
				}
				checkColor(t, r, color)
			})
		})
	}
}

// TestSurveyMultiKeys drives every key of a multi-select.
func TestSurveyMultiKeys(t *testing.T) {
	q := featuresQuestion()
	for _, tc := range []struct {
		name   string
		steps  []step
		sel    []string
		custom string
		line   string
	}{
		{"space ticks, enter confirms, in option order",
			[]step{{keys(sendDown, sendDown, sendDown, " ", sendUp, sendUp, sendUp, " "), []string{"❯ ☑ 1. TypeScript", "☑ 4. Tailwind CSS"}}, {keys(sendEnter), nil}},
			[]string{"TypeScript", "Tailwind CSS"}, "", "✔ Features: TypeScript, Tailwind CSS"},
		{"digits toggle", []step{{keys("2", "3", "3"), []string{"☑ 2. ESLint", "☐ 3. Testing"}}, {keys(sendEnter), nil}},
			[]string{"ESLint + Prettier"}, "", "✔ Features: ESLint + Prettier"},
		{"enter with nothing ticked asks, and y submits (none)",
			[]step{{keys(sendEnter), []string{"Submit with nothing selected? y/N"}}, {keys("y"), nil}}, nil, "", "✔ Features: (none)"},
		{"enter with nothing ticked asks, and n goes back",
			[]step{{keys(sendEnter), []string{"Submit with nothing selected? y/N"}}, {keys("n"), []string{"!Submit with nothing", "esc cancel"}},
				{keys(sendEnter), []string{"Submit with nothing selected? y/N"}}, {keys(sendEnter), []string{"!Submit with nothing"}}, {keys("2", sendEnter), nil}},
			[]string{"ESLint + Prettier"}, "", "✔ Features: ESLint + Prettier"},
		{"a key other than y or n after the question does its own work",
			[]step{{keys(sendEnter), []string{"Submit with nothing selected? y/N"}}, {keys("3"), []string{"☑ 3. Testing", "!Submit with nothing"}}, {keys(sendEnter), nil}},
			[]string{"Testing (Vitest)"}, "", "✔ Features: Testing (Vitest)"},
		{"esc in the Other field keeps its text for later",
			[]step{{keys("5", "Bio"), []string{"Please specify: Bio"}}, {keys(sendEsc), []string{"☐ 5. Other", "esc cancel"}},
				{keys("5"), []string{"Please specify: Bio"}}, {keys("me", sendEnter), []string{"☑ 5. Other: Biome"}}, {keys(sendEnter), nil}},
			nil, "Biome", "✔ Features: Biome (typed)"},
		{"Other keeps its text and the list open",
			[]step{{keys("1", "5"), []string{"Please specify:"}}, {keys("Biome", sendEnter), []string{"☑ 5. Other: Biome", "esc cancel"}}, {keys(sendEnter), nil}},
			[]string{"TypeScript"}, "Biome", "✔ Features: TypeScript, Biome (typed)"},
		{"esc in the Other field unticks it",
			[]step{{keys("5"), []string{"Please specify:"}}, {keys(sendEsc), []string{"☐ 5. Other", "esc cancel"}}, {keys("4", sendEnter), nil}},
			[]string{"Tailwind CSS"}, "", "✔ Features: Tailwind CSS"},
		{"a filter that matches nothing is Other, with the ticks",
			[]step{{keys("1", "b", "i", "o"), []string{`No option matches "bio"`}}, {keys(sendEnter), nil}},
			[]string{"TypeScript"}, "bio", "✔ Features: TypeScript, bio (typed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			everySize(t, func(t *testing.T, sz size, color bool) {
				r := startSurvey(t, sz, oneQuestion(q), withColor(color))
				r.ready("esc cancel")
				// Recommended options are not ticked for the person.
				if l := r.line("ESLint"); !strings.Contains(l, "☐ 2. ESLint + Prettier") {
					t.Errorf("recommended option line = %q, want it unticked", l)
				}
				r.play(tc.steps)
				res := r.finish()
				if res.err != nil {
					t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
				}
				checkAnswers(t, res.answers, person(q, tc.sel, tc.custom))
				if got := r.line("✔"); got != tc.line {
					t.Errorf("confirmation %q, want %q", got, tc.line)
				}
				checkColor(t, r, color)
			})
		})
	}
}

// TestSurveyCancelKeys: Esc in a list, Ctrl+C and Ctrl+D cancel the whole
// set, never answer, and withdraw the prompt.
func TestSurveyCancelKeys(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		key   string
		says  string
	}{
		{"esc in the list", nil, sendEsc, "(esc)"},
		{"ctrl+c in the list", nil, sendCtrlC, "(ctrl+c)"},
		{"ctrl+d in the list", nil, sendCtrlD, "(ctrl+d)"},
		{"ctrl+d in the Other field", []step{{keys("4", "bun"), []string{"Please specify: bun"}}}, sendCtrlD, "(ctrl+d)"},
		{"ctrl+c in the Other field", []step{{keys("4"), []string{"Please specify:"}}}, sendCtrlC, "(ctrl+c)"},
		{"esc at the second question", []step{{keys("1"), []string{"Question 2 of 2"}}}, sendEsc, "(esc)"},
		{"esc twice with a filter", []step{{keys("x"), []string{`No option matches "x"`}}, {keys(sendEsc), []string{"!No option matches", "esc cancel"}}}, sendEsc, "(esc)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			everySize(t, func(t *testing.T, sz size, color bool) {
				req := ask.Request{ID: "c", Questions: []ask.Question{databaseQuestion(), featuresQuestion()}}
				r := startSurvey(t, sz, req, withColor(color))
				r.ready("esc cancel")
				r.play(tc.steps)
				r.tm.Send(tc.key)
				res := r.finish()
				if !errors.Is(res.err, ask.ErrCancelled) || !strings.Contains(res.err.Error(), tc.says) {
					t.Fatalf("Ask error = %v, want ask.ErrCancelled saying %s", res.err, tc.says)
				}
				if res.answers != nil {
					t.Errorf("answers = %v, want none", res.answers)
				}
				if screen := r.tm.Screen.String(); strings.Contains(screen, "esc cancel") || strings.Contains(screen, "Which features") {
					t.Errorf("the prompt was left on the screen:\n%s", r.tm.Screen.Dump())
				}
			})
		})
	}
}

// checkColor requires colour exactly when it was allowed, and then the
// seed's colours: "(Recommended)" in the success colour, the chip in the
// primary.
func checkColor(t *testing.T, r *surveyRun, color bool) {
	t.Helper()
	raw := r.tm.Screen.Raw()
	sgr := sgrPattern.FindAllString(raw, -1)
	if !color {
		if len(sgr) > 0 {
			t.Errorf("colour is off, yet colour sequences were written: %q", sgr)
		}
		return
	}
	for _, want := range []string{"\x1b[" + okSGR + "m(Recommended)\x1b[0m", "\x1b[" + chipSGR + "m╭─"} {
		if !strings.Contains(raw, want) {
			t.Errorf("with colour, %q was never written", want)
		}
	}
}
