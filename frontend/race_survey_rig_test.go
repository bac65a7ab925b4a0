//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package frontend

import (
	"github.com/askuser/askuser/ask"
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

func databaseQuestion() ask.Question {
	return ask.Question{
		Question: "Which database should we use?",
		Header:   "Database",
		Options: []ask.Option{
			{Label: "MongoDB", Description: "Document DB, flexible schema"},
			{Label: "PostgreSQL (Recommended)", Description: "Robust relational DB"},
			{Label: "SQLite", Description: "Embedded DB, zero configuration"},
		},
	}
}

func featuresQuestion() ask.Question {
	return ask.Question{
		Question:    "Which features should we enable?",
		Header:      "Features",
		MultiSelect: true,
		Options: []ask.Option{
			{Label: "TypeScript", Description: "Type safety and better IDE support"},
			{Label: "ESLint + Prettier (Recommended)", Description: "Code linting and formatting"},
			{Label: "Testing (Vitest)", Description: "Unit and component testing"},
			{Label: "Tailwind CSS", Description: "Utility-first CSS framework"},
		},
	}
}

func oneQuestion(q ask.Question) ask.Request {
	return ask.Request{ID: "r1", Questions: []ask.Question{q}}
}

func twoQuestions() ask.Request {
	return ask.Request{ID: "set", Questions: []ask.Question{databaseQuestion(), featuresQuestion()}}
}
