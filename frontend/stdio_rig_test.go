package frontend

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// The test rig: a Stdio reading an OS pipe, writing to a channel.

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

// bounded is a context for a direct call that should return at once: if
// it blocks, the call ends with ErrTimeout after bound and the test fails
// instead of hanging.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	t.Cleanup(cancel)
	return ctx
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
