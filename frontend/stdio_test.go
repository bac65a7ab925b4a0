package frontend

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/askuser/askuser/ask"
)

// bound is how long a test waits for something that should happen at once
// before it fails instead of hanging.
const bound = 5 * time.Second

// chanWriter hands each Write to a channel before it returns, so a test
// sees every line in order and knows that a line written before some event
// is already there.
type chanWriter chan []byte

func (c chanWriter) Write(p []byte) (int, error) {
	c <- append([]byte(nil), p...)
	return len(p), nil
}

// rig is a Stdio reading from an OS pipe the test writes to.
type rig struct {
	t   *testing.T
	s   *Stdio
	in  *os.File // the write end of In
	out chanWriter
}

func newRig(t *testing.T, cfg StdioConfig) *rig {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	out := make(chanWriter, 256)
	cfg.In, cfg.Out = r, out
	if cfg.Via == "" {
		cfg.Via = "stdin"
	}
	return &rig{t: t, s: NewStdio(cfg), in: w, out: out}
}

// send writes lines to In, each ending in a newline.
func (g *rig) send(lines ...string) {
	g.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(g.in, l+"\n"); err != nil {
			g.t.Fatal(err)
		}
	}
}

// next returns the next line written to Out, decoded, after checking it is
// one whole line of JSON.
func (g *rig) next() map[string]any {
	g.t.Helper()
	select {
	case b := <-g.out:
		if !bytes.HasSuffix(b, []byte("\n")) || bytes.Count(b, []byte("\n")) != 1 {
			g.t.Fatalf("output is not one line: %q", b)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			g.t.Fatalf("output line is not a JSON object: %v: %q", err, b)
		}
		return m
	case <-time.After(bound):
		g.t.Fatal("no output line")
	}
	return nil
}

// noMoreOutput fails if a line was written to Out that the test did not read.
func (g *rig) noMoreOutput() {
	g.t.Helper()
	select {
	case b := <-g.out:
		g.t.Fatalf("unexpected output line: %s", b)
	default:
	}
}

// expectQuestion reads the question line of id.
func (g *rig) expectQuestion(id string) {
	g.t.Helper()
	if m := g.next(); m["type"] != "question" || m["id"] != id {
		g.t.Fatalf("want the question line of %s, got %v", id, m)
	}
}

type askResult struct {
	answers []ask.Answer
	err     error
}

// ask starts Ask in a goroutine.
func (g *rig) ask(ctx context.Context, req ask.Request) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		a, err := g.s.Ask(ctx, req)
		ch <- askResult{a, err}
	}()
	return ch
}

// askOpen starts Ask and waits for its question line.
func (g *rig) askOpen(req ask.Request) <-chan askResult {
	g.t.Helper()
	ch := g.ask(context.Background(), req)
	g.expectQuestion(req.ID)
	return ch
}

func wait[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(bound):
		t.Fatal("timed out waiting")
	}
	var zero T
	return zero
}

// answered waits for an Ask to succeed and summarises its answers.
func answered(t *testing.T, ch <-chan askResult) []string {
	t.Helper()
	r := wait(t, ch)
	if r.err != nil {
		t.Fatalf("Ask: %v", r.err)
	}
	return summary(t, r.answers)
}

// summary renders answers as "Header: labels | other: text | skipped (source)".
func summary(t *testing.T, answers []ask.Answer) []string {
	t.Helper()
	out := make([]string, len(answers))
	for i, a := range answers {
		if a.Via != "stdin" || a.AnsweredAt.IsZero() {
			t.Errorf("answer %d: Via %q, AnsweredAt %v; want stdin and a time", i, a.Via, a.AnsweredAt)
		}
		parts := []string{a.Header + ": " + strings.Join(a.Selected, ", ")}
		if a.Custom != "" {
			parts = append(parts, "other: "+a.Custom)
		}
		if a.Skipped {
			parts = append(parts, "skipped")
		}
		out[i] = strings.Join(parts, " | ") + " (" + string(a.Source) + ")"
	}
	return out
}

func checkSummary(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("answers:\n got %q\nwant %q", got, want)
	}
}

