//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

func plain(s *Survey) { s.Plain = true }

// TestSurveyPlain answers in plain mode: numbered lines, a typed answer,
// the terminal's own line mode, and not one escape sequence.
func TestSurveyPlain(t *testing.T) {
	db, feat := databaseQuestion(), featuresQuestion()
	noDefault := ask.Question{Question: "Which package manager?", Header: "Packages",
		Options: []ask.Option{{Label: "npm", Description: "Comes with Node"}, {Label: "Yarn", Description: "Workspaces"}}}
	withNone := ask.Question{Question: "Which extras?", Header: "Extras", MultiSelect: true,
		Options: []ask.Option{{Label: "Docker", Description: "A Dockerfile"}, {Label: "None", Description: "No extras"}}}
	for _, tc := range []struct {
		name   string
		q      ask.Question
		lines  []string // typed, one per prompt
		want   ask.Answer
		notice string // said on the way
	}{
		{"a number", db, []string{"3"}, person(db, []string{"SQLite"}, ""), ""},
		{"a label", db, []string{"postgresql"}, person(db, []string{"PostgreSQL"}, ""), ""},
		{"Other by number", db, []string{"4", "", "CockroachDB"}, person(db, nil, "CockroachDB"), "an answer is needed"},
		{"own words", db, []string{"  Cockroach DB  "}, person(db, nil, "Cockroach DB"), ""},
		{"an empty line takes the recommended option", db, []string{""}, person(db, []string{"PostgreSQL"}, ""), "Enter for 2, PostgreSQL (Recommended)"},
		{"an empty line without a recommended option is asked again", noDefault, []string{"", "2"}, person(noDefault, []string{"Yarn"}, ""),
			"no option is recommended, so Enter alone does not answer: type a number from 1 to 3"},
		{"an empty line in a multi-select is asked again", feat, []string{"", "none"}, person(feat, nil, ""), "type the numbers you choose, or none"},
		{"a number out of range", db, []string{"9", "2"}, person(db, []string{"PostgreSQL"}, ""), "no option 9"},
		{"one number in a single select", db, []string{"1 2", "2"}, person(db, []string{"PostgreSQL"}, ""), "choose one"},
		{"numbers", feat, []string{"4, 1"}, person(feat, []string{"TypeScript", "Tailwind CSS"}, ""), ""},
		{"numbers and Other", feat, []string{"2 5", "Biome"}, person(feat, []string{"ESLint + Prettier"}, "Biome"), ""},
		{"none", feat, []string{"none"}, person(feat, nil, ""), ""},
		{"a label none picks its option", withNone, []string{"none"}, person(withNone, []string{"None"}, ""), ""},
		{"? with nothing more to show is asked again", db, []string{"?", "3"}, person(db, []string{"SQLite"}, ""),
			`nothing more to show; to answer "?" itself, type 4, then ?`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := startSurvey(t, narrow, oneQuestion(tc.q), plain)
			for i, l := range tc.lines {
				r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
				if i == 0 {
					// Checked before typing: the terminal's own echo of
					// what is typed may come late, beside the next line.
					checkFits(t, r)
				}
				r.tm.Send(l + "\r")
			}
			res := r.finish()
			if res.err != nil {
				t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
			}
			checkAnswers(t, res.answers, tc.want)
			screen := r.tm.Screen.String()
			for _, s := range []string{"[" + tc.q.Header + "]", tc.q.Question, "  1. " + tc.q.Options[0].Label, "     " + tc.q.Options[0].Description, "Other", "✔ " + tc.q.Header + ":"} {
				if !strings.Contains(screen, s) {
					t.Errorf("the plain prompt lacks %q:\n%s", s, r.tm.Screen.Dump())
				}
			}
			// (Wrapped to the terminal's width.)
			if tc.notice != "" && !strings.Contains(strings.ReplaceAll(screen, "\n", " "), tc.notice) {
				t.Errorf("the plain prompt never said %q:\n%s", tc.notice, r.tm.Screen.Dump())
			}
			if raw := r.tm.Screen.Raw(); strings.Contains(raw, "\x1b") {
				t.Errorf("plain mode wrote an escape sequence: %q", raw)
			}
		})
	}
}

// promptShown reports whether the plain prompt waits for a line: the
// screen's last line is a prompt with nothing typed after it.
func promptShown(r *surveyRun) bool {
	lines := strings.Split(r.tm.Screen.String(), "\n")
	last := lines[len(lines)-1]
	return last == ">" || last == "Please specify:"
}

