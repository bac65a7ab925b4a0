package frontend

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/askuser/askuser/ask"
)

// Lines that arrive before or between questions, several open sets, and
// the question set on the same stream as its answers.

func TestStdioPrewrittenAnswers(t *testing.T) {
	// printf '%s\n' '{"answers":{"Database":"PostgreSQL"}}' '{"answers":{"Features":"TypeScript"}}' | prog
	g := newRig(t, StdioConfig{})
	g.send(`{"answers":{"Database":"PostgreSQL"}}`, `{"answers":{"Features":"TypeScript"}}`)
	g.in.Close()
	first := ask.Request{ID: "q1", Questions: dbSet("").Questions[:1]}
	second := ask.Request{ID: "q2", Questions: dbSet("").Questions[1:2]}
	ch := g.askOpen(first)
	checkSummary(t, answered(t, ch), []string{"Database: PostgreSQL (program)"})
	ch = g.askOpen(second)
	checkSummary(t, answered(t, ch), []string{"Features: TypeScript (program)"})
	g.noMoreOutput()
}

func TestStdioPrewrittenBadLineReportedWhenApplied(t *testing.T) {
	g := newRig(t, StdioConfig{})
	// Read (and queued) while a NextUser call waits; applied when q1 opens.
	g.send(`{"answers":{"Size":"L"}}`, `{"type":"user","message":"go"}`, `{"answers":{"Color":"Red"}}`)
	if msg, err := g.s.NextUser(bounded(t)); err != nil || !strings.Contains(string(msg), `"go"`) {
		t.Fatalf("NextUser: %s, %v", msg, err)
	}
	ch := g.ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	g.expectQuestion("q1") // the question line comes before the error line about q1
	if m := g.next(); m["type"] != "error" || m["id"] != "q1" || !strings.Contains(m["error"].(string), `no question of this set is called "Size"`) {
		t.Errorf("want an error line about Size, got %v", m)
	}
	checkSummary(t, answered(t, ch), []string{"Color: Red (program)"})
}

func TestStdioUserLines(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.askOpen(oneQ("q1", "Color", "Red", "Blue"))
	g.send(`{"type":"user","message":{"role":"user","content":"one"}}`,
		"", " \t ", "\r",
		"  "+`{"type":"user","message":{"role":"user","content":"two"}}`+" ",
		`{"type":"answer","answers":{"Color":"Blue"}}`,
		`{"type":"user","message":{"role":"user","content":"three"}}`)
	checkSummary(t, answered(t, ch), []string{"Color: Blue (program)"})
	for _, want := range []string{"one", "two", "three"} {
		msg, err := g.s.NextUser(bounded(t))
		if err != nil {
			t.Fatalf("NextUser: %v", err)
		}
		var m struct {
			Type    string `json:"type"`
			Message struct{ Content string }
		}
		if err := json.Unmarshal(msg, &m); err != nil || m.Type != "user" || m.Message.Content != want || msg[0] != '{' || msg[len(msg)-1] != '}' {
			t.Errorf("NextUser = %s (%v), want the %q line", msg, err, want)
		}
	}
	g.in.Close()
	if _, err := g.s.NextUser(bounded(t)); err != io.EOF {
		t.Errorf("NextUser at EOF: got %v, want io.EOF", err)
	}
	g.noMoreOutput()
}

func TestStdioConcurrentSetsOutOfOrder(t *testing.T) {
	g := newRig(t, StdioConfig{})
	const n = 16
	chans := make([]<-chan askResult, n)
	for i := range n {
		chans[i] = g.ask(context.Background(), oneQ(fmt.Sprint("q", i), "Pick", fmt.Sprint("A", i), fmt.Sprint("B", i)))
	}
	for range n {
		if m := g.next(); m["type"] != "question" {
			t.Fatalf("want question lines, got %v", m)
		}
	}
	for i := n - 1; i >= 0; i-- { // answer in the reverse order
		g.send(fmt.Sprintf(`{"id":"q%d","answers":{"Pick":"B%d"}}`, i, i))
	}
	for i, ch := range chans {
		checkSummary(t, answered(t, ch), []string{fmt.Sprintf("Pick: B%d (program)", i)})
	}
	g.noMoreOutput()
}

