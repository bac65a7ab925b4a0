//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
)

// More keys as a terminal sends them.
const (
	sendLeft     = "\x1b[D"
	sendRight    = "\x1b[C"
	sendShiftTab = "\x1b[Z"
	sendHome     = "\x1b[H"
	sendEnd      = "\x1b[F"
	sendDelete   = "\x1b[3~"
)

func twoQuestions() ask.Request {
	return ask.Request{ID: "set", Questions: []ask.Question{databaseQuestion(), featuresQuestion()}}
}

// TestSurveySetMoves goes back to an earlier question of a set, changes
// its answer, and submits from the review: with ←/→ and with Tab and
// Shift+Tab. Answers already given are kept while moving, the tab strip
// shows which are answered, and nothing is printed for good before the
// set is submitted.
func TestSurveySetMoves(t *testing.T) {
	for _, tc := range []struct{ name, back, next string }{
		{"arrows", sendLeft, sendRight},
		{"tab", sendShiftTab, sendTab},
	} {
		t.Run(tc.name, func(t *testing.T) {
			everySize(t, func(t *testing.T, sz size, color bool) {
				req := twoQuestions()
				r := startSurvey(t, sz, req, withColor(color))
				r.ready("esc cancel", "☐ Database  ☐ Features  Submit", "Question 1 of 2")
				r.play([]step{
					{keys("1"), []string{"Question 2 of 2", "☑ Database  ☐ Features  Submit", "!✔"}},
					{keys(tc.back), []string{"Question 1 of 2", "● 1. MongoDB"}},
					// Moving forward without answering keeps the answer.
					{keys(tc.next), []string{"Question 2 of 2"}},
					{keys(tc.back), []string{"Question 1 of 2", "❯ ● 1. MongoDB"}},
					{keys("3"), []string{"Question 2 of 2", "☑ Database  ☐ Features  Submit"}},
					{keys(" ", sendEnter), []string{"Review your answers", "1. Database: SQLite", "2. Features: TypeScript", "☑ Database  ☑ Features  Submit"}},
					// The question's number goes back to it; so does the key back.
					{keys("2"), []string{"Question 2 of 2", "❯ ☑ 1. TypeScript"}},
					{keys(tc.next), []string{"Review your answers"}},
					{keys(tc.back), []string{"Question 2 of 2"}},
					{keys(tc.back), []string{"Question 1 of 2", "❯ ● 3. SQLite"}},
					// Every question is answered: Enter goes to the review.
					{keys(sendEnter), []string{"Review your answers"}},
				})
				if strings.Contains(r.tm.Screen.String(), "✔") {
					t.Errorf("a confirmation line was printed before the set was submitted:\n%s", r.tm.Screen.Dump())
				}
				r.tm.Send(sendEnter)
				res := r.finish()
				if res.err != nil {
					t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
				}
				checkAnswers(t, res.answers, person(req.Questions[0], []string{"SQLite"}, ""), person(req.Questions[1], []string{"TypeScript"}, ""))
				if got := r.tm.Screen.String(); got != "✔ Database: SQLite\n✔ Features: TypeScript" {
					t.Errorf("after the answers the screen shows:\n%s\nwant the two confirmation lines only", r.tm.Screen.Dump())
				}
				checkColor(t, r, color)
			})
		})
	}
}

// TestSurveyReviewEsc: once the review has been shown, a question
// opened from it (by its number, or by ←/Esc there) is a detour: Esc
// goes back to the review instead of cancelling the set and every
// answer in it, and so does answering it again. Moving on to another
// question keeps the detour, since the answers at stake are the same.
// Ctrl+C still cancels at once.
func TestSurveyReviewEsc(t *testing.T) {
	atReview := step{keys("2", "1", sendEnter), []string{"Review your answers", "esc back"}}
	backAtReview := []string{"Review your answers", "1. Database: PostgreSQL", "2. Features: TypeScript"}
	for _, tc := range []struct {
		name  string
		steps []step
		// features is the second question's answer once the set is
		// submitted from the review.
		features string
	}{
		{"esc at the review, then esc", []step{
			{keys(sendEsc), []string{"Question 2 of 2", "❯ ☑ 1. TypeScript", "esc review", "!esc cancel"}},
			{keys(sendEsc), backAtReview},
		}, "TypeScript"},
		{"number, then esc", []step{
			{keys("1"), []string{"Question 1 of 2", "❯ ● 2. PostgreSQL", "esc review"}},
			{keys(sendEsc), backAtReview},
		}, "TypeScript"},
		{"number, a filter, esc twice", []step{
			{keys("1", "x"), []string{`No option matches "x"`, "esc clear filter"}},
			{keys(sendEsc), []string{"Question 1 of 2", "!No option matches", "esc review"}},
			{keys(sendEsc), backAtReview},
		}, "TypeScript"},
		{"number, change, enter", []step{
			{keys("2"), []string{"Question 2 of 2", "esc review"}},
			{keys("4", sendEnter), []string{"Review your answers", "2. Features: TypeScript, Tailwind CSS"}},
		}, "TypeScript, Tailwind CSS"},
		{"number, moved on, esc", []step{
			{keys("1"), []string{"Question 1 of 2"}},
			{keys(sendTab), []string{"Question 2 of 2", "esc review"}},
			{keys(sendEsc), backAtReview},
		}, "TypeScript"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := twoQuestions()
			r := startSurvey(t, wide, req, nil)
			r.ready("esc cancel")
			r.play(append([]step{atReview}, tc.steps...))
			r.tm.Send(sendEnter)
			res := r.finish()
			if res.err != nil {
				t.Fatalf("Ask: %v\nscreen:\n%s", res.err, r.tm.Screen.Dump())
			}
			checkAnswers(t, res.answers, person(req.Questions[0], []string{"PostgreSQL"}, ""),
				person(req.Questions[1], strings.Split(tc.features, ", "), ""))
		})
	}
}

