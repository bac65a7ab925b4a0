package ask

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// fixtureDir holds the question fixtures shared with the end-to-end tests.
const fixtureDir = "../testdata/questions"

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// problemsOf returns the problems of a *ValidationError, failing the test
// for any other error.
func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error = %v (%T), want *ValidationError", err, err)
	}
	return ve.Problems
}

func pathsOf(probs []Problem) []string {
	paths := make([]string, len(probs))
	for i, p := range probs {
		paths[i] = p.Path
	}
	return paths
}

// oneQuestion wraps one question object's JSON in a valid input.
func oneQuestion(q string) string { return `{"questions":[` + q + `]}` }

const validQ = `{"question":"Which database?","header":"Database","options":[{"label":"PostgreSQL","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}`

func TestDecodeQuestionsAsJSONString(t *testing.T) {
	array := []byte(oneQuestion(validQ))
	enc, err := json.Marshal(`[` + validQ + `]`)
	if err != nil {
		t.Fatal(err)
	}
	quoted := []byte(`{"questions": ` + string(enc) + `}`)
	want, err := Parse(array)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(quoted)
	if err != nil {
		t.Fatalf("questions as a JSON string: %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("questions as a JSON string decoded to %+v, want %+v", got, want)
	}
}

func TestDecodeOptionAsPlainString(t *testing.T) {
	in, err := Parse([]byte(oneQuestion(`{"question":"Which runner?","header":"Tests","options":["  Vitest (Recommended) ",{"label":"Jest","description":"classic"}],"multiSelect":true}`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []Option{{Label: "Vitest (Recommended)", Description: ""}, {Label: "Jest", Description: "classic"}}
	if got := in.Questions[0].Options; !reflect.DeepEqual(got, want) {
		t.Errorf("options = %+v, want %+v", got, want)
	}
	if !in.Questions[0].MultiSelect {
		t.Error("multiSelect true was lost")
	}
}

func TestDecodeMultiSelectMissingOrNull(t *testing.T) {
	for name, field := range map[string]string{"missing": ``, "null": `,"multiSelect":null`, "false": `,"multiSelect":false`} {
		t.Run(name, func(t *testing.T) {
			in, err := Parse([]byte(oneQuestion(`{"question":"Q?","header":"H","options":["A","B"]` + field + `}`)))
			if err != nil {
				t.Fatal(err)
			}
			if in.Questions[0].MultiSelect {
				t.Error("multiSelect = true, want false")
			}
		})
	}
}

func TestDecodeToleratedFixture(t *testing.T) {
	in, err := Parse(readFixture(t, "tolerated.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := Input{Questions: []Question{
		{
			Question: "Which test runner should we use?", Header: "Tests",
			Options: []Option{{Label: "Vitest (Recommended)"}, {Label: "Jest"}, {Label: "Mocha", Description: "Flexible, bring your own assertions"}},
		},
		{
			Question: "Which linters should run in CI?", Header: "Linters",
			Options: []Option{{Label: "ESLint"}, {Label: "Stylelint"}},
		},
	}}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("tolerated.json decoded to\n%+v\nwant\n%+v", in, want)
	}
}

func TestDecodeTrimsStrings(t *testing.T) {
	in, err := Parse([]byte(oneQuestion(`{"question":"  Which?\n","header":"\tDB ","options":[{"label":" A ","description":" a "},"B"],"multiSelect":false}`)))
	if err != nil {
		t.Fatal(err)
	}
	q := in.Questions[0]
	if q.Question != "Which?" || q.Header != "DB" || q.Options[0] != (Option{Label: "A", Description: "a"}) {
		t.Errorf("strings not trimmed: %+v", q)
	}
}

// offSchemaTests are inputs off the schema, each with the problems it must
// give; a wanted Message is a substring of the real message.
var offSchemaTests = []struct {
	name  string
	input string
	want  []Problem
}{
	{"unknown top-level field", `{"questions":[` + validQ + `],"metadata":{}}`,
		[]Problem{{"metadata", "is not a field of AskUserQuestion input; remove it (fields: questions)"}}},
	{"questons", `{"questons":[` + validQ + `]}`,
		[]Problem{{"questions", "is required"}, {"questons", "is not a field of AskUserQuestion input; remove it (fields: questions)"}}},
	// Only the exact name a host adds, and only beside "questions", is
	// the host's: anywhere else it is the model's mistake.
	{"a host's field in a question", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"wait_for_previous":true}`),
		[]Problem{{"questions[0].wait_for_previous", "is not a field here; remove it"}}},
	{"a host's field misspelt", `{"questions":[` + validQ + `],"waitForPrevious":true}`,
		[]Problem{{"waitForPrevious", "is not a field of AskUserQuestion input; remove it"}}},
	{"misspelt questions", `{"Questions":[` + validQ + `]}`,
		[]Problem{{"questions", "is required"}, {"Questions", `did you mean "questions"?`}}},
	{"multiselect lower case", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"multiselect":true}`),
		[]Problem{{"questions[0].multiselect", `is not a field here; did you mean "multiSelect"? (fields: question, header, options, multiSelect)`}}},
	{"multi_select", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"multi_select":true}`),
		[]Problem{{"questions[0].multi_select", `did you mean "multiSelect"?`}}},
	{"unknown question field", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"default":"A"}`),
		[]Problem{{"questions[0].default", "is not a field here; remove it (fields: question, header, options, multiSelect)"}}},
	{"unknown option field", oneQuestion(`{"question":"Q?","header":"H","options":[{"label":"A","description":"a","recommended":true},"B"]}`),
		[]Problem{{"questions[0].options[0].recommended", "is not a field here; remove it (fields: label, description)"}}},
	{"option field with wrong case", oneQuestion(`{"question":"Q?","header":"H","options":[{"Label":"A"},"B"]}`),
		[]Problem{{"questions[0].options[0].label", "is empty"}, {"questions[0].options[0].Label", `did you mean "label"?`}}},
	{"question not a string", oneQuestion(`{"question":7,"header":"H","options":["A","B"]}`),
		[]Problem{{"questions[0].question", "must be a string, got a number"}}},
	{"header not a string", oneQuestion(`{"question":"Q?","header":false,"options":["A","B"]}`),
		[]Problem{{"questions[0].header", "must be a string, got a boolean"}}},
	{"options an object", oneQuestion(`{"question":"Q?","header":"H","options":{"label":"A"}}`),
		[]Problem{{"questions[0].options", "must be an array of options, got an object"}}},
	{"options a string", oneQuestion(`{"question":"Q?","header":"H","options":"A, B"}`),
		[]Problem{{"questions[0].options", "must be an array of options, got a string"}}},
	{"multiSelect a string", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"multiSelect":"true"}`),
		[]Problem{{"questions[0].multiSelect", "must be true or false, got a string"}}},
	{"multiSelect a number", oneQuestion(`{"question":"Q?","header":"H","options":["A","B"],"multiSelect":1}`),
		[]Problem{{"questions[0].multiSelect", "must be true or false, got a number"}}},
	{"label not a string", oneQuestion(`{"question":"Q?","header":"H","options":[{"label":1,"description":"a"},"B"]}`),
		[]Problem{{"questions[0].options[0].label", "must be a string, got a number"}}},
	{"description not a string", oneQuestion(`{"question":"Q?","header":"H","options":["A",{"label":"B","description":["b"]}]}`),
		[]Problem{{"questions[0].options[1].description", "must be a string, got an array"}}},
	{"option a number", oneQuestion(`{"question":"Q?","header":"H","options":["A","B",3]}`),
		[]Problem{{"questions[0].options[2]", `must be an object {"label": "...", "description": "..."} or a string label, got a number`}}},
	{"question a string", `{"questions":["Which database?"]}`,
		[]Problem{{"questions[0]", `must be an object with "question", "header", "options" and "multiSelect", got a string`}}},
	{"questions an object", `{"questions":` + validQ + `}`,
		[]Problem{{"questions", "must be an array of question objects, got an object"}}},
	{"questions a number", `{"questions":4}`,
		[]Problem{{"questions", "must be an array of question objects, got a number"}}},
	{"questions null", `{"questions":null}`,
		[]Problem{{"questions", "must be an array of question objects, got null"}}},
	{"questions a string of prose", `{"questions":"which database?"}`,
		[]Problem{{"questions", "got a string that is not a JSON array: invalid character"}}},
	{"questions a string of broken JSON", `{"questions":"[{\"question\":"}`,
		[]Problem{{"questions", "got a string that is not a JSON array: unexpected end of JSON input"}}},
	{"questions missing", `{}`,
		[]Problem{{"questions", "is required: give 1 to 4 questions"}}},
	{"input an array", `[` + validQ + `]`,
		[]Problem{{"input", `must be an object {"questions": [...]}, got an array`}}},
	{"input a string", `"Which database?"`,
		[]Problem{{"input", "got a string"}}},
	{"input null", `null`,
		[]Problem{{"input", "got null"}}},
	{"input a number", ` 42 `,
		[]Problem{{"input", "got a number"}}},
	{"invalid JSON", `{"questions": [}`,
		[]Problem{{"input", "is not valid JSON: invalid character '}' looking for beginning of value (line 1, byte 16)"}}},
	{"invalid JSON on line 3", "{\n\"questions\": [\n}",
		[]Problem{{"input", "(line 3, byte 18)"}}},
	{"truncated JSON", `{"questions": [` + validQ,
		[]Problem{{"input", "is not valid JSON: unexpected end of JSON input"}}},
	{"not JSON at all", `questions: [a, b]`,
		[]Problem{{"input", "is not valid JSON: invalid character 'q' looking for beginning of value (line 1, byte 1)"}}},
	{"empty", ``,
		[]Problem{{"input", "got nothing"}}},
	{"only space", " \n\t",
		[]Problem{{"input", "got nothing"}}},
}

// TestDecodeOffSchema: everything off the schema is an error at its path,
// with a message that says what was wrong.
func TestDecodeOffSchema(t *testing.T) {
	for _, tt := range offSchemaTests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.input))
			got := problemsOf(t, err)
			if !slices.Equal(pathsOf(got), pathsOf(tt.want)) {
				t.Fatalf("problem paths = %q, want %q\n%v", pathsOf(got), pathsOf(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i].Message, w.Message) {
					t.Errorf("%s: message %q does not contain %q", w.Path, got[i].Message, w.Message)
				}
			}
		})
	}
}

// TestHostFieldsIgnored: a field a host adds to every tool (Gemini CLI
// 0.61's wait_for_previous, whatever its value) is no error, and
// ParseCall names it, with the host, for a verbose log. A misspelt field
// beside it is still refused.
func TestHostFieldsIgnored(t *testing.T) {
	for _, v := range []string{"true", "false", "null", `"yes"`} {
		input := `{"wait_for_previous":` + v + `,"questions":[` + validQ + `]}`
		in, ignored, err := ParseCall([]byte(input))
		if err != nil || len(in.Questions) != 1 {
			t.Errorf("wait_for_previous %s: %v", v, err)
		}
		if want := []string{"wait_for_previous (Gemini CLI adds it to every tool)"}; !slices.Equal(ignored, want) {
			t.Errorf("wait_for_previous %s: ignored %q, want %q", v, ignored, want)
		}
		if _, err := Parse([]byte(input)); err != nil {
			t.Errorf("Parse refuses wait_for_previous %s: %v", v, err)
		}
	}
	if _, ignored, err := ParseCall([]byte(`{"questions":[` + validQ + `]}`)); err != nil || ignored != nil {
		t.Errorf("plain input: ignored %q, %v", ignored, err)
	}
	_, ignored, err := ParseCall([]byte(`{"wait_for_previous":true,"questons":[]}`))
	if got := pathsOf(problemsOf(t, err)); !slices.Equal(got, []string{"questions", "questons"}) {
		t.Errorf("misspelt beside a host's field: problems at %q, want questions and questons", got)
	}
	if len(ignored) != 1 {
		t.Errorf("ignored %q beside a refused input; want wait_for_previous still noted", ignored)
	}
}

// TestDecodeUnknownKeyPathIsQuoted: a key that is not a plain name is quoted
// in the path, so it neither passes for a real path (hiding that path's
// problems) nor carries escape sequences to a terminal.
func TestDecodeUnknownKeyPathIsQuoted(t *testing.T) {
	input := `{"questions":[{"question":"Q?","header":"A header far too long","options":["A","B"],"options[0]":1}],"questions[0]":1,"\u001b[2Jx":2}`
	_, err := Parse([]byte(input))
	got := pathsOf(problemsOf(t, err))
	want := []string{"questions[0].header", `questions[0]."options[0]"`, `"\x1b[2Jx"`, `"questions[0]"`}
	if !slices.Equal(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if strings.ContainsRune(err.Error(), 0x1b) {
		t.Errorf("error carries a raw ESC: %q", err.Error())
	}
}

func TestDecodeDoesNotValidate(t *testing.T) {
	five := `{"questions":[` + strings.Repeat(`{"question":"Q?","header":"A very long header","options":["Other"]},`, 4) + `{"question":"Q?"}]}`
	in, err := Decode([]byte(five))
	if err != nil {
		t.Fatalf("Decode reported limits: %v", err)
	}
	if len(in.Questions) != 5 {
		t.Fatalf("decoded %d questions, want 5", len(in.Questions))
	}
	if _, err := Parse([]byte(five)); err == nil {
		t.Error("Parse accepted what Decode decoded without validating")
	}
	if _, err := Decode([]byte(`{"questions":[{"question":1}]}`)); err == nil {
		t.Error("Decode accepted a number for question")
	}
}

// TestParseFixtures parses every fixture: the valid ones succeed, the
// invalid ones fail at exactly the paths listed. Every fixture file must be
// listed, so a new fixture cannot go untested.
func TestParseFixtures(t *testing.T) {
	valid := map[string]struct {
		headers []string
		options []int
		multi   []bool
	}{
		"database.json":        {[]string{"Database"}, []int{3}, []bool{false}},
		"features.json":        {[]string{"Features"}, []int{4}, []bool{true}},
		"auth.json":            {[]string{"Auth Method", "Providers"}, []int{3, 4}, []bool{false, true}},
		"package-manager.json": {[]string{"Package Mgr"}, []int{3}, []bool{false}},
		"four-by-four.json":    {[]string{"Database", "Features", "Deploy", "CI Platforms"}, []int{4, 4, 4, 4}, []bool{false, true, false, true}},
		"tolerated.json":       {[]string{"Tests", "Linters"}, []int{3, 2}, []bool{false, false}},
	}
	invalid := map[string][]string{
		"too-many-options.json":   {"questions[0].options"},
		"too-many-questions.json": {"questions"},
		"no-questions.json":       {"questions"},
		"long-header.json":        {"questions[0].header"},
		"other-label.json":        {"questions[0].options[2].label"},
		"duplicate-labels.json":   {"questions[0].options[2].label"},
		"duplicate-question.json": {"questions[1].question"},
		"unknown-field.json":      {"questions[0].multi_select"},
		"wrong-types.json": {"questions[0].question", "questions[0].header", "questions[0].options[0].label",
			"questions[0].options[1].description", "questions[0].options[2]", "questions[0].multiSelect"},
		"not-json.json":      {"input"},
		"empty.json":         {"input"},
		"many-problems.json": {"questions[0].header", "questions[0].multiselect", "questions[1].options[1].label", "questions[1].multiSelect"},
	}
	seen := map[string]bool{}
	for name, want := range valid {
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			in, err := Parse(readFixture(t, name))
			if err != nil {
				t.Fatal(err)
			}
			var headers []string
			var options []int
			var multi []bool
			for _, q := range in.Questions {
				headers, options, multi = append(headers, q.Header), append(options, len(q.Options)), append(multi, q.MultiSelect)
			}
			if !slices.Equal(headers, want.headers) || !slices.Equal(options, want.options) || !slices.Equal(multi, want.multi) {
				t.Errorf("got headers %q, options %v, multiSelect %v; want %q, %v, %v", headers, options, multi, want.headers, want.options, want.multi)
			}
		})
	}
	for name, want := range invalid {
		seen["invalid/"+name] = true
		t.Run("invalid/"+name, func(t *testing.T) {
			_, err := Parse(readFixture(t, filepath.Join("invalid", name)))
			if got := pathsOf(problemsOf(t, err)); !slices.Equal(got, want) {
				t.Errorf("problem paths = %q, want %q\n%v", got, want, err)
			}
		})
	}
	for _, pattern := range []string{"*.json", "invalid/*.json"} {
		files, err := filepath.Glob(filepath.Join(fixtureDir, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			rel, _ := filepath.Rel(fixtureDir, f)
			if !seen[filepath.ToSlash(rel)] {
				t.Errorf("fixture %s has no expectation in TestParseFixtures", rel)
			}
		}
	}
}