func TestStdioRouteWithoutID(t *testing.T) {
	g := newRig(t, StdioConfig{})
	color := g.askOpen(oneQ("c", "Color", "Red", "Blue"))
	size := g.askOpen(oneQ("s", "Size", "S", "L"))
	// The keys name the set.
	g.send(`{"answers":{"Size":"L"}}`)
	checkSummary(t, answered(t, size), []string{"Size: L (program)"})
	size2 := g.askOpen(oneQ("s2", "Color", "Cyan", "Black"))
	// Both open sets have a "Color" question: the line is ambiguous.
	g.send(`{"answers":{"Color":"Red"}}`)
	m := g.next()
	want := `stdin line 2: several question sets are open ("c" (Color), "s2" (Color)) and the line has no "id"; its answers fit "c" (Color), "s2" (Color); add "id" naming the set it answers`
	if m["type"] != "error" || m["error"] != want || m["id"] != nil {
		t.Errorf("error line:\n got %v\nwant %s", m, want)
	}
	g.send(`{"answers":{"Weight":"1kg"}}`)
	if m := g.next(); !strings.Contains(fmt.Sprint(m["error"]), "its answers name questions of none of them") {
		t.Errorf("want a none-fit error, got %v", m)
	}
	g.send(`{"id":"c","answers":{"Color":"Red"}}`, `{"id":"s2","answers":{"Color":"Cyan"}}`)
	checkSummary(t, answered(t, color), []string{"Color: Red (program)"})
	checkSummary(t, answered(t, size2), []string{"Color: Cyan (program)"})
	g.noMoreOutput()
}

func TestStdioAmbiguousHeader(t *testing.T) {
	g := newRig(t, StdioConfig{})
	req := ask.Request{ID: "q1", Questions: []ask.Question{
		{Question: "Which env for staging?", Header: "Env", Options: []ask.Option{{Label: "A"}, {Label: "B"}}},
		{Question: "Which env for prod?", Header: "Env", Options: []ask.Option{{Label: "A"}, {Label: "B"}}},
	}}
	ch := g.askOpen(req)
	g.send(`{"answers":{"Env":"A"}}`)
	m := g.next()
	want := `stdin line 1, question set q1: answers["Env"]: header "Env" is shared by the questions "Which env for staging?" and "Which env for prod?"; use the full question text as the key instead`
	if m["error"] != want || m["id"] != "q1" {
		t.Errorf("error line:\n got %v\nwant %s", m, want)
	}
	g.send(`{"answers":{"Which env for staging?":"A","which env for prod?":"b"}}`)
	got := answered(t, ch)
	checkSummary(t, got, []string{"Env: A (program)", "Env: B (program)"})
}

func TestSplitFirstJSON(t *testing.T) {
	set := `{
  "questions": [
    {
      "question": "Which database?",
      "header": "Database",
      "options": [{"label": "PostgreSQL", "description": "x"}, {"label": "SQLite", "description": "y"}],
      "multiSelect": false
    }
  ]
}
{"answers":{"Database":"SQLite"}}
{"type":"user","message":"next"}
`
	first, rest, err := SplitFirstJSON(iotest.OneByteReader(strings.NewReader(set)))
	if err != nil {
		t.Fatal(err)
	}
	in, err := ask.Parse(first)
	if err != nil || len(in.Questions) != 1 || in.Questions[0].Header != "Database" {
		t.Fatalf("first value: %v %+v", err, in)
	}
	s := NewStdio(StdioConfig{In: rest, Out: io.Discard, Via: "stdin"})
	answers, err := s.Ask(bounded(t), ask.Request{ID: "q1", Questions: in.Questions})
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, summary(t, answers), []string{"Database: SQLite (program)"})
	if msg, err := s.NextUser(bounded(t)); err != nil || string(msg) != `{"type":"user","message":"next"}` {
		t.Errorf("NextUser after the set: %s, %v", msg, err)
	}
}

func TestSplitFirstJSONRest(t *testing.T) {
	for _, tc := range []struct{ in, first, rest string }{
		{"{\"a\":1}\n{\"b\":2}\n", `{"a":1}`, "{\"b\":2}\n"},
		{"{\"a\":1}  \r\n\n", `{"a":1}`, "\n"},
		{"{\"a\":1} {\"b\":2}\n", `{"a":1}`, " {\"b\":2}\n"},
		{"  [1,\n 2]", "[1,\n 2]", ""},
	} {
		first, rest, err := SplitFirstJSON(strings.NewReader(tc.in))
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		r, _ := io.ReadAll(rest)
		if string(first) != tc.first || string(r) != tc.rest {
			t.Errorf("%q: got %q and %q, want %q and %q", tc.in, first, r, tc.first, tc.rest)
		}
	}
}

func TestSplitFirstJSONErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "read first JSON value: the input is empty: EOF"},
		{"   \n", "read first JSON value: the input is empty: EOF"},
		{"questions: [x]\n", "read first JSON value: not valid JSON at byte 1: invalid character 'q' looking for beginning of value"},
		{"{\"questions\": [\n", "read first JSON value: the input ends inside it: unexpected EOF"},
		{"{\"questions\" [] }", "read first JSON value: not valid JSON at byte 14: invalid character '[' after object key"},
	} {
		_, _, err := SplitFirstJSON(strings.NewReader(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %s", tc.in, err, tc.want)
		}
	}
}