// TestSurveySetEscCancels: Esc cancels the set from a question reached
// before the review, as from any list, and Ctrl+C cancels it anywhere,
// a question opened from the review included.
func TestSurveySetEscCancels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		key   string
		says  string
	}{
		{"esc before the review", []step{{keys("2"), []string{"Question 2 of 2", "esc cancel"}}}, sendEsc, "(esc)"},
		{"ctrl+c at the review", []step{{keys("2", "1", sendEnter), []string{"Review your answers"}}}, sendCtrlC, "(ctrl+c)"},
		{"ctrl+c at a question opened from the review", []step{
			{keys("2", "1", sendEnter), []string{"Review your answers"}},
			{keys("1"), []string{"Question 1 of 2", "esc review"}},
		}, sendCtrlC, "(ctrl+c)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := startSurvey(t, wide, twoQuestions(), nil)
			r.ready("esc cancel")
			r.play(tc.steps)
			r.tm.Send(tc.key)
			res := r.finish()
			if !errors.Is(res.err, ask.ErrCancelled) || !strings.Contains(res.err.Error(), tc.says) || res.answers != nil {
				t.Fatalf("Ask = %v, %v; want no answers and ask.ErrCancelled saying %s", res.answers, res.err, tc.says)
			}
			if screen := r.tm.Screen.String(); screen != "" {
				t.Errorf("the prompt left text on the screen:\n%s", r.tm.Screen.Dump())
			}
		})
	}
}

// TestSurveyReviewUnanswered: a question skipped with → is marked on the
// strip and at the review, and Enter there goes to it instead of
// submitting a set with a question unanswered.
func TestSurveyReviewUnanswered(t *testing.T) {
	req := twoQuestions()
	r := startSurvey(t, narrow, req, nil)
	r.ready("esc cancel")
	r.play([]step{
		{keys(sendRight), []string{"Question 2 of 2", "☐ Database  ☐ Features  Submit"}},
		{keys("4", sendEnter), []string{"Review your answers", "1. Database: not answered yet", "2. Features: Tailwind CSS"}},
		{keys(sendEnter), []string{"Question 1 of 2", "answer this question before submitting"}},
		{keys(sendEnter), []string{"Review your answers", "1. Database: PostgreSQL"}},
	})
	r.tm.Send(sendEnter)
	res := r.finish()
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkAnswers(t, res.answers, person(req.Questions[0], []string{"PostgreSQL"}, ""), person(req.Questions[1], []string{"Tailwind CSS"}, ""))
}

// TestSurveyOneQuestionNoReview: a set of one question has no strip and
// no review, as in Claude Code: the pick (or a multi-select's Enter)
// answers it, and ←/→ do nothing.
func TestSurveyOneQuestionNoReview(t *testing.T) {
	for _, q := range []ask.Question{databaseQuestion(), featuresQuestion()} {
		t.Run(q.Header, func(t *testing.T) {
			t.Parallel()
			r := startSurvey(t, wide, oneQuestion(q), nil)
			r.ready("esc cancel")
			if strings.Contains(r.tm.Screen.String(), "Submit") || strings.Contains(r.tm.Screen.String(), "←→") {
				t.Errorf("a one-question set shows a tab strip or its keys:\n%s", r.tm.Screen.Dump())
			}
			r.tm.Send(sendLeft, sendRight, "1")
			if q.MultiSelect {
				r.tm.WaitText("❯ ☑ 1.")
				r.tm.Send(sendEnter)
			}
			res := r.finish()
			if res.err != nil {
				t.Fatal(res.err)
			}
			checkAnswers(t, res.answers, person(q, []string{ask.BareLabel(q.Options[0].Label)}, ""))
		})
	}
}

