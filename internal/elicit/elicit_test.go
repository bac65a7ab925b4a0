package elicit_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/elicit"
)

func everything(t *testing.T) elicit.Form {
	t.Helper()
	schema, err := os.ReadFile("testdata/everything.json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := elicit.Parse("Please provide inputs for the following fields:", schema)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return f
}

// askWith puts the form's questions to a scripted frontend.
func askWith(t *testing.T, req ask.Request, script func(*asktest.Stub)) []ask.Answer {
	t.Helper()
	fe := asktest.New(t)
	script(fe.Expect(req.ID))
	answers, err := fe.Ask(context.Background(), req)
	if err != nil {
		t.Fatalf("ask: %v", err)
	}
	return answers
}

func TestEverythingFormKeepsOrderAndFitsTheFrontends(t *testing.T) {
	f := everything(t)
	f.Asker = `MCP server "everything"`
	req := f.Questions("toolu_1.elicit.1", "")
	wantNames := []string{"name", "check", "firstLine", "email", "homepage", "birthdate", "integer", "number",
		"untitledSingleSelectEnum", "untitledMultipleSelectEnum", "titledSingleSelectEnum", "titledMultipleSelectEnum", "legacyTitledEnum"}
	var names []string
	for _, fd := range f.Fields {
		names = append(names, fd.Name)
	}
	if !reflect.DeepEqual(names, wantNames) {
		t.Fatalf("fields %v; want the schema's order %v", names, wantNames)
	}
	if req.Kind != ask.KindElicitation || req.ID != "toolu_1.elicit.1" || len(req.Questions) != 13 {
		t.Fatalf("request kind %q id %q with %d questions; want elicitation, the id given, 13", req.Kind, req.ID, len(req.Questions))
	}
	if !strings.HasPrefix(req.Questions[0].Question, `MCP server "everything" asks: Please provide inputs`) {
		t.Errorf("first question %q does not say who asks and why", req.Questions[0].Question)
	}
	var hs []string
	for _, q := range req.Questions {
		hs = append(hs, q.Header)
	}
	if got := strings.Join(hs, "|"); got != "Full name|Agree terms|Opening line|Email|Homepage|Birth date|Integer|Number|Friend|Instruments|Hero|Fish|Pet" {
		t.Errorf("headers %s", got)
	}
	headers := map[string]bool{}
	texts := map[string]bool{}
	for _, q := range req.Questions {
		if n := utf8.RuneCountInString(q.Header); n == 0 || n > ask.MaxHeaderChars {
			t.Errorf("header %q is %d characters; want 1 to %d", q.Header, n, ask.MaxHeaderChars)
		}
		if headers[strings.ToLower(q.Header)] {
			t.Errorf("header %q repeats", q.Header)
		}
		headers[strings.ToLower(q.Header)] = true
		if texts[ask.FoldKey(q.Question)] {
			t.Errorf("question text %q repeats", q.Question)
		}
		texts[ask.FoldKey(q.Question)] = true
		seen := map[string]bool{}
		for _, o := range q.Options {
			if seen[ask.FoldKey(o.Label)] || ask.FoldKey(o.Label) == "other" {
				t.Errorf("question %q: label %q repeats or is Other", q.Header, o.Label)
			}
			seen[ask.FoldKey(o.Label)] = true
		}
	}
	friend := req.Questions[8]
	if len(friend.Options) != 6 || friend.Options[0].Label != "Monica (Recommended)" {
		t.Errorf("friend options %+v; want the 6 friends, the default recommended, and no Skip (the field has a default)", friend.Options)
	}
	if o := req.Questions[5].Options; len(o) != 1 || o[0].Label != elicit.LabelSkip {
		t.Errorf("birth date options %+v; want Skip alone: optional, no default", o)
	}
	if !req.Questions[9].MultiSelect || req.Questions[8].MultiSelect {
		t.Errorf("multiSelect: instruments %v, friend %v; want true, false", req.Questions[9].MultiSelect, req.Questions[8].MultiSelect)
	}
	if len(req.Questions[0].Options) != 0 {
		t.Errorf("the required free-text name has options %+v; want none (free text via Other)", req.Questions[0].Options)
	}
	if o := req.Questions[1].Options; len(o) != 3 || o[0].Label != "Yes" || o[1].Label != "No" {
		t.Errorf("boolean options %+v; want Yes, No, Skip", o)
	}
}

func TestEverythingFormMapsBackToExactSchemaValues(t *testing.T) {
	f := everything(t)
	req := f.Questions("set", "")
	answers := askWith(t, req, func(s *asktest.Stub) {
		s.Other("Ada Lovelace").Choose("No").Choose("It was a dark and stormy night. (Recommended)").
			Other("ada@example.com").Other("https://ada.example/").Choose("Skip").Other("7").
			Choose("3.14").Choose("Monica (Recommended)").Choose("Piano", "Drums").
			Choose("Green Lantern").Choose("Tuna", "Trout").Choose("Dogs")
	})
	content, probs := f.Content(answers)
	if len(probs) > 0 {
		t.Fatalf("problems: %s", probs)
	}
	got, _ := json.Marshal(content)
	want := `{"check":false,"email":"ada@example.com","firstLine":"It was a dark and stormy night.","homepage":"https://ada.example/",` +
		`"integer":7,"legacyTitledEnum":"pet-2","name":"Ada Lovelace","number":3.14,"titledMultipleSelectEnum":["fish-1","fish-3"],` +
		`"titledSingleSelectEnum":"hero-2","untitledMultipleSelectEnum":["Piano","Drums"],"untitledSingleSelectEnum":"Monica"}`
	if string(got) != want {
		t.Fatalf("content\n%s\nwant\n%s", got, want)
	}
	if _, ok := content["integer"].(int64); !ok {
		t.Errorf("integer is %T; want a whole number", content["integer"])
	}
}

func TestPolicyFillsOnlyDefaults(t *testing.T) {
	f := everything(t)
	req := f.Questions("set", "")
	var answers []ask.Answer
	for _, q := range req.Questions {
		answers = append(answers, ask.Recommended(q, "no person answered in time"))
	}
	content, probs := f.Content(answers)
	if len(probs) != 1 || probs[0].Field != "name" || !probs.Final() {
		t.Fatalf("problems %+v; want one final problem: the required name has no default", probs)
	}
	got, _ := json.Marshal(content)
	want := `{"firstLine":"It was a dark and stormy night.","integer":42,"legacyTitledEnum":"pet-1","number":3.14,` +
		`"titledMultipleSelectEnum":["fish-1"],"titledSingleSelectEnum":"hero-1","untitledMultipleSelectEnum":["Guitar"],"untitledSingleSelectEnum":"Monica"}`
	if string(got) != want {
		t.Fatalf("policy content\n%s\nwant only the defaults\n%s", got, want)
	}
}

func TestBadAnswersAreAskedAgain(t *testing.T) {
	f := everything(t)
	answers := askWith(t, f.Questions("set", ""), func(s *asktest.Stub) {
		s.Skip().Choose("Yes").Skip().Other("not-an-email").Skip().Other("31/12/1990").Other("500").
			Skip().Skip().Choose("Piano", "Drums", "Bass", "Violin").Skip().Skip().Skip()
	})
	content, probs := f.Content(answers)
	fields := map[string]string{}
	for _, p := range probs {
		if p.Final {
			t.Errorf("problem %+v is final; a person can answer again", p)
		}
		fields[p.Field] = p.Message
	}
	for _, name := range []string{"name", "email", "birthdate", "integer", "untitledMultipleSelectEnum"} {
		if fields[name] == "" {
			t.Errorf("no problem for %s; problems: %s", name, probs)
		}
	}
	if len(fields) != 5 || content["check"] != true || len(content) != 1 {
		t.Fatalf("problems %s, content %v; want 5 problems and check=true kept", probs, content)
	}
	retry := f.Retry(probs)
	req := retry.Questions("set.2", "")
	if len(req.Questions) != 5 || !strings.Contains(req.Questions[3].Question, "Asked again: 500 is more than the maximum, 100") {
		t.Fatalf("retry asks %d questions, the fourth %q; want 5, each saying what was wrong", len(req.Questions), req.Questions[3].Question)
	}
	again := askWith(t, req, func(s *asktest.Stub) {
		s.Other("Ada").Other("ada@example.com").Other("1990-12-31").Other("100").Choose("Bass")
	})
	more, probs := retry.Content(again)
	if len(probs) > 0 {
		t.Fatalf("problems after retry: %s", probs)
	}
	got, _ := json.Marshal(more)
	if string(got) != `{"birthdate":"1990-12-31","email":"ada@example.com","integer":100,"name":"Ada","untitledMultipleSelectEnum":["Bass"]}` {
		t.Fatalf("retry content %s", got)
	}
}

func TestFileAnswersThatCannotChangeAreFinal(t *testing.T) {
	f := everything(t)
	answers := askWith(t, f.Questions("set", ""), func(s *asktest.Stub) {
		for range 13 {
			s.Skip()
		}
		s.From(ask.SourceFile)
	})
	_, probs := f.Content(answers)
	if len(probs) != 1 || !probs.Final() || probs[0].Field != "name" {
		t.Fatalf("problems %+v; want the required name, final (the file would skip it again)", probs)
	}
}

func TestFreeTextForChoicesMapsToValues(t *testing.T) {
	schema := `{"type":"object","properties":{
		"env":{"type":"string","oneOf":[{"const":"stg","title":"Staging (Recommended)"},{"const":"prod","title":"Other"},{"const":"dev","title":"staging"}]},
		"tags":{"type":"array","items":{"enum":["a","b","c"],"type":"string"}},
		"ok":{"type":"boolean"}},"required":["env","tags","ok"]}`
	f, err := elicit.Parse("", json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	q := f.Questions("s", "").Questions
	var labels []string
	for _, o := range q[0].Options {
		labels = append(labels, o.Label)
	}
	if strings.Join(labels, "|") != "Staging|Other (2)|staging (2)" {
		t.Fatalf("labels %q; want the server's (Recommended) dropped, Other and a case-insensitive repeat renamed", labels)
	}
	answers := askWith(t, f.Questions("s", ""), func(s *asktest.Stub) {
		s.Other("prod").Other("c, A").Other("yes")
	})
	content, probs := f.Content(answers)
	got, _ := json.Marshal(content)
	if len(probs) > 0 || string(got) != `{"env":"prod","ok":true,"tags":["a","c"]}` {
		t.Fatalf("content %s, problems %s", got, probs)
	}
	answers = askWith(t, f.Questions("s", ""), func(s *asktest.Stub) {
		s.Choose("Other (2)").Choose("b").Choose("No")
	})
	content, _ = f.Content(answers)
	if got, _ := json.Marshal(content); string(got) != `{"env":"prod","ok":false,"tags":["b"]}` {
		t.Fatalf("content %s; want the renamed label mapped to its value", got)
	}
}

func TestConfirmationForms(t *testing.T) {
	f, err := elicit.Parse("Delete the branch?", json.RawMessage(`{"type":"object","properties":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	req := f.Questions("c", "")
	if len(req.Questions) != 1 || req.Questions[0].Header != elicit.ConfirmHeader {
		t.Fatalf("questions %+v; want one confirmation", req.Questions)
	}
	accept := askWith(t, req, func(s *asktest.Stub) { s.Choose("Accept") })
	if c, probs := f.Content(accept); c == nil || len(c) != 0 || len(probs) > 0 {
		t.Errorf("accept: content %v, problems %s; want an empty content", c, probs)
	}
	decline := askWith(t, req, func(s *asktest.Stub) { s.Choose("Decline") })
	if _, probs := f.Content(decline); !probs.Final() {
		t.Errorf("decline: problems %s; want a final one", probs)
	}
	policy := []ask.Answer{ask.Recommended(req.Questions[0], "auto")}
	if policy[0].Selected[0] != "Accept" {
		t.Fatalf("the policy picked %v; the test expects it to fall back to the first option", policy[0].Selected)
	}
	if c, probs := f.Content(policy); c != nil || !probs.Final() {
		t.Errorf("policy: content %v, problems %s; the policy must never accept", c, probs)
	}
}

func TestUnsupportedFormsSayWhy(t *testing.T) {
	cases := map[string]string{
		`{"type":"object","properties":{"addr":{"type":"object","properties":{"city":{"type":"string"}}}}}`: `"addr" is a nested object`,
		`{"type":"object","properties":{"ns":{"type":"array","items":{"type":"number"}}}}`:                  `"ns" is an array of something other than a string enum`,
		`{"type":"object","properties":{"n":{"type":"integer","enum":[1,2]}}}`:                              `"n" has an enum value that is not a string`,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["b"]}`:                           `requires "b"`,
		`{"type":"array"}`:                     `has type "array"`,
		`[1,2]`:                                `not a JSON object`,
		`{"type":"object","properties":[1]}`:   `"properties" is not an object`,
		`{"properties":{"x":{}}}`:              `"x" has no type`,
		`{"properties":{"x":{"type":"null"}}}`: `"x" has type "null"`,
	}
	for schema, want := range cases {
		_, err := elicit.Parse("", json.RawMessage(schema))
		if !errors.Is(err, elicit.ErrUnsupported) || !strings.Contains(err.Error(), want) {
			t.Errorf("schema %s: error %v; want ErrUnsupported saying %q", schema, err, want)
		}
	}
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range elicit.MaxFields + 1 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"f` + strings.Repeat("x", i) + `":{"type":"string"}`)
	}
	b.WriteString("}}")
	if _, err := elicit.Parse("", json.RawMessage(b.String())); !errors.Is(err, elicit.ErrUnsupported) {
		t.Errorf("a form of %d fields: %v; want ErrUnsupported", elicit.MaxFields+1, err)
	}
}

func TestHeadersAreShortAndUnique(t *testing.T) {
	schema := `{"type":"object","properties":{
		"a":{"type":"string","title":"String with default"},
		"b":{"type":"string","title":"String with email format"},
		"c":{"type":"string","title":"Supercalifragilistic"},
		"deliveryAddressLine":{"type":"string"},
		"e":{"type":"string","title":"string"},
		"x":{"type":"string","title":"Colour of the car"},
		"y":{"type":"string","title":"Colour of the car"}}}`
	f, err := elicit.Parse("", json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fd := range f.Fields {
		got = append(got, fd.Header)
	}
	want := []string{"Default", "Email format", "Supercalifra", "Delivery", "string", "Colour car", "Colour car 2"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("headers %q; want %q", got, want)
	}
}

func TestFormatsAndLengths(t *testing.T) {
	schema := `{"type":"object","properties":{
		"e":{"type":"string","format":"email"},"u":{"type":"string","format":"uri"},
		"d":{"type":"string","format":"date-time"},"s":{"type":"string","minLength":3,"maxLength":5}},
		"required":["e","u","d","s"]}`
	f, err := elicit.Parse("", json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	bad := askWith(t, f.Questions("x", ""), func(s *asktest.Stub) {
		s.Other("Ada <ada@example.com>").Other("example.com").Other("2025-06-30").Other("ab")
	})
	if _, probs := f.Content(bad); len(probs) != 4 {
		t.Errorf("problems %s; want one per field", probs)
	}
	good := askWith(t, f.Questions("y", ""), func(s *asktest.Stub) {
		s.Other("ada@example.com").Other("mailto:ada@example.com").Other("2025-06-30T14:00:00Z").Other("abcde")
	})
	if _, probs := f.Content(good); len(probs) != 0 {
		t.Errorf("problems %s; want none", probs)
	}
}
