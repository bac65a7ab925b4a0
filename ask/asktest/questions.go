package asktest

import "github.com/askuser/askuser/ask"

// The sample questions of the terminal prompt's tests (seed 002's): one
// single-select with a recommended option in the middle, one
// multi-select of four.

// DatabaseQuestion is "Which database should we use?": MongoDB,
// PostgreSQL (Recommended), SQLite.
func DatabaseQuestion() ask.Question {
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

// FeaturesQuestion is "Which features should we enable?", a multi-select:
// TypeScript, ESLint + Prettier (Recommended), Testing (Vitest), Tailwind
// CSS.
func FeaturesQuestion() ask.Question {
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
