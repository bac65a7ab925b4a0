package channeltest

import "github.com/askuser/askuser/ask"

// The questions every channel's tests ask, so that a rendering or an
// answer checked on one platform is checked on the same question on the
// others.
var (
	// DBQuestion is single-select, its options described, the first
	// marked (Recommended) as models mark theirs.
	DBQuestion = ask.Question{Question: "Which database should we use?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL (Recommended)", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}}}
	// FeaturesQuestion is multi-select, its options bare labels.
	FeaturesQuestion = ask.Question{Question: "Which features?", Header: "Features", MultiSelect: true,
		Options: []ask.Option{{Label: "Docs"}, {Label: "Tests"}, {Label: "Lint"}}}
)
