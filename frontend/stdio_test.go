package frontend

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/askuser/askuser/ask"
)

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

// Outside a session the question line keeps its keys: session_id is "",
// so a reader sees one shape everywhere (package wire).
func TestStdioNoSessionID(t *testing.T) {
	g := newRig(t, StdioConfig{})
	ch := g.ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	m := g.next()
	if v, ok := m["session_id"]; !ok || v != "" {
		t.Errorf("session_id %v (present %v) without a session; want \"\"", v, ok)
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
	if _, err := g.s.Ask(bounded(t), oneQ("q2", "Color", "Red", "Blue")); !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("Ask after EOF: got %v, want ErrNoAnswer", err)
	}
	if _, err := g.s.NextUser(bounded(t)); err != io.EOF {
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
	_, err := s.Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrNoAnswer) || !errors.Is(err, boom) {
		t.Errorf("Ask: got %v, want ErrNoAnswer wrapping the read error", err)
	}
	if _, err := s.NextUser(bounded(t)); !errors.Is(err, boom) {
		t.Errorf("NextUser: got %v, want the read error", err)
	}
}

func TestStdioWriteError(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	s := NewStdio(StdioConfig{In: r, Out: failWriter{}, Via: "stdin"})
	_, err := s.Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrNoAnswer) || !strings.Contains(err.Error(), "stdout is closed") {
		t.Errorf("got %v, want ErrNoAnswer with the write error", err)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("stdout is closed") }

func TestStdioBadRequest(t *testing.T) {
	g := newRig(t, StdioConfig{})
	if _, err := g.s.Ask(bounded(t), ask.Request{Questions: dbSet("").Questions}); err == nil {
		t.Error("Ask without an id succeeded")
	}
	ch := g.askOpen(oneQ("q1", "Color", "Red", "Blue"))
	if _, err := g.s.Ask(bounded(t), oneQ("q1", "Size", "S", "L")); err == nil || !strings.Contains(err.Error(), "already open") {
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
	msg, err := g.s.NextUser(bounded(t))
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
