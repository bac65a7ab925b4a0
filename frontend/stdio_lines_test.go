package frontend

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestStdioAcceptedLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		want []string
	}{
		{
			name: "by label, seed shape",
			line: `{"id":"q1","answers":[{"header":"Database","selectedOptions":["PostgreSQL"]},` +
				`{"question":"Which features should we enable?","selectedOptions":["TypeScript","Tailwind CSS"],"customInput":"also Storybook"},` +
				`{"header":"Region","skipped":true}]}`,
			want: []string{"Database: PostgreSQL (program)", "Features: TypeScript, Tailwind CSS | other: also Storybook (program)", "Region:  | skipped (program)"},
		},
		{
			name: "by label, type answer, source person, any order, header and question together",
			line: `{"type":"answer","id":"q1","source":"person","answers":[{"header":"Region","selectedOptions":["EU-WEST"]},` +
				`{"header":"Features","question":"which features should we enable?","selectedOptions":["tailwind css","typescript"]},` +
				`{"header":"database","selectedOptions":["postgresql (recommended)"],"customInput":null}]}`,
			want: []string{"Database: PostgreSQL (person)", "Features: TypeScript, Tailwind CSS (person)", "Region: eu-west (person)"},
		},
		{
			name: "by label, free text only, source program",
			line: `{"source":"program","answers":[{"header":"Database","customInput":"  MySQL 8  "},{"header":"Features","selectedOptions":[],"customInput":"none"},{"header":"Region","selectedOptions":null,"skipped":true}]}`,
			want: []string{"Database:  | other: MySQL 8 (program)", "Features:  | other: none (program)", "Region:  | skipped (program)"},
		},
		{
			name: "map form, labels",
			line: `{"answers":{"Database":"PostgreSQL (Recommended)","Features":"TypeScript, Tailwind CSS","Region":"us-east"}}`,
			want: []string{"Database: PostgreSQL (program)", "Features: TypeScript, Tailwind CSS (program)", "Region: us-east (program)"},
		},
		{
			name: "map form, question text keys, case-insensitive",
			line: `{"answers":{"which database should we use?":"postgresql","WHICH FEATURES SHOULD WE ENABLE?":"tailwind css ,typescript,","which region?":" EU-West "}}`,
			want: []string{"Database: PostgreSQL (program)", "Features: TypeScript, Tailwind CSS (program)", "Region: eu-west (program)"},
		},
		{
			name: "map form, a label containing a comma",
			line: `{"answers":{"Database":"SQLite","Features":"lint, format","Region":"us-east"}}`,
			want: []string{"Database: SQLite (program)", "Features: Lint, format (program)", "Region: us-east (program)"},
		},
		{
			name: "map form, free text and skipped",
			line: `{"answers":{"Database":"MySQL","Features":"TypeScript, Storybook","Region":""}}`,
			want: []string{"Database:  | other: MySQL (program)", "Features:  | other: TypeScript, Storybook (program)", "Region:  | skipped (program)"},
		},
		{
			name: "map form, two labels of a single-select question are free text",
			line: `{"answers":{"Database":"PostgreSQL, SQLite","Features":"   ","Region":"us-east"}}`,
			want: []string{"Database:  | other: PostgreSQL, SQLite (program)", "Features:  | skipped (program)", "Region: us-east (program)"},
		},
		{
			name: "map form, terminal escapes removed from free text",
			line: `{"source":"person","answers":{"Database":"My\u001b[31mSQL\u001b[0m","Features":"TypeScript","Region":"us-east"}}`,
			want: []string{"Database:  | other: MySQL (person)", "Features: TypeScript (person)", "Region: us-east (person)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRig(t, StdioConfig{})
			ch := g.askOpen(dbSet("q1"))
			g.send(tc.line)
			checkSummary(t, answered(t, ch), tc.want)
			g.noMoreOutput()
		})
	}
}