// TestSurveyPlainCtrlD: end of input (Ctrl+D) cancels; it never answers.
func TestSurveyPlainCtrlD(t *testing.T) {
	r := startSurvey(t, wide, oneQuestion(databaseQuestion()), plain)
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	r.tm.Send("\x04")
	res := r.finish()
	if !errors.Is(res.err, ask.ErrCancelled) || res.answers != nil {
		t.Fatalf("Ask = %v, %v; want no answers and ask.ErrCancelled", res.answers, res.err)
	}
}

// TestSurveyPlainDetail: "?" shows an approval's whole input.
func TestSurveyPlainDetail(t *testing.T) {
	req := approvalRequest()
	r := startSurvey(t, wide, req, plain)
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	r.line("? shows the full input")
	r.line("asked by sub-agent: researcher")
	r.tm.Send("?\r")
	r.tm.WaitText("> ?\ncontent: hello\npath: notes/today.md")
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	r.tm.Send("3\r")
	res := r.finish()
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkAnswers(t, res.answers, person(req.Questions[0], []string{"Deny"}, ""))
}

// TestSurveyNoRawMode: input that cannot be put in raw mode (here a
// pipe) falls back to the plain prompt, with no escape sequence.
func TestSurveyNoRawMode(t *testing.T) {
	tm := termtest.New(t, 80, 24)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	s := NewSurvey(pr, tm.TTY)
	off := false
	s.Color = &off
	done := make(chan surveyResult, 1)
	go func() {
		a, err := s.Ask(t.Context(), oneQuestion(databaseQuestion()))
		done <- surveyResult{a, err}
	}()
	tm.WaitText("Type a number (1-4)")
	if _, err := pw.WriteString("3\n"); err != nil {
		t.Fatal(err)
	}
	var res surveyResult
	select {
	case res = <-done:
	case <-time.After(waitLimit):
		t.Fatal("Ask did not return")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkAnswers(t, res.answers, person(databaseQuestion(), []string{"SQLite"}, ""))
	tm.Close()
	if raw := tm.Screen.Raw(); strings.Contains(raw, "\x1b") {
		t.Errorf("the fallback wrote escape sequences: %q", raw)
	}
}

// TestSurveyPlainBack: "<" at a question goes back to the one before,
// which is asked again; at the first question it says there is none.
func TestSurveyPlainBack(t *testing.T) {
	req := twoQuestions()
	r := startSurvey(t, wide, req, plain)
	for _, l := range []string{"<", "1", "<", "3", "1"} {
		r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
		r.tm.Send(l + "\r")
	}
	res := r.finish()
	if res.err != nil {
		t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
	}
	checkAnswers(t, res.answers, person(req.Questions[0], []string{"SQLite"}, ""), person(req.Questions[1], []string{"TypeScript"}, ""))
	// Everything written, what scrolled away included.
	screen := strings.TrimRight(strings.Join(append(r.tm.Screen.Scrollback(), r.tm.Screen.Lines()...), "\n"), "\n")
	for _, want := range []string{"there is no question before this one", "< goes back"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the plain prompt never said %q:\n%s", want, r.tm.Screen.Dump())
		}
	}
	// The answers that count, once the set is answered; none for the
	// pick that was changed.
	if !strings.HasSuffix(screen, "\n✔ Database: SQLite\n✔ Features: TypeScript") || strings.Contains(screen, "✔ Database: MongoDB") {
		t.Errorf("the plain prompt's ✔ lines:\n%s\nwant one for each answer given, at the end", screen)
	}
	if n := strings.Count(screen, "[Database]"); n != 2 {
		t.Errorf("the first question was shown %d times, want twice (asked again after <)", n)
	}
}

// TestSurveyPlainUnfinished (issue 24 §6, plain mode): a set left part
// answered — its deadline passed, or another frontend answered it —
// shows no ✔ line for the answers given so far, which did not count.
func TestSurveyPlainUnfinished(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	r := startSurveyCtx(t, ctx, wide, twoQuestions(), plain)
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	r.tm.Send("1\r") // MongoDB
	r.tm.WaitText("[Features]")
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	cancel(ask.ErrTimeout)
	res := r.finish()
	if !errors.Is(res.err, ask.ErrTimeout) {
		t.Fatalf("Ask = %v, %v; want ask.ErrTimeout", res.answers, res.err)
	}
	if n := r.tm.Screen.Count("✔"); n != 0 {
		t.Errorf("%d ✔ lines for a set nobody finished answering:\n%s", n, r.tm.Screen.Dump())
	}
}
