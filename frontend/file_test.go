package frontend

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
)

const testPath = "ci/answers.yaml"

var (
	qDB = ask.Question{Question: "Which database should we use?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL (Recommended)"}, {Label: "MongoDB"}, {Label: "SQLite"}}}
	qFeatures = ask.Question{Question: "Which features should we enable?", Header: "Features", MultiSelect: true,
		Options: []ask.Option{{Label: "TypeScript (Recommended)"}, {Label: "Tailwind CSS"}, {Label: "ESLint (Recommended)"}}}
	qPkg = ask.Question{Question: "Which package manager do you prefer?", Header: "Package Mgr",
		Options: []ask.Option{{Label: "npm"}, {Label: "pnpm (Recommended)"}, {Label: "yarn"}}}
	qRegion = ask.Question{Question: "Where should we deploy?", Header: "Region",
		Options: []ask.Option{{Label: "us-east"}, {Label: "eu-west"}}}
)

func parse(t *testing.T, yaml string) *File {
	t.Helper()
	f, err := ParseFile(testPath, []byte(yaml))
	if err != nil {
		t.Fatalf("ParseFile:\n%s\nerror: %v", yaml, err)
	}
	return f
}

func askFile(t *testing.T, f *File, qs ...ask.Question) ([]ask.Answer, error) {
	t.Helper()
	return f.Ask(context.Background(), ask.Request{ID: "t1", Questions: qs})
}

func TestFileAnswerForms(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		q        ask.Question
		selected []string
		custom   string
		skipped  bool
	}{
		{"label by header", "Database: MongoDB", qDB, []string{"MongoDB"}, "", false},
		{"label any case", "database: mongodb", qDB, []string{"MongoDB"}, "", false},
		{"recommended label without suffix", "Database: PostgreSQL", qDB, []string{"PostgreSQL"}, "", false},
		{"recommended label with suffix", "Database: postgresql (recommended)", qDB, []string{"PostgreSQL"}, "", false},
		{"keyed by question text", "Which database should we use?: SQLite", qDB, []string{"SQLite"}, "", false},
		{"keyed by question text any case", "WHICH DATABASE SHOULD WE USE?: SQLite", qDB, []string{"SQLite"}, "", false},
		{"quoted key", `"Package Mgr": yarn`, qPkg, []string{"yarn"}, "", false},
		{"list in option order", "Features: [Tailwind CSS, TypeScript]", qFeatures, []string{"TypeScript", "Tailwind CSS"}, "", false},
		{"block list", "Features:\n    - eslint\n    - typescript", qFeatures, []string{"TypeScript", "ESLint"}, "", false},
		{"list of one for single-select", "Database: [SQLite]", qDB, []string{"SQLite"}, "", false},
		{"other", "Package Mgr: {other: bun}", qPkg, []string{}, "bun", false},
		{"other block scalar", "Package Mgr:\n    other: |\n      bun, because\n      it is fast", qPkg, []string{}, "bun, because it is fast", false},
		{"select and other", `Features: {select: [TypeScript], other: "also Storybook"}`, qFeatures, []string{"TypeScript"}, "also Storybook", false},
		{"select scalar", "Features: {select: ESLint}", qFeatures, []string{"ESLint"}, "", false},
		{"empty select with other", "Features: {select: [], other: none of these}", qFeatures, []string{}, "none of these", false},
		{"skip", "Region: {skip: true}", qRegion, []string{}, "", true},
		{"label looking like yaml word", "Region: us-east", qRegion, []string{"us-east"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "answers:\n  "+tt.yaml+"\n")
			before := timeNow()
			got, err := askFile(t, f, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d answers, want 1", len(got))
			}
			a := got[0]
			if !slices.Equal(a.Selected, tt.selected) || a.Custom != tt.custom || a.Skipped != tt.skipped {
				t.Errorf("got selected %q custom %q skipped %v; want %q %q %v", a.Selected, a.Custom, a.Skipped, tt.selected, tt.custom, tt.skipped)
			}
			if a.Source != ask.SourceFile || a.Via != testPath || a.Reason != "" {
				t.Errorf("source %q via %q reason %q; want file, %q, no reason", a.Source, a.Via, a.Reason, testPath)
			}
			if a.Question != tt.q.Question || a.Header != tt.q.Header {
				t.Errorf("answer is for %q/%q, want %q/%q", a.Header, a.Question, tt.q.Header, tt.q.Question)
			}
			if a.AnsweredAt.Before(before) {
				t.Errorf("AnsweredAt %v is before the call at %v", a.AnsweredAt, before)
			}
		})
	}
}