// TestSurveySetOtherKeptAcrossQuestions: Tab leaves the "Other" field for
// the next question and the text stays; ←/→ in the field move the cursor
// instead of switching questions.
func TestSurveySetOtherKeptAcrossQuestions(t *testing.T) {
	req := twoQuestions()
	r := startSurvey(t, wide, req, nil)
	r.ready("esc cancel")
	r.play([]step{
		{keys("4", "bn"), []string{"Please specify: bn"}},
		{keys(sendLeft, "u"), []string{"Please specify: bu█n", "Question 1 of 2"}},
		{keys(sendTab), []string{"Question 2 of 2", "☐ Database  ☐ Features  Submit"}},
		{keys(sendShiftTab), []string{"Question 1 of 2", "4. Other", "!Please specify", "esc cancel"}},
		{keys("4"), []string{"Please specify: bun"}},
		{keys(sendEnter), []string{"Question 2 of 2", "☑ Database  ☐ Features  Submit"}},
		{keys("2", sendEnter), []string{"Review your answers", "1. Database: bun (typed)"}},
	})
	r.tm.Send(sendEnter)
	res := r.finish()
	if res.err != nil {
		t.Fatal(res.err)
	}
	checkAnswers(t, res.answers, person(req.Questions[0], nil, "bun"), person(req.Questions[1], []string{"ESLint + Prettier"}, ""))
}

// TestSurveySetWholeQuestion: in a set of several, where Tab moves
// between questions, "?" shows a question cut to fit the screen; Esc
// goes back to the list, and Tab on to the next question from there too.
func TestSurveySetWholeQuestion(t *testing.T) {
	req := ask.Request{ID: "long", Questions: []ask.Question{longQuestion(), databaseQuestion()}}
	r := startSurvey(t, size{40, 10}, req, nil)
	r.ready("? whole question")
	r.play([]step{
		{keys("?"), []string{"dependency and some setup to the", "esc back", "!1. TypeScript"}},
		{keys(sendLeft, sendRight), []string{"dependency and some setup to the", "esc back"}},
		{keys(sendEsc), []string{"1. TypeScript", "? whole question"}},
		{keys("?"), []string{"esc back"}},
		{keys(sendTab), []string{"Question 2 of 2", "1. MongoDB"}},
		{keys(sendShiftTab), []string{"Question 1 of 2", "1. TypeScript", "? whole question"}},
	})
	r.tm.Send(sendCtrlC)
	if res := r.finish(); !errors.Is(res.err, ask.ErrCancelled) {
		t.Fatalf("Ask error = %v, want ask.ErrCancelled", res.err)
	}
}

// TestSurveySetOfMany: an elicitation form can ask up to 64 fields as one
// set. The strip shows the tabs around the question shown, and the review
// scrolls through answers that do not fit the screen.
func TestSurveySetOfMany(t *testing.T) {
	req := ask.Request{ID: "form", Kind: ask.KindElicitation}
	for i := 1; i <= 12; i++ {
		req.Questions = append(req.Questions, ask.Question{Question: fmt.Sprintf("Field %d?", i), Header: fmt.Sprintf("Field %d", i),
			Options: []ask.Option{{Label: "Yes", Description: "y"}, {Label: "No", Description: "n"}}})
	}
	r := startSurvey(t, short, req, nil)
	r.ready("Question 1 of 12", "☐1 ☐2 ☐3", "…")
	r.play([]step{
		{keys("1", "1", "1", "1", "1", "1"), []string{"Question 7 of 12", "… ☑2 ☑3 ☑4 ☑5 ☑6 ☐7 ☐8"}},
		{keys("1", "1", "1", "1", "1", "2"), []string{"Review your answers", "1. Field 1: Yes", "↓ ", "1-9 change"}},
	})
	for i := 0; i < 12 && !strings.Contains(r.tm.Screen.String(), "12. Field 12: No"); i++ {
		r.tm.Send(sendDown)
		r.tm.WaitText("↑ ")
	}
	r.line("12. Field 12: No")
	checkFits(t, r)
	r.tm.Send(sendEnter)
	res := r.finish()
	if res.err != nil {
		t.Fatal(res.err)
	}
	if len(res.answers) != 12 || res.answers[11].Selected[0] != "No" || res.answers[0].Selected[0] != "Yes" {
		t.Errorf("answers = %+v", res.answers)
	}
}