// TestStdioBadLines sends each bad line to an open question set, expects
// exactly one error line, and then a good line to be accepted.
func TestStdioBadLines(t *testing.T) {
	rest := `{"header":"Features","selectedOptions":["TypeScript"]},{"header":"Region","skipped":true}`
	example := `; for example {"id":"q1","answers":{"Database":"PostgreSQL","Features":"TypeScript","Region":"us-east"}}`
	long := `{"answers":{"Database":"` + strings.Repeat("x", 5000) + `"}}`
	for _, tc := range []struct {
		name, line, id, want string
	}{
		{"invalid JSON", `{"answers":{"Database":"PostgreSQL"}`, "",
			`stdin line 1 is not valid JSON: unexpected end of JSON input at byte 36 (after "\"Database\":\"PostgreSQL\"}"); send one JSON object per line` + example},
		{"not JSON", `Database: PostgreSQL`, "",
			`stdin line 1 is not valid JSON: invalid character 'D' looking for beginning of value at byte 1 (after "D"); send one JSON object per line` + example},
		{"array", `["PostgreSQL"]`, "", `stdin line 1 is an array, not a JSON object; send one JSON object per line` + example},
		{"string", `"PostgreSQL"`, "", `stdin line 1 is "PostgreSQL", not a JSON object; send one JSON object per line` + example},
		{"null", `null`, "", `stdin line 1 is null, not a JSON object; send one JSON object per line` + example},
		{"wrong type", `{"type":"question","answers":{}}`, "", `stdin line 1: "type" must be "answer" or "user", got "question"`},
		{"type not a string", `{"type":1,"answers":{}}`, "", `stdin line 1: "type" must be "answer" or "user", got a number`},
		{"empty id", `{"id":"","answers":{}}`, "", `stdin line 1: "id" must be the id of an open question set (a non-empty string), got ""`},
		{"unknown field", `{"id":"q1","answer":{"Database":"SQLite"}}`, "q1",
			`stdin line 1: "answer" is not a field of an answer line; remove it (fields: type, id, source, answers)` + example},
		{"no answers", `{"id":"q1"}`, "q1", `stdin line 1: the line has no "answers"` + example},
		{"wrong source", `{"source":"robot","answers":{}}`, "",
			`stdin line 1: "source" must be "person" (a person chose these answers) or "program" (the default), got "robot"`},
		{"answers a string", `{"answers":"PostgreSQL"}`, "",
			`stdin line 1: "answers" must be an object {"<header>":"<label>"} or an array [{"header":"<header>","selectedOptions":["<label>"]}], got "PostgreSQL"`},
		{"unknown id", `{"id":"q9","answers":{"Database":"SQLite"}}`, "q9",
			`stdin line 1: no open question set has id "q9"; open: "q1" (Database, Features, Region); set "id" to one of them`},
		{"missing questions, map form", `{"answers":{"Database":"SQLite"}}`, "q1",
			`stdin line 1, question set q1: not answered: "Features" (Which features should we enable?), "Region" (Which region?); ` +
				`every question of the set must be answered in the same line: add "Features":"TypeScript" and "Region":"us-east" to "answers" ` +
				`(or skip a question with "Features":""); a complete line looks like {"id":"q1","answers":{"Database":"PostgreSQL","Features":"TypeScript","Region":"us-east"}}`},
		{"missing question, by label", `{"answers":[{"header":"Database","selectedOptions":["SQLite"]},{"header":"Features","skipped":true}]}`, "q1",
			`stdin line 1, question set q1: not answered: "Region" (Which region?); every question of the set must be answered in the same line: ` +
				`add {"header":"Region","selectedOptions":["us-east"]} to "answers" (or skip a question with {"header":"Region","skipped":true}); ` +
				`a complete line looks like {"id":"q1","answers":[{"header":"Database","selectedOptions":["PostgreSQL"]},{"header":"Features","selectedOptions":["TypeScript"]},{"header":"Region","selectedOptions":["us-east"]}]}`},
		{"unknown question", `{"answers":{"Colour":"Red"}}`, "q1",
			`stdin line 1, question set q1: answers["Colour"]: no question of this set is called "Colour"; its questions are "Database" (Which database should we use?), "Features" (Which features should we enable?), "Region" (Which region?)`},
		{"unknown label", `{"answers":[{"header":"Database","selectedOptions":["MySQL"]},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0]: "MySQL" is not a label of question "Database"; choose from: PostgreSQL, SQLite; for free text, set "customInput"`},
		{"Other as a label", `{"answers":[{"header":"Database","selectedOptions":["Other"],"customInput":"MySQL"},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0]: "Other" is not a label of question "Database"; to give free text, set customInput (JSON) or other: (answers file)`},
		{"two labels, single-select", `{"answers":[{"header":"Database","selectedOptions":["PostgreSQL","SQLite"]},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0]: question "Database" takes one answer, got 2; give one label or free text`},
		{"label and text, single-select", `{"answers":[{"header":"Database","selectedOptions":["SQLite"],"customInput":"v3"},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0]: question "Database" takes one answer, got 2; give one label or free text`},
		{"skipped with a label", `{"answers":[{"header":"Database","selectedOptions":["SQLite"],"skipped":true},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0] says "skipped":true but also gives selectedOptions or customInput; send one or the other`},
		{"nothing given", `{"answers":[{"header":"Database","customInput":" "},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0] gives no selectedOptions and no customInput for question "Database"; choose from PostgreSQL, SQLite, give "customInput", or send "skipped":true to skip it`},
		{"unknown entry field", `{"answers":[{"header":"Database","selected":["SQLite"]},` + rest + `]}`, "",
			`stdin line 1: answers[0]: "selected" is not a field of an answer; remove it (fields: header, question, selectedOptions, customInput, skipped)`},
		{"entry not an object", `{"answers":["SQLite"]}`, "",
			`stdin line 1: answers[0] must be an object such as {"header":"Database","selectedOptions":["PostgreSQL"]}, got "SQLite"`},
		{"entry names no question", `{"answers":[{"selectedOptions":["SQLite"]}]}`, "",
			`stdin line 1: answers[0] names no question; add "header" (or "question" with the full question text)`},
		{"selectedOptions a string", `{"answers":[{"header":"Database","selectedOptions":"SQLite"}]}`, "",
			`stdin line 1: answers[0].selectedOptions must be an array of label strings, got "SQLite"`},
		{"skipped a string", `{"answers":[{"header":"Database","skipped":"yes"}]}`, "",
			`stdin line 1: answers[0].skipped must be true or false, got "yes"`},
		{"header and question disagree", `{"answers":[{"header":"Database","question":"Which region?","selectedOptions":["SQLite"]},` + rest + `]}`, "q1",
			`stdin line 1, question set q1: answers[0]: "header" and "question" name different questions; give just one`},
		{"answered twice", `{"answers":{"Database":"SQLite","Which database should we use?":"SQLite","Features":"","Region":""}}`, "q1",
			`stdin line 1, question set q1: answers["Which database should we use?"] answers question "Database" a second time; answer each question once`},
		{"map value not a string", `{"answers":{"Database":["SQLite"]}}`, "",
			`stdin line 1: answers["Database"] must be a string (a label, labels separated by commas, free text, or "" to skip), got an array`},
		{"map value Other", `{"answers":{"Database":"other","Features":"","Region":""}}`, "q1",
			`stdin line 1, question set q1: answers["Database"]: "other" is not an answer; for free text, give the text itself as the value`},
		{"empty key", `{"answers":{"":"SQLite","Features":"","Region":""}}`, "q1",
			`stdin line 1, question set q1: answers[""] names no question; name it by its header or its full text`},
		{"over-long line", long, "", `stdin line 1 is longer than the limit of 4096 bytes and was discarded; send each answer as one shorter line`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRig(t, StdioConfig{MaxLineBytes: 4096})
			ch := g.askOpen(dbSet("q1"))
			g.send(tc.line)
			m := g.next()
			wantID := any(nil)
			if tc.id != "" {
				wantID = tc.id
			}
			if m["type"] != "error" || m["id"] != wantID || m["error"] != tc.want || len(m) != 3-boolInt(wantID == nil) {
				t.Errorf("error line:\n got %v\nwant id %v error %s", m, wantID, tc.want)
			}
			g.send(goodLine)
			checkSummary(t, answered(t, ch), goodSummary)
			g.noMoreOutput()
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestStdioVeryLongLine sends a line longer than the read buffer and the
// pipe, so it is discarded in pieces while it is being written.
func TestStdioVeryLongLine(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.askOpen(dbSet("q1"))
	done := make(chan error, 1)
	go func() {
		_, err := fmt.Fprintf(g.in, "{\"answers\":{\"Database\":\"%s\"}}\n%s\n", strings.Repeat("y", DefaultMaxLineBytes+300<<10), goodLine)
		done <- err
	}()
	m := g.next()
	want := fmt.Sprintf("stdin line 1 is longer than the limit of %d bytes and was discarded; send each answer as one shorter line", DefaultMaxLineBytes)
	if m["error"] != want {
		t.Errorf("error line: got %v, want %s", m, want)
	}
	checkSummary(t, answered(t, ch), goodSummary)
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	g.noMoreOutput()
}

// TestStdioLineAtLimit accepts a line of exactly MaxLineBytes, with a
// CRLF ending.
func TestStdioLineAtLimit(t *testing.T) {
	line := `{"answers":{"Database":"SQLite","Features":"TypeScript","Region":"eu-west"}}`
	pad := 64
	g := newRig(t, StdioConfig{MaxLineBytes: len(line) + pad})
	ch := g.askOpen(dbSet("q1"))
	g.send(line[:len(line)-1] + strings.Repeat(" ", pad) + "}\r")
	checkSummary(t, answered(t, ch), goodSummary)

	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	ch = g.ask(ctx, dbSet("q2"))
	g.expectQuestion("q2")
	g.send(line[:len(line)-1] + strings.Repeat(" ", pad+1) + "}")
	if m := g.next(); !strings.Contains(fmt.Sprint(m["error"]), "longer than the limit") {
		t.Errorf("a line one byte over the limit: got %v", m)
	}
	g.send(line)
	checkSummary(t, answered(t, ch), goodSummary)
}