func TestFileAnswersSeveralQuestionsInOrder(t *testing.T) {
	f := parse(t, "answers:\n  Region: eu-west\n  Database: SQLite\n  Features: [ESLint]\n")
	got, err := askFile(t, f, qDB, qFeatures, qRegion)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"SQLite"}, {"ESLint"}, {"eu-west"}}
	for i, a := range got {
		if !slices.Equal(a.Selected, want[i]) {
			t.Errorf("answer %d: %q, want %q", i, a.Selected, want[i])
		}
	}
}

// The file is loaded once and reused for every question set of a run.
func TestFileReusedAcrossQuestionSets(t *testing.T) {
	f := parse(t, "answers:\n  Database: MongoDB\n  Region: eu-west\n")
	for i := range 3 {
		for _, q := range []ask.Question{qDB, qRegion} {
			got, err := askFile(t, f, q)
			if err != nil {
				t.Fatalf("round %d: %v", i, err)
			}
			if want := map[string]string{"Database": "MongoDB", "Region": "eu-west"}[q.Header]; !slices.Equal(got[0].Selected, []string{want}) {
				t.Errorf("round %d %s: %q, want %q", i, q.Header, got[0].Selected, want)
			}
		}
	}
}

// loadErrorTests are broken files, each with every problem it must report.
var loadErrorTests = []struct {
	name string
	yaml string
	want []string // one line per problem, each starting path:line:col
}{
	{"malformed yaml", "answers:\n  Database: [PostgreSQL\n",
		[]string{"ci/answers.yaml:2:13: invalid YAML: sequence end token ']' not found"}},
	{"tab indentation", "answers:\n\tDatabase: SQLite\n",
		[]string{"ci/answers.yaml:2:1: invalid YAML: found character '\t' that cannot start any token"}},
	{"empty file", "", []string{"ci/answers.yaml:1:1: the file is empty; " + shapeHint}},
	{"only comments", "# nothing yet\n\n", []string{"ci/answers.yaml:1:1: the file is empty; " + shapeHint}},
	{"no answers key", "# header\nunanswered: auto\n", []string{"ci/answers.yaml:2:1: no answers: key; " + shapeHint}},
	{"top-level list", "- Database\n", []string{"ci/answers.yaml:1:1: the file must be a mapping with an answers: key, got a list; " + shapeHint}},
	{"two documents", "answers: {}\n---\nanswers: {}\n",
		[]string{"ci/answers.yaml:3:1: the file holds 2 YAML documents; put everything in one (remove the --- line)"}},
	{"misspelt answers", "answer:\n  Database: SQLite\n",
		[]string{`ci/answers.yaml:1:1: unknown top-level key "answer"; did you mean "answers"? (keys: unanswered, answers, approvals)`}},
	{"misspelt unanswered", "unanswerd: auto\nanswers: {}\n",
		[]string{`ci/answers.yaml:1:1: unknown top-level key "unanswerd"; did you mean "unanswered"? (keys: unanswered, answers, approvals)`}},
	{"question at top level", "answers: {}\nDatabase: SQLite\n",
		[]string{`ci/answers.yaml:2:1: unknown top-level key "Database"; if it is a question, put it under answers: (keys: unanswered, answers, approvals)`}},
	{"answers is a list", "answers: [SQLite]\n",
		[]string{"ci/answers.yaml:1:10: answers: must map each question (its header or full text) to its answer, got a list; " + shapeHint}},
	{"invalid unanswered", "unanswered: maybe\nanswers: {}\n",
		[]string{`ci/answers.yaml:1:13: unanswered: "maybe" is not a policy; use error, auto or suspend (error: fail and show what to add; auto: take the recommended option; suspend: leave the question for askuser resume)`}},
	{"unanswered not a string", "answers: {}\nunanswered: [auto]\n",
		[]string{"ci/answers.yaml:2:13: unanswered: must be error, auto or suspend, got a list"}},
	{"unknown keys in an answer", "answers:\n  Database: {selected: [SQLite], custom: x, foo: 1}\n", []string{
		`ci/answers.yaml:2:14: unknown key "selected" in the answer to "Database"; did you mean "select"? (keys: select, other, skip)`,
		`ci/answers.yaml:2:34: unknown key "custom" in the answer to "Database"; did you mean "other"? (keys: select, other, skip)`,
		`ci/answers.yaml:2:45: unknown key "foo" in the answer to "Database"; remove it (keys: select, other, skip)`}},
	{"number", "answers:\n  Database: 3\n",
		[]string{`ci/answers.yaml:2:13: 3 is a number, not a label; answers are labels, not option numbers (if "3" is a label, quote it)`}},
	{"boolean in a list", "answers:\n  Features: [TypeScript, true]\n",
		[]string{`ci/answers.yaml:2:26: true is a boolean, not a label; answers are labels, not option numbers (if "true" is a label, quote it)`}},
	{"nested list", "answers:\n  Features: [[TypeScript]]\n",
		[]string{"ci/answers.yaml:2:14: a nested list is not an answer; write one flat list of labels, e.g. [A, B]"}},
	{"mapping in a list", "answers:\n  Features: [{other: x}]\n",
		[]string{"ci/answers.yaml:2:14: expected a label, got a mapping; give " + answerForms}},
	{"alias", "answers:\n  Database: &db SQLite\n  Region: *db\n",
		[]string{"ci/answers.yaml:2:13: expected a label, got an anchor or alias (not supported here); give " + answerForms,
			"ci/answers.yaml:3:11: expected a label, got an anchor or alias (not supported here); give " + answerForms}},
	{"no value", "answers:\n  Database:\n  Region: us-east\n",
		[]string{`ci/answers.yaml:2:3: "Database" has no answer; give ` + answerForms}},
	{"empty list", "answers:\n  Features: []\n",
		[]string{`ci/answers.yaml:2:13: the list for "Features" is empty; to skip the question on purpose write {skip: true}`}},
	{"empty label", "answers:\n  Database: \"\"\n",
		[]string{"ci/answers.yaml:2:13: empty label; write the label of an option"}},
	{"empty mapping", "answers:\n  Database: {}\n",
		[]string{`ci/answers.yaml:2:13: the answer to "Database" gives nothing; give select:, other: or skip: true`}},
	{"empty other", "answers:\n  Database: {other: \"  \"}\n",
		[]string{"ci/answers.yaml:2:21: other: is empty; write the free text, or remove other:"}},
	{"other not text", "answers:\n  Database: {other: [a]}\n",
		[]string{"ci/answers.yaml:2:21: other: must be the free text, got a list"}},
	{"skip false", "answers:\n  Database: {skip: false}\n",
		[]string{"ci/answers.yaml:2:20: skip: takes only true (skip the question on purpose), got false; otherwise remove skip:"}},
	{"skip with select", "answers:\n  Database: {skip: true, select: SQLite}\n",
		[]string{"ci/answers.yaml:2:13: skip: true cannot be combined with select or other; keep one"}},
	{"duplicate top-level key", "answers: {}\nanswers: {}\n",
		[]string{`ci/answers.yaml:2:1: duplicate key "answers": "answers" on line 1 says the same; keep one`}},
	{"duplicate question key any case", "answers:\n  Database: SQLite\n  DATABASE: MongoDB\n",
		[]string{`ci/answers.yaml:3:3: duplicate key "DATABASE": "Database" on line 2 says the same; keep one`}},
	{"duplicate field", "answers:\n  Features: {select: a, select: b}\n",
		[]string{`ci/answers.yaml:2:25: duplicate key "select": "select" on line 2 says the same; keep one`}},
	{"number key", "answers:\n  2024: yes\n",
		[]string{`ci/answers.yaml:2:3: key 2024 is a number; a key is a header or question text (quote it if it is: "2024")`}},
	{"several problems in file order", "unanswered: never\nanswers:\n  Database: 1\n  Region: {skipped: true}\n", []string{
		`ci/answers.yaml:1:13: unanswered: "never" is not a policy; use error, auto or suspend (error: fail and show what to add; auto: take the recommended option; suspend: leave the question for askuser resume)`,
		`ci/answers.yaml:3:13: 1 is a number, not a label; answers are labels, not option numbers (if "1" is a label, quote it)`,
		`ci/answers.yaml:4:12: unknown key "skipped" in the answer to "Region"; did you mean "skip"? (keys: select, other, skip)`}},
}