func dbSet(id string) ask.Request {
	return ask.Request{ID: id, Questions: []ask.Question{
		{Question: "Which database should we use?", Header: "Database", Options: []ask.Option{
			{Label: "PostgreSQL (Recommended)", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}}},
		{Question: "Which features should we enable?", Header: "Features", MultiSelect: true, Options: []ask.Option{
			{Label: "TypeScript"}, {Label: "Lint, format"}, {Label: "Tailwind CSS"}}},
		{Question: "Which region?", Header: "Region", Options: []ask.Option{{Label: "us-east"}, {Label: "eu-west"}}},
	}}
}

func oneQ(id, header, label1, label2 string) ask.Request {
	return ask.Request{ID: id, Questions: []ask.Question{{Question: "Which " + strings.ToLower(header) + "?", Header: header,
		Options: []ask.Option{{Label: label1}, {Label: label2}}}}}
}

const goodLine = `{"answers":{"Database":"SQLite","Features":"TypeScript","Region":"eu-west"}}`

var goodSummary = []string{"Database: SQLite (program)", "Features: TypeScript (program)", "Region: eu-west (program)"}

func TestStdioQuestionLine(t *testing.T) {
	g := newRig(t, StdioConfig{SessionID: "sess-1"})
	req := dbSet("toolu_01")
	req.Questions[0].Question = "Which \x1b[31mdatabase\x1b[0m\nshould we use? <a&b> \u202e"
	ch := g.ask(context.Background(), req)
	b := wait(t, (<-chan []byte)(g.out))
	if bytes.Count(b, []byte("\n")) != 1 || !bytes.HasSuffix(b, []byte("\n")) {
		t.Fatalf("question line is not one line: %q", b)
	}
	var got struct {
		Type      string         `json:"type"`
		ID        string         `json:"id"`
		Questions []ask.Question `json:"questions"`
		SessionID string         `json:"session_id"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	if got.Type != "question" || got.ID != "toolu_01" || got.SessionID != "sess-1" {
		t.Errorf("got type %q id %q session_id %q", got.Type, got.ID, got.SessionID)
	}
	if !reflect.DeepEqual(got.Questions, req.Questions) {
		t.Errorf("questions changed on the way:\n got %+v\nwant %+v", got.Questions, req.Questions)
	}
	if !bytes.Contains(b, []byte(`\u001b[31m`)) || !bytes.Contains(b, []byte(`<a&b>`)) {
		t.Errorf("model text should be JSON-escaped, not stripped: %s", b)
	}
	g.send(goodLine)
	checkSummary(t, answered(t, ch), goodSummary)
}

func TestStdioNoSessionID(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	m := g.next()
	if _, ok := m["session_id"]; ok {
		t.Errorf("session_id written without a session: %v", m)
	}
	g.send(`{"answers":{"Color":"red"}}`)
	checkSummary(t, answered(t, ch), []string{"Color: Red (program)"})
}

func TestStdioEOF(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.askOpen(dbSet("q1"))
	g.in.Close()
	r := wait(t, ch)
	if !errors.Is(r.err, ask.ErrNoAnswer) {
		t.Fatalf("got %v, want ErrNoAnswer", r.err)
	}
	want := `no answer: stdin closed before question set q1 (Database, Features, Region) was answered; send a line such as ` +
		`{"id":"q1","answers":{"Database":"PostgreSQL","Features":"TypeScript","Region":"us-east"}}`
	if r.err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", r.err, want)
	}
	// Once In has ended, later questions fail at once and NextUser ends.
	if _, err := g.s.Ask(context.Background(), oneQ("q2", "Color", "Red", "Blue")); !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("Ask after EOF: got %v, want ErrNoAnswer", err)
	}
	if _, err := g.s.NextUser(context.Background()); err != io.EOF {
		t.Errorf("NextUser after EOF: got %v, want io.EOF", err)
	}
}

func TestStdioLastLineWithoutNewline(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.askOpen(oneQ("q1", "Color", "Red", "Blue"))
	if _, err := io.WriteString(g.in, `{"answers":{"Color":"Blue"}}`); err != nil {
		t.Fatal(err)
	}
	g.in.Close()
	checkSummary(t, answered(t, ch), []string{"Color: Blue (program)"})
}

func TestStdioReadError(t *testing.T) {
	boom := errors.New("device gone")
	s := NewStdio(StdioConfig{In: iotest.ErrReader(boom), Out: io.Discard, Via: "stdin"})
	_, err := s.Ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrNoAnswer) || !errors.Is(err, boom) {
		t.Errorf("Ask: got %v, want ErrNoAnswer wrapping the read error", err)
	}
	if _, err := s.NextUser(context.Background()); !errors.Is(err, boom) {
		t.Errorf("NextUser: got %v, want the read error", err)
	}
}

func TestStdioWriteError(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	s := NewStdio(StdioConfig{In: r, Out: failWriter{}, Via: "stdin"})
	_, err := s.Ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrNoAnswer) || !strings.Contains(err.Error(), "stdout is closed") {
		t.Errorf("got %v, want ErrNoAnswer with the write error", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("stdout is closed") }

func TestStdioBadRequest(t *testing.T) {
	g := newRig(t, StdioConfig{})
	if _, err := g.s.Ask(context.Background(), ask.Request{Questions: dbSet("").Questions}); err == nil {
		t.Error("Ask without an id succeeded")
	}
	ch := g.askOpen(oneQ("q1", "Color", "Red", "Blue"))
	if _, err := g.s.Ask(context.Background(), oneQ("q1", "Size", "S", "L")); err == nil || !strings.Contains(err.Error(), "already open") {
		t.Errorf("second Ask with an open id: got %v", err)
	}
	g.send(`{"answers":{"Color":"Red"}}`)
	checkSummary(t, answered(t, ch), []string{"Color: Red (program)"})
	g.noMoreOutput()
}

func TestStdioCancel(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	ch := g.ask(ctx, oneQ("q1", "Color", "Red", "Blue"))
	g.expectQuestion("q1")
	cancel()
	if r := wait(t, ch); !errors.Is(r.err, ask.ErrCancelled) || !errors.Is(r.err, context.Canceled) {
		t.Fatalf("got %v, want ErrCancelled", r.err)
	}
	// The reader is still blocked on In; the line it reads next must go to
	// the next question set, not to the cancelled one or nowhere.
	g.send(`{"answers":{"Color":"Blue"}}`)
	ch = g.ask(context.Background(), oneQ("q2", "Color", "Red", "Blue"))
	g.expectQuestion("q2")
	checkSummary(t, answered(t, ch), []string{"Color: Blue (program)"})

	tctx, tcancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer tcancel()
	if _, err := g.s.Ask(tctx, oneQ("q3", "Color", "Red", "Blue")); !errors.Is(err, ask.ErrTimeout) {
		t.Errorf("deadline: got %v, want ErrTimeout", err)
	}
}

func TestStdioNextUserCancel(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan error, 1)
	go func() {
		_, err := g.s.NextUser(ctx)
		ch <- err
	}()
	cancel()
	if err := wait(t, ch); !errors.Is(err, ask.ErrCancelled) {
		t.Fatalf("got %v, want ErrCancelled", err)
	}
	g.send(`{"type":"user","message":{"role":"user","content":"hi"}}`)
	msg, err := g.s.NextUser(context.Background())
	if err != nil || !strings.Contains(string(msg), `"hi"`) {
		t.Errorf("the line read after a cancelled NextUser was lost: %s, %v", msg, err)
	}
}

func TestStdioReadsNothingUntilAsked(t *testing.T) {
	in := &countingReader{}
	s := NewStdio(StdioConfig{In: in, Out: io.Discard})
	if !s.Concurrent() {
		t.Error("Concurrent() = false")
	}
	if n := in.reads(); n != 0 {
		t.Errorf("a Stdio that never asked read In %d times", n)
	}
}

type countingReader struct {
	mu sync.Mutex
	n  int
}

func (c *countingReader) Read([]byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return 0, io.EOF
}

func (c *countingReader) reads() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

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
	if msg, err := g.s.NextUser(context.Background()); err != nil || !strings.Contains(string(msg), `"go"`) {
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
		msg, err := g.s.NextUser(context.Background())
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
	if _, err := g.s.NextUser(context.Background()); err != io.EOF {
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
	answers, err := s.Ask(context.Background(), ask.Request{ID: "q1", Questions: in.Questions})
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, summary(t, answers), []string{"Database: SQLite (program)"})
	if msg, err := s.NextUser(context.Background()); err != nil || string(msg) != `{"type":"user","message":"next"}` {
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
