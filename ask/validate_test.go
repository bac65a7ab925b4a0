package ask

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// question returns a valid question numbered n, for building inputs.
func question(n int) Question {
	return Question{
		Question: fmt.Sprintf("Question number %d?", n),
		Header:   fmt.Sprintf("Header %d", n),
		Options:  []Option{{Label: "Alpha", Description: "a"}, {Label: "Beta", Description: "b"}},
	}
}

func options(labels ...string) []Option {
	opts := make([]Option, len(labels))
	for i, l := range labels {
		opts[i] = Option{Label: l, Description: "about " + l}
	}
	return opts
}

// validateProblems runs Validate and returns the problems ("" for none).
func validateProblems(t *testing.T, in Input) []Problem {
	t.Helper()
	err := in.Validate()
	if err == nil {
		return nil
	}
	return problemsOf(t, err)
}

func TestValidateQuestionCount(t *testing.T) {
	tests := []struct {
		n    int
		want string // the whole problem, "" for none
	}{
		{0, "questions: no questions given; ask 1 to 4"},
		{1, ""},
		{4, ""},
		{5, "questions: 5 questions given, at most 4 allowed; drop some or ask them in a second call"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			var in Input
			for i := range tt.n {
				in.Questions = append(in.Questions, question(i))
			}
			probs := validateProblems(t, in)
			switch {
			case tt.want == "" && len(probs) > 0:
				t.Errorf("valid input rejected: %v", probs)
			case tt.want != "" && (len(probs) != 1 || probs[0].String() != tt.want):
				t.Errorf("problems = %v, want [%s]", probs, tt.want)
			}
		})
	}
}

func TestValidateOptionCount(t *testing.T) {
	tests := []struct {
		labels []string
		want   string
	}{
		{nil, `questions[1].options: no options given; give 2 to 4, each {"label": "...", "description": "..."}`},
		{[]string{"A"}, `questions[1].options: 1 option given, at least 2 required; add another choice ("Other" is added automatically)`},
		{[]string{"A", "B"}, ""},
		{[]string{"A", "B", "C", "D"}, ""},
		{[]string{"A", "B", "C", "D", "E"}, "questions[1].options: 5 options given, at most 4 allowed; merge or drop some"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(len(tt.labels)), func(t *testing.T) {
			q := question(1)
			q.Options = options(tt.labels...)
			probs := validateProblems(t, Input{Questions: []Question{question(0), q}})
			switch {
			case tt.want == "" && len(probs) > 0:
				t.Errorf("valid input rejected: %v", probs)
			case tt.want != "" && (len(probs) != 1 || probs[0].String() != tt.want):
				t.Errorf("problems = %v, want [%s]", probs, tt.want)
			}
		})
	}
}

func TestValidateHeaderLength(t *testing.T) {
	cjk := "データベースの種類を選んで" // 13 runes
	cjk12 := string([]rune(cjk)[:12])
	if utf8.RuneCountInString(cjk12) != 12 || len(cjk12) <= 12 {
		t.Fatalf("test header %q is not 12 multi-byte runes", cjk12)
	}
	tests := []struct {
		header string
		want   string // substring of the header problem, "" for none
	}{
		{"Twelve chars", ""},
		{"Authenticati", ""},
		{cjk12, ""},
		{"Größenangabe", ""},
		{"Authenticatio", `"Authenticatio" is 13 characters, at most 12 allowed; shorten it to a chip-sized label such as "Authenticati"`},
		{"Auth Method Choice", `"Auth Method Choice" is 18 characters, at most 12 allowed; shorten it to a chip-sized label such as "Auth Method"`},
		{cjk, "is 13 characters, at most 12 allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			q := question(0)
			q.Header = tt.header
			probs := validateProblems(t, Input{Questions: []Question{q}})
			switch {
			case tt.want == "" && len(probs) > 0:
				t.Errorf("valid header rejected: %v", probs)
			case tt.want != "" && (len(probs) != 1 || probs[0].Path != "questions[0].header" || !strings.Contains(probs[0].Message, tt.want)):
				t.Errorf("problems = %v, want one at questions[0].header containing %q", probs, tt.want)
			}
		})
	}
}

