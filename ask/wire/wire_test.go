package wire_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

var db = ask.Request{ID: "toolu_1", Questions: []ask.Question{{Question: "Which database?\nPick one.", Header: "Database",
	Options: []ask.Option{{Label: "PostgreSQL (Recommended)", Description: "rich <features> & more"}, {Label: "SQLite\x1b[2J"}}}}}

// keys returns the top-level keys of one JSON line, in order.
func keys(t *testing.T, line []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", line)
	}
	var out []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func TestQuestionLine(t *testing.T) {
	line := wire.Encode(wire.NewQuestion(db, ""))
	if got := strings.Join(keys(t, line), ","); got != "type,id,session_id,questions" {
		t.Errorf("keys %s, want type,id,session_id,questions whether or not there is a session", got)
	}
	if bytes.Count(line, []byte("\n")) != 1 || !bytes.HasSuffix(line, []byte("\n")) {
		t.Errorf("not one line: %q", line)
	}
	for _, want := range []string{`\n`, `\u001b[2J`, `<features> & more`, `"PostgreSQL (Recommended)"`} {
		if !bytes.Contains(line, []byte(want)) {
			t.Errorf("line %s lacks %s: text is carried exactly, escaped for JSON only", line, want)
		}
	}
	approval := db
	approval.Kind, approval.Agent, approval.Tool = ask.KindApproval, "Explore the repo", "mcp__fs__write_file"
	if got := strings.Join(keys(t, wire.Encode(wire.NewQuestion(approval, "s1"))), ","); got != "type,id,session_id,questions,kind,agent,tool" {
		t.Errorf("keys %s, want the optional kind, agent and tool after the fixed keys", got)
	}
}

func TestAnswersLine(t *testing.T) {
	line := wire.Encode(wire.NewAnswers(db, "s1", nil))
	var got struct {
		Type, ID, Result string
		SessionID        string            `json:"session_id"`
		Answers          []json.RawMessage `json:"answers"`
	}
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	if got.Type != "answers" || got.ID != "toolu_1" || got.SessionID != "s1" || got.Answers == nil {
		t.Errorf("line %s: want type answers, the id, the session and answers [] (never null)", line)
	}
	a, _ := ask.Selection(db.Questions[0], []string{"PostgreSQL"}, "", ask.SourceFile)
	line = wire.Encode(wire.NewAnswers(db, "", []ask.Answer{a}))
	if got := strings.Join(keys(t, line), ","); got != "type,id,session_id,answers,result" {
		t.Errorf("keys %s", got)
	}
	if !bytes.Contains(line, []byte(`Answered by: an answers file`)) {
		t.Errorf("line %s: the result text says who answered", line)
	}
	// An approval's answers say they were one, and of which tool.
	approval := db
	approval.Kind, approval.Agent, approval.Tool = ask.KindApproval, "Explore the repo", "mcp__fs__write_file"
	line = wire.Encode(wire.NewAnswers(approval, "s1", []ask.Answer{a}))
	if got := strings.Join(keys(t, line), ","); got != "type,id,session_id,answers,result,agent,kind,tool" {
		t.Errorf("keys %s, want the optional agent, kind and tool after the fixed keys", got)
	}
	if !bytes.Contains(line, []byte(`"kind":"approval","tool":"mcp__fs__write_file"`)) {
		t.Errorf("line %s: the approval's kind and tool", line)
	}
}

func TestErrorLine(t *testing.T) {
	if got := string(wire.Encode(wire.NewError("", "bad line"))); got != `{"type":"error","error":"bad line"}`+"\n" {
		t.Errorf("error line %s", got)
	}
}

// Text is carried exactly, but runes that would change what a raw line
// shows are escaped.
func TestEncodeEscapesInvisible(t *testing.T) {
	in := "bidi \u202egnp.exe\u202c zw Prod\u200buction c1 \u009b31m tag \U000E0041 keep é 日本 👍"
	line := wire.Encode(wire.NewError("", in))
	for _, raw := range []string{"\u202e", "\u200b", "\u009b", "\U000E0041"} {
		if bytes.Contains(line, []byte(raw)) {
			t.Errorf("line %q carries %U raw", line, []rune(raw)[0])
		}
	}
	var back struct{ Error string }
	if err := json.Unmarshal(line, &back); err != nil || back.Error != in {
		t.Errorf("round trip: %q, %v; want the exact text", back.Error, err)
	}
	if !bytes.Contains(line, []byte("é 日本 👍")) {
		t.Errorf("line %q escapes visible text", line)
	}
}
