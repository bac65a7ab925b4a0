//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package frontend

import (
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/termtest"
)

// What race_survey_test.go shares with the terminal prompt's own tests,
// which are frontend/prompt's now (survey_test.go there): the prompt
// races here, in a Race, which that package cannot import.

// waitLimit bounds every wait in these tests, so a broken prompt fails the
// test instead of hanging it.
const waitLimit = termtest.WaitLimit

type surveyResult struct {
	answers []ask.Answer
	err     error
}

func plain(s *Survey) { s.Plain = true }

// The prompt's sample questions, shared with its other tests.
var (
	databaseQuestion = asktest.DatabaseQuestion
	featuresQuestion = asktest.FeaturesQuestion
)

func oneQuestion(q ask.Question) ask.Request {
	return ask.Request{ID: "r1", Questions: []ask.Question{q}}
}

func twoQuestions() ask.Request {
	return ask.Request{ID: "set", Questions: []ask.Question{databaseQuestion(), featuresQuestion()}}
}