func TestValidateEmptyFields(t *testing.T) {
	q := Question{Options: options("A", "")}
	got := validateProblems(t, Input{Questions: []Question{q}})
	want := []string{
		"questions[0].question: is required: give the complete question, ending with a question mark",
		`questions[0].header: is required: give a short label of at most 12 characters, such as "Database"`,
		"questions[0].options[1].label: is empty; give a short label of 1 to 5 words",
	}
	if !slices.Equal(problemStrings(got), want) {
		t.Errorf("problems =\n%s\nwant\n%s", strings.Join(problemStrings(got), "\n"), strings.Join(want, "\n"))
	}
	// Whitespace and a bare "(Recommended)" are empty too, once decoded.
	_, err := Parse([]byte(oneQuestion(`{"question":" ","header":"\t","options":["A"," (Recommended) "],"multiSelect":false}`)))
	if got := problemsOf(t, err); !slices.Equal(problemStrings(got), want) {
		t.Errorf("decoded blanks: problems =\n%s\nwant\n%s", strings.Join(problemStrings(got), "\n"), strings.Join(want, "\n"))
	}
}

func problemStrings(probs []Problem) []string {
	s := make([]string, len(probs))
	for i, p := range probs {
		s[i] = p.String()
	}
	return s
}

func TestValidateOtherLabel(t *testing.T) {
	for _, label := range []string{"Other", "other", "OTHER", "Other (Recommended)", " other  (recommended)"} {
		t.Run(label, func(t *testing.T) {
			q := question(0)
			q.Options = options("A", label)
			probs := validateProblems(t, Input{Questions: []Question{q}})
			want := fmt.Sprintf("questions[0].options[1].label: %q is added automatically for free text; remove this option", label)
			if len(probs) != 1 || probs[0].String() != want {
				t.Errorf("problems = %v, want [%s]", probs, want)
			}
		})
	}
	// A label that merely contains the word is fine.
	q := question(0)
	q.Options = options("Other tools", "Another")
	if probs := validateProblems(t, Input{Questions: []Question{q}}); len(probs) > 0 {
		t.Errorf("labels containing \"other\" rejected: %v", probs)
	}
}

func TestValidateDuplicateLabels(t *testing.T) {
	tests := []struct {
		labels []string
		want   string
	}{
		{[]string{"SQLite", "sqlite"}, `questions[0].options[1].label: "sqlite" repeats options[0]; labels must be unique within a question`},
		{[]string{"PostgreSQL (Recommended)", "MySQL", "PostgreSQL"}, `questions[0].options[2].label: "PostgreSQL" repeats options[0]; labels must be unique within a question`},
		{[]string{"A", "B (Recommended)", "b"}, `questions[0].options[2].label: "b" repeats options[1]; labels must be unique within a question`},
		{[]string{"Two  words", "two words"}, `questions[0].options[1].label: "two words" repeats options[0]; labels must be unique within a question`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.labels, ","), func(t *testing.T) {
			q := question(0)
			q.Options = options(tt.labels...)
			probs := validateProblems(t, Input{Questions: []Question{q}})
			if len(probs) != 1 || probs[0].String() != tt.want {
				t.Errorf("problems = %v, want [%s]", probs, tt.want)
			}
		})
	}
	// The same label in two questions is fine.
	if probs := validateProblems(t, Input{Questions: []Question{question(0), question(1)}}); len(probs) > 0 {
		t.Errorf("same labels in different questions rejected: %v", probs)
	}
}

