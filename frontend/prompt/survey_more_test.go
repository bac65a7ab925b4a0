//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"context"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

// approvalRequest is an approval as internal/approval asks it: a summary
// in the question, the whole input in Detail, asked by a sub-agent.
func approvalRequest() ask.Request {
	return ask.Request{ID: "t.approval", Kind: ask.KindApproval, Agent: "researcher",
		Detail: "{\n  \"content\": \"hello\",\n  \"path\": \"notes/today.md\"\n}",
		Questions: []ask.Question{{Header: "Approve", Question: "Allow write_file to run?\ncontent: hello\npath: notes/today.md",
			Options: []ask.Option{{Label: "Allow", Description: "Run this call"}, {Label: "Allow for the rest of this session"}, {Label: "Deny"}}}}}
}

// TestSurveyApproval shows who asks, and Tab shows the whole input and
// goes back.
func TestSurveyApproval(t *testing.T) {
	everySize(t, func(t *testing.T, sz size, color bool) {
		req := approvalRequest()
		r := startSurvey(t, sz, req, withColor(color))
		r.ready("tab full input")
		r.line("asked by sub-agent: researcher")
		r.play([]step{
			{keys(sendTab), []string{"content: hello", "path: notes/today.md", "tab back", "!1. Allow"}},
			{keys(sendTab), []string{"1. Allow", "tab full input"}},
			{keys("3"), nil},
		})
		res := r.finish()
		if res.err != nil {
			t.Fatal(res.err)
		}
		checkAnswers(t, res.answers, person(req.Questions[0], []string{"Deny"}, ""))
	})
}

func TestSurveyTwoQuestions(t *testing.T) {
	q1, q2 := databaseQuestion(), featuresQuestion()
	r := startSurvey(t, wide, ask.Request{ID: "r9", Questions: []ask.Question{q1, q2}}, withColor(true))
	r.ready("esc cancel")
	if got := r.line("Question 1 of 2"); got != "╭─ Database ─╮  Question 1 of 2" {
		t.Errorf("heading = %q", got)
	}
	r.play([]step{{keys(sendEnter), []string{"Question 2 of 2", "!✔ Database"}}})
	if got := r.line("Question 2 of 2"); got != "╭─ Features ─╮  Question 2 of 2" {
		t.Errorf("heading = %q", got)
	}
	r.play([]step{{keys(" ", sendDown, sendDown, sendDown, " ", sendEnter), []string{"Review your answers"}}, {keys(sendEnter), nil}})
	res := r.finish()
	if res.err != nil {
		t.Fatalf("Ask: %v", res.err)
	}
	checkAnswers(t, res.answers,
		person(q1, []string{"PostgreSQL"}, ""),
		person(q2, []string{"TypeScript", "Tailwind CSS"}, ""))
	if got := r.tm.Screen.String(); got != "✔ Database: PostgreSQL\n✔ Features: TypeScript, Tailwind CSS" {
		t.Errorf("after the answers the screen shows:\n%s\nwant the two confirmation lines only", r.tm.Screen.Dump())
	}
	checkColor(t, r, true)
}

func TestSurveyEscapesInQuestions(t *testing.T) {
	q := ask.Question{
		Question: "Pick a \x1b[5mcolour\x1b[0m?",
		Header:   "\x1b[31mColour",
		Options: []ask.Option{
			{Label: "\x1b[31mRed\x1b[0m", Description: "\x1b[2Jwarm"},
			{Label: "Blue\x1b]0;pwned\x07", Description: "cool \x1b]8;;http://x.example/\x1b\\link\x1b]8;;\x1b\\"},
		},
	}
	r := startSurvey(t, wide, ask.Request{ID: "r10", Agent: "evil\x1b[2J", Detail: "x\x1b]0;title\x07", Questions: []ask.Question{q}}, withColor(true))
	r.ready("esc cancel")
	if got := r.line("Red"); got != "❯ ● 1. Red" {
		t.Errorf("label line = %q", got)
	}
	r.line("       warm")
	r.line("  ○ 2. Blue")
	r.line("       cool link")
	r.line("asked by sub-agent: evil")
	r.play([]step{{keys(sendTab), []string{"tab back"}}, {keys(sendTab), []string{"esc cancel"}}})
	r.tm.Send(sendEnter)
	res := r.finish()
	if res.err != nil {
		t.Fatalf("Ask: %v", res.err)
	}
	// The answer names the option chosen by the label the person saw.
	checkAnswers(t, res.answers, person(q, []string{"Red"}, ""))
	if got := r.line("✔"); got != "✔ Colour: Red" {
		t.Errorf("summary line = %q", got)
	}
	raw := r.tm.Screen.Raw()
	for _, bad := range []string{"\x1b[31m", "\x1b[5m", "\x1b[2J", "\x1b]", "\x07", "pwned", "x.example", "title"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q from the question reached the terminal", bad)
		}
	}
	if title := r.tm.Screen.Title(); title != "" {
		t.Errorf("window title set to %q", title)
	}
}

// TestSurveyTypeahead: keys typed before the prompt was shown (a stray
// Enter while the agent worked) do not answer it.
func TestSurveyTypeahead(t *testing.T) {
	for _, mode := range []string{"interactive", "plain"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			tm := termtest.New(t, 80, 24)
			tm.Send("3\r", "1\r")
			// The terminal echoes what it has queued for reading: once
			// both lines are echoed, both are there when the prompt starts.
			tm.Wait("the keys typed ahead, echoed", func(s *termtest.Screen) bool {
				lines := s.Lines()
				return lines[0] == "3" && lines[1] == "1"
			})
			var setup func(*Survey)
			if mode == "plain" {
				setup = plain
			}
			q := databaseQuestion()
			r := startSurveyOn(t, tm, context.Background(), oneQuestion(q), setup)
			if mode == "plain" {
				r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
				r.tm.Send("2\r")
			} else {
				r.ready("esc cancel")
				r.tm.Send("2")
			}
			res := r.finish()
			if res.err != nil {
				t.Fatal(res.err)
			}
			checkAnswers(t, res.answers, person(q, []string{"PostgreSQL"}, ""))
		})
	}
}

// TestSurveyKeysAhead: keys typed quickly after the one that answers a
// question go to the next question of the set, none lost.
func TestSurveyKeysAhead(t *testing.T) {
	q1, q2 := databaseQuestion(), featuresQuestion()
	r := startSurvey(t, wide, ask.Request{ID: "ahead", Questions: []ask.Question{q1, q2}}, nil)
	r.ready("esc cancel")
	r.tm.Send("3" + "1" + "2" + sendEnter + sendEnter) // one read, the review's Enter too
	res := r.finish()
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkAnswers(t, res.answers, person(q1, []string{"SQLite"}, ""), person(q2, []string{"TypeScript", "ESLint + Prettier"}, ""))
}