func TestFileLoadErrors(t *testing.T) {
	for _, tt := range loadErrorTests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseFile(testPath, []byte(tt.yaml))
			if err == nil {
				t.Fatalf("ParseFile accepted:\n%s\nentries: %+v", tt.yaml, f.entries)
			}
			if !errors.Is(err, ErrBadAnswers) {
				t.Errorf("error %v does not wrap ErrBadAnswers", err)
			}
			var fe *FileError
			if !errors.As(err, &fe) || len(fe.Problems) != len(tt.want) {
				t.Fatalf("got %#v, want a *FileError with %d problems", err, len(tt.want))
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("error:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(good, []byte("unanswered: auto\nanswers:\n  Database: SQLite\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := LoadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path() != good || f.Unanswered() != ask.PolicyAuto {
		t.Errorf("Path %q Unanswered %q; want %q, auto", f.Path(), f.Unanswered(), good)
	}
	got, err := askFile(t, f, qDB)
	if err != nil || got[0].Via != good || !slices.Equal(got[0].Selected, []string{"SQLite"}) {
		t.Errorf("Ask: %+v, %v", got, err)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("answers:\n  Database: 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(bad); !errors.Is(err, ErrBadAnswers) || !strings.HasPrefix(err.Error(), bad+":2:13: ") {
		t.Errorf("LoadFile(bad) = %v; want ErrBadAnswers at %s:2:13", err, bad)
	}

	_, err = LoadFile(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrBadAnswers) {
		t.Errorf("LoadFile(missing) = %v; want fs.ErrNotExist, not ErrBadAnswers", err)
	}
}

func TestFileAskErrors(t *testing.T) {
	shared1 := ask.Question{Question: "Which database for the app?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	shared2 := ask.Question{Question: "Which database for the tests?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	tests := []struct {
		name string
		yaml string
		qs   []ask.Question
		want []string
	}{
		{"unknown label", "Database: Postgres", []ask.Question{qDB},
			[]string{`ci/answers.yaml:2:13: "Postgres" is not a label of question "Database"; choose from: PostgreSQL, MongoDB, SQLite; for free text write Database: {other: "Postgres"}`}},
		{"unknown label in a list, keyed by text", "Which features should we enable?: [TypeScript, Storybook]", []ask.Question{qFeatures},
			[]string{`ci/answers.yaml:2:50: "Storybook" is not a label of question "Features"; choose from: TypeScript, Tailwind CSS, ESLint; for free text write Which features should we enable?: {other: "Storybook"}`}},
		{"unknown label in select", "Package Mgr: {select: bun}", []ask.Question{qPkg},
			[]string{`ci/answers.yaml:2:25: "bun" is not a label of question "Package Mgr"; choose from: npm, pnpm, yarn; for free text write Package Mgr: {other: "bun"}`}},
		{"Other as a label", "Package Mgr: Other", []ask.Question{qPkg},
			[]string{`ci/answers.yaml:2:16: "Other" is not a label of question "Package Mgr"; choose from: npm, pnpm, yarn; for free text write Package Mgr: {other: "..."}`}},
		{"two labels for single-select", "Database: [PostgreSQL, SQLite]", []ask.Question{qDB},
			[]string{`ci/answers.yaml:2:13: question "Database" takes one answer, got 2; give one label or free text; choose from: PostgreSQL, MongoDB, SQLite`}},
		{"label and other for single-select", "Database: {select: SQLite, other: x}", []ask.Question{qDB},
			[]string{`ci/answers.yaml:2:13: question "Database" takes one answer, got 2; give one label or free text; choose from: PostgreSQL, MongoDB, SQLite`}},
		{"problems in two questions", "Database: Postgres\n  Region: mars", []ask.Question{qDB, qRegion}, []string{
			`ci/answers.yaml:2:13: "Postgres" is not a label of question "Database"; choose from: PostgreSQL, MongoDB, SQLite; for free text write Database: {other: "Postgres"}`,
			`ci/answers.yaml:3:11: "mars" is not a label of question "Region"; choose from: us-east, eu-west; for free text write Region: {other: "mars"}`}},
		{"header shared by two questions", "database: SQLite", []ask.Question{shared1, shared2},
			[]string{`ci/answers.yaml:2:3: key "database" is the header of 2 questions asked together ("Which database for the app?", "Which database for the tests?"); key each by its full question text instead, e.g. Which database for the app?: ...`}},
		{"two keys for one question", "Database: SQLite\n  which database should we use?: MongoDB", []ask.Question{qDB},
			[]string{`ci/answers.yaml:3:3: keys "Database" (line 2) and "which database should we use?" (line 3) both answer question "Database" (Which database should we use?); keep one`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, "answers:\n  "+tt.yaml+"\n")
			got, err := askFile(t, f, tt.qs...)
			if err == nil {
				t.Fatalf("Ask answered %+v", got)
			}
			if !errors.Is(err, ErrBadAnswers) || errors.Is(err, ask.ErrNoAnswer) {
				t.Errorf("error %v: want ErrBadAnswers and not ErrNoAnswer", err)
			}
			if want := strings.Join(tt.want, "\n"); err.Error() != want {
				t.Errorf("error:\n%s\nwant:\n%s", err, want)
			}
		})
	}
}

// Questions that share a header are answered when keyed by their text.
func TestFileSharedHeaderKeyedByText(t *testing.T) {
	app := ask.Question{Question: "Which database for the app?", Header: "Database", Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	tests := ask.Question{Question: "Which database for the tests?", Header: "Database", Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	f := parse(t, "answers:\n  Which database for the app?: PostgreSQL\n  which database for the tests?: SQLite\n")
	got, err := askFile(t, f, app, tests)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[0].Selected, []string{"PostgreSQL"}) || !slices.Equal(got[1].Selected, []string{"SQLite"}) {
		t.Errorf("got %q and %q; want PostgreSQL and SQLite", got[0].Selected, got[1].Selected)
	}
}

var snippetLine = regexp.MustCompile(`(?m)^  \S.*$`)

// snippet returns the YAML lines a missing-answer error tells the user to add.
func snippet(t *testing.T, msg string) string {
	t.Helper()
	_, after, ok := strings.Cut(msg, "; add under answers:\n")
	if !ok {
		t.Fatalf("message does not say what to add:\n%s", msg)
	}
	lines := snippetLine.FindAllString(after, -1)
	if len(lines) == 0 {
		t.Fatalf("message shows no YAML to add:\n%s", msg)
	}
	return strings.Join(lines, "\n")
}

func TestFileMissingPolicyError(t *testing.T) {
	f := parse(t, "answers:\n  Database: SQLite\n")
	if f.Unanswered() != ask.PolicyError {
		t.Fatalf("default policy %q, want error", f.Unanswered())
	}
	_, err := askFile(t, f, qDB, qFeatures)
	if !errors.Is(err, ask.ErrNoAnswer) || errors.Is(err, ask.ErrDeferred) || errors.Is(err, ErrBadAnswers) {
		t.Fatalf("error %v: want ErrNoAnswer only", err)
	}
	want := `answers file ci/answers.yaml has no answer for question "Features" (Which features should we enable?); add under answers:
  Features: [TypeScript, ESLint]  # a list of any of: TypeScript, Tailwind CSS, ESLint — or {other: "..."}
or set "unanswered: auto" in the file to answer such questions with the recommended option`
	if err.Error() != want {
		t.Errorf("error:\n%s\nwant:\n%s", err, want)
	}
}

// The YAML a missing-answer error shows must be valid, must answer the
// question it names, even for headers and labels YAML would misread.
func TestFileMissingSnippetIsValidYAML(t *testing.T) {
	qs := []ask.Question{
		qDB,
		{Question: "Which Node version?", Header: "Node: ver", MultiSelect: true,
			Options: []ask.Option{{Label: "a, b"}, {Label: "[x] (Recommended)"}, {Label: "true (Recommended)"}}},
		{Question: "What # to use?", Header: "#1 pick", Options: []ask.Option{{Label: "- a"}, {Label: "b"}}},
		{Question: "? what", Header: "2024", Options: []ask.Option{{Label: "yes"}, {Label: "no"}}},
		{Question: "Which one? (first)", Header: "Shared", Options: []ask.Option{{Label: "x: y (Recommended)"}, {Label: "z"}}},
		{Question: "Which one? (second)", Header: "Shared", Options: []ask.Option{{Label: "'q'"}, {Label: `"dq"`}}},
		{Question: "Which tool?", Header: "? tool", Options: []ask.Option{{Label: "@at"}, {Label: "{b}"}}},
	}
	f := parse(t, "answers: {}\n")
	_, err := askFile(t, f, qs...)
	if !errors.Is(err, ask.ErrNoAnswer) {
		t.Fatalf("error %v: want ErrNoAnswer", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "answers file ci/answers.yaml has no answer for 7 questions: ") {
		t.Errorf("message does not count the questions:\n%s", msg)
	}
	for _, q := range qs {
		if !strings.Contains(msg, `"`+q.Header+`" (`+q.Question+`)`) {
			t.Errorf("message does not name %q (%s):\n%s", q.Header, q.Question, msg)
		}
	}
	fixed := parse(t, "answers:\n"+snippet(t, msg)+"\n")
	got, err := askFile(t, fixed, qs...)
	if err != nil {
		t.Fatalf("the suggested YAML does not answer the questions:\n%s\nerror: %v", snippet(t, msg), err)
	}
	for i, q := range qs {
		want := ask.Recommended(q, "").Selected
		if !slices.Equal(got[i].Selected, want) || got[i].Source != ask.SourceFile {
			t.Errorf("%s: suggested YAML gave %q from %s, want %q from the file", q.Header, got[i].Selected, got[i].Source, want)
		}
	}
}

func TestFileMissingNamesNearMiss(t *testing.T) {
	f := parse(t, "answers:\n  Region: us-east\n  Databse: SQLite\n")
	_, err := askFile(t, f, qDB, qRegion)
	if !errors.Is(err, ask.ErrNoAnswer) {
		t.Fatalf("error %v: want ErrNoAnswer", err)
	}
	if hint := `(line 3 has the key "Databse", which matches no question asked here; did you mean "Database"?)`; !strings.Contains(err.Error(), hint) {
		t.Errorf("error does not point at the typo:\n%s", err)
	}
}

func TestFileMissingPolicyAuto(t *testing.T) {
	for _, tt := range []struct {
		name string
		yaml string
		flag ask.Policy
	}{
		{"from the file", "unanswered: Auto\nanswers:\n  Database: SQLite\n", ""},
		{"from the flag", "answers:\n  Database: SQLite\n", ask.PolicyAuto},
		{"flag overrides the file", "unanswered: suspend\nanswers:\n  Database: SQLite\n", ask.PolicyAuto},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.yaml)
			if tt.flag != "" {
				f.SetUnanswered(tt.flag)
			}
			if f.Unanswered() != ask.PolicyAuto {
				t.Fatalf("Unanswered() = %q, want auto", f.Unanswered())
			}
			got, err := askFile(t, f, qPkg, qDB, qFeatures)
			if err != nil {
				t.Fatal(err)
			}
			reason := "the answers file ci/answers.yaml has no entry for this question"
			want := []struct {
				sel    []string
				src    ask.Source
				reason string
			}{
				{[]string{"pnpm"}, ask.SourcePolicy, reason},
				{[]string{"SQLite"}, ask.SourceFile, ""},
				{[]string{"TypeScript", "ESLint"}, ask.SourcePolicy, reason},
			}
			for i, w := range want {
				a := got[i]
				if !slices.Equal(a.Selected, w.sel) || a.Source != w.src || a.Reason != w.reason || a.Custom != "" {
					t.Errorf("answer %d: %q from %s (%q), custom %q; want %q from %s (%q)", i, a.Selected, a.Source, a.Reason, a.Custom, w.sel, w.src, w.reason)
				}
			}
		})
	}
}

func TestFileMissingPolicySuspend(t *testing.T) {
	f := parse(t, "unanswered: suspend\nanswers:\n  Database: SQLite\n")
	_, errSuspend := askFile(t, f, qDB, qRegion)
	if !errors.Is(errSuspend, ask.ErrDeferred) || errors.Is(errSuspend, ask.ErrNoAnswer) {
		t.Fatalf("error %v: want ErrDeferred, not ErrNoAnswer", errSuspend)
	}
	f.SetUnanswered(ask.PolicyError)
	_, errError := askFile(t, f, qDB, qRegion)
	if !errors.Is(errError, ask.ErrNoAnswer) {
		t.Fatalf("with the flag set to error: %v; want ErrNoAnswer", errError)
	}
	if errSuspend.Error() != errError.Error() || !strings.Contains(errSuspend.Error(), `"Region" (Where should we deploy?)`) {
		t.Errorf("suspend message:\n%s\nerror message:\n%s\nwant the same message naming Region", errSuspend, errError)
	}
	f.SetUnanswered("")
	if f.Unanswered() != ask.PolicySuspend {
		t.Errorf("SetUnanswered(\"\") left %q, want the file's suspend", f.Unanswered())
	}
}

func TestFileContextDone(t *testing.T) {
	f := parse(t, "answers:\n  Database: SQLite\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := f.Ask(ctx, ask.Request{Questions: []ask.Question{qDB}}); !errors.Is(err, ask.ErrCancelled) || got != nil {
		t.Errorf("cancelled: %+v, %v; want ErrCancelled", got, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), -1)
	defer cancel()
	if _, err := f.Ask(ctx, ask.Request{Questions: []ask.Question{qDB}}); !errors.Is(err, ask.ErrTimeout) {
		t.Errorf("deadline passed: %v; want ErrTimeout", err)
	}
}

// The shipped example loads cleanly, answers the seed's authentication
// example, and every form it shows in a comment is valid when uncommented.
func TestExampleAnswersFile(t *testing.T) {
	const path = "../testdata/answers.yaml"
	f, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	auth := ask.Question{Question: "Which authentication method should we use?", Header: "Auth Method", Options: []ask.Option{
		{Label: "OAuth 2.0 (Recommended)", Description: "Industry standard, supports social login"},
		{Label: "JWT", Description: "Stateless tokens, good for APIs"},
		{Label: "Session-based", Description: "Traditional cookie sessions"}}}
	providers := ask.Question{Question: "Which OAuth providers should we support?", Header: "Providers", MultiSelect: true, Options: []ask.Option{
		{Label: "Google"}, {Label: "GitHub"}, {Label: "Microsoft"}, {Label: "Apple"}}}
	got, err := askFile(t, f, auth, providers)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[0].Selected, []string{"JWT"}) || !slices.Equal(got[1].Selected, []string{"Google", "GitHub"}) {
		t.Errorf("got %q and %q; want JWT and Google, GitHub", got[0].Selected, got[1].Selected)
	}
	if got[0].Source != ask.SourceFile || got[0].Via != path || f.Unanswered() != ask.PolicyError {
		t.Errorf("source %q via %q policy %q", got[0].Source, got[0].Via, f.Unanswered())
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	examples := regexp.MustCompile(`(?m)^  #   (\S.*: .*)$`).FindAllStringSubmatch(string(data), -1)
	if len(examples) < 5 {
		t.Fatalf("found %d commented examples, want at least 5 (text, other, select+other, skip, quoting)", len(examples))
	}
	for _, m := range examples {
		if _, err := ParseFile(path, []byte("answers:\n  "+m[1]+"\n")); err != nil {
			t.Errorf("commented example %q does not load: %v", m[1], err)
		}
	}
}