func TestValidateDuplicateQuestions(t *testing.T) {
	a, b, c := question(0), question(1), question(2)
	a.Question, c.Question = "Which database?", "  which DATABASE? "
	probs := validateProblems(t, Input{Questions: []Question{a, b, c}})
	want := "questions[2].question: repeats questions[0].question; each question text must be unique"
	if len(probs) != 1 || probs[0].String() != want {
		t.Errorf("problems = %v, want [%s]", probs, want)
	}
	// The same header on two questions is allowed: they are told apart by text.
	b.Header = a.Header
	if probs := validateProblems(t, Input{Questions: []Question{a, b}}); len(probs) > 0 {
		t.Errorf("same header rejected: %v", probs)
	}
}

// TestValidateReportsEverything: every violation at once, in path order.
func TestValidateReportsEverything(t *testing.T) {
	q0, q1, q2 := question(0), question(1), question(2)
	q0.Header = "Much too long a header"
	q1.Options = options("A", "B", "C", "D", "E")
	q2.Question = q0.Question
	q2.Options = options("Keep", "Other")
	probs := validateProblems(t, Input{Questions: []Question{q0, q1, q2}})
	want := []string{"questions[0].header", "questions[1].options", "questions[2].question", "questions[2].options[1].label"}
	if got := pathsOf(probs); !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
}

// TestParseReportsEverythingInPathOrder mixes decode and validation
// problems across questions; they come back together, in path order.
func TestParseReportsEverythingInPathOrder(t *testing.T) {
	_, err := Parse(readFixture(t, "invalid/many-problems.json"))
	probs := problemsOf(t, err)
	want := []string{
		`questions[0].header: "Database Engine" is 15 characters, at most 12 allowed; shorten it to a chip-sized label such as "Database"`,
		`questions[0].multiselect: is not a field here; did you mean "multiSelect"? (fields: question, header, options, multiSelect)`,
		`questions[1].options[1].label: "Other" is added automatically for free text; remove this option`,
		`questions[1].multiSelect: must be true or false, got a number`,
	}
	if got := problemStrings(probs); !slices.Equal(got, want) {
		t.Errorf("problems =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseNoDoubleReport: a decode error at a path suppresses the
// validation problems at and under it, and nothing else.
func TestParseNoDoubleReport(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"header of the wrong type is not also missing", oneQuestion(`{"question":"Q?","header":5,"options":["A","B"]}`),
			[]string{"questions[0].header"}},
		{"label of the wrong type is not also empty (a null one is)", oneQuestion(`{"question":"Q?","header":"H","options":[{"label":null},{"label":2}]}`),
			[]string{"questions[0].options[0].label", "questions[0].options[1].label"}},
		{"options not an array are not also missing", oneQuestion(`{"question":"Q?","header":"H","options":"A"}`),
			[]string{"questions[0].options"}},
		{"a question not an object has no field problems", `{"questions":[1,` + validQ + `]}`,
			[]string{"questions[0]"}},
		{"questions not an array are not also none", `{"questions":{}}`,
			[]string{"questions"}},
		{"invalid JSON is one problem", `{"questions":[{"header":"Far too long a header",}]}`,
			[]string{"input"}},
		{"other questions are still validated", `{"questions":[{"question":"Q?","header":1,"options":["A"]},{"question":"R?","header":"Far too long a header","options":["A","B"]}]}`,
			[]string{"questions[0].header", "questions[0].options", "questions[1].header"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.input))
			if got := pathsOf(problemsOf(t, err)); !slices.Equal(got, tt.want) {
				t.Errorf("paths = %q, want %q\n%v", got, tt.want, err)
			}
		})
	}
}

func TestSortProblems(t *testing.T) {
	want := []string{
		"input",
		"questions",
		"questions[0]",
		"questions[0].question",
		"questions[0].header",
		"questions[0].options",
		"questions[0].options[0]",
		"questions[0].options[0].label",
		"questions[0].options[0].description",
		`questions[0].options[0]."x.y"`,
		"questions[0].options[1].label",
		"questions[0].options[10].label",
		"questions[0].multiSelect",
		"questions[0].default",
		"questions[2].header",
		"questions[10].header",
		`"questions[0]"`,
		"metadata",
	}
	probs := make([]Problem, len(want))
	for i, p := range want {
		probs[len(want)-1-i] = Problem{Path: p}
	}
	sortProblems(probs)
	if got := pathsOf(probs); !slices.Equal(got, want) {
		t.Errorf("sorted paths =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestValidationErrorWording(t *testing.T) {
	err := &ValidationError{Problems: []Problem{
		{Path: "questions[0].header", Message: "is required"},
		{Path: "questions[1].options", Message: "5 options given, at most 4 allowed; merge or drop some"},
	}}
	wantResult := "Invalid AskUserQuestion input; nothing was asked. Fix these and call AskUserQuestion again:\n" +
		"- questions[0].header: is required\n" +
		"- questions[1].options: 5 options given, at most 4 allowed; merge or drop some"
	if got := err.ToolResult(); got != wantResult {
		t.Errorf("ToolResult() =\n%s\nwant\n%s", got, wantResult)
	}
	wantErr := "invalid AskUserQuestion input: questions[0].header: is required; questions[1].options: 5 options given, at most 4 allowed; merge or drop some"
	if got := err.Error(); got != wantErr {
		t.Errorf("Error() = %q, want %q", got, wantErr)
	}
}

func TestValidateAcceptsFixtures(t *testing.T) {
	for _, name := range []string{"database.json", "features.json", "auth.json", "package-manager.json", "four-by-four.json"} {
		in, err := Decode(readFixture(t, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := in.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestValidateBlankAfterSanitising(t *testing.T) {
	in := Input{Questions: []Question{{Question: "\x1b[2J", Header: "\x1b]0;x\x07", Options: []Option{{Label: "A"}, {Label: "B"}}}}}
	err := in.Validate()
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 2 {
		t.Fatalf("want 2 problems (question and header blank once escapes are removed), got %v", err)
	}
}

func TestDecodeHyphenHint(t *testing.T) {
	_, err := Decode([]byte(`{"questions":[{"question":"Q?","header":"H","options":["a","b"],"multi-select":true}]}`))
	if err == nil || !strings.Contains(err.Error(), `did you mean "multiSelect"`) {
		t.Fatalf("want a did-you-mean hint for multi-select, got %v", err)
	}
}

// TestValidateTextLengths pins the caps on a question's text and its
// options' labels and descriptions: at the cap a text passes, one
// character over it is refused with the limit, the length, and at most
// ExcerptChars characters of the text quoted. A 10 MB question is refused
// the same way, in a message of a few hundred bytes.
func TestValidateTextLengths(t *testing.T) {
	for _, tt := range []struct {
		field string
		limit int
		set   func(q *Question, s string)
		path  string
	}{
		{"question", MaxQuestionChars, func(q *Question, s string) { q.Question = s }, "questions[0].question"},
		{"label", MaxLabelChars, func(q *Question, s string) { q.Options[1].Label = s }, "questions[0].options[1].label"},
		{"description", MaxDescriptionChars, func(q *Question, s string) { q.Options[0].Description = s }, "questions[0].options[0].description"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			// "é" is two bytes: the cap counts characters, not bytes.
			for _, n := range []int{tt.limit, tt.limit + 1, 10 << 20} {
				q := question(0)
				q.Options = options("Alpha", "Beta")
				tt.set(&q, strings.Repeat("é", n))
				probs := validateProblems(t, Input{Questions: []Question{q}})
				if n <= tt.limit {
					if len(probs) > 0 {
						t.Errorf("%d characters rejected: %v", n, probs)
					}
					continue
				}
				want := fmt.Sprintf("%q… (%d characters), at most %d allowed", strings.Repeat("é", ExcerptChars), n, tt.limit)
				if len(probs) != 1 || probs[0].Path != tt.path || !strings.HasPrefix(probs[0].Message, want) {
					t.Fatalf("%d characters: problems = %.300v, want one at %s beginning %q", n, probs, tt.path, want)
				}
				if len(probs[0].Message) > 400 {
					t.Errorf("the message is %d bytes: it must quote at most %d characters", len(probs[0].Message), ExcerptChars)
				}
			}
		})
	}
}
