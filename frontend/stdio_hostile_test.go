package frontend

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// Hostile and broken answer lines: each gets one short error line, and
// the set still takes a good line after it.

func TestStdioDuplicateKeys(t *testing.T) {
	rest := `"Features":"","Region":""`
	for _, tc := range []struct{ name, line, want string }{
		{"an answer given twice", `{"answers":{"Database":"SQLite","Database":"PostgreSQL",` + rest + `}}`,
			`stdin line 1 gives "Database" twice in answers; give each key once`},
		{"the second spelled with an escape", `{"answers":{"Database":"SQLite","Data\u0062ase":"PostgreSQL",` + rest + `}}`,
			`stdin line 1 gives "Database" twice in answers; give each key once`},
		{"two ids", `{"id":"q1","id":"q2","answers":{"Database":"SQLite",` + rest + `}}`,
			`stdin line 1 gives "id" twice; give each field once`},
		{"two answers", `{"answers":{"Database":"SQLite",` + rest + `},"answers":{"Database":"PostgreSQL",` + rest + `}}`,
			`stdin line 1 gives "answers" twice; give each field once`},
		{"two sources", `{"source":"program","source":"person","answers":{"Database":"SQLite",` + rest + `}}`,
			`stdin line 1 gives "source" twice; give each field once`},
		{"a header twice in a by-label entry", `{"answers":[{"header":"Features","skipped":true},{"header":"Database","header":"Region","selectedOptions":["SQLite"]}]}`,
			`stdin line 1 gives "header" twice in answers[1]; give each key once`},
		{"two keys that are one after decoding", "{\"answers\":{\"\xff\":\"a\",\"\xfe\":\"b\"}}",
			"stdin line 1 gives \"\ufffd\" twice in answers; give each key once"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRig(t, StdioConfig{})
			ch := g.askOpen(dbSet("q1"))
			g.send(tc.line)
			if m := g.next(); m["type"] != "error" || m["error"] != tc.want {
				t.Errorf("error line:\n got %v\nwant %s", m, tc.want)
			}
			g.send(goodLine)
			checkSummary(t, answered(t, ch), goodSummary)
			g.noMoreOutput()
		})
	}
}

func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct {
		line, where, key string
		found            bool
	}{
		{`{"a":1,"b":{"a":1},"c":[{"a":1},{"a":1}]}`, "", "", false},
		{`{"a":"\"a\":","b":"a"}`, "", "", false},
		{`{"a":1,"a":2}`, "", "a", true},
		{`[{"x":[1,{"y":1,"y":2}]}]`, `[0]["x"][1]`, "y", true},
		{`{"message":{"content":[{"type":"text","type":"image"}]}}`, `message["content"][0]`, "type", true},
		{`{"a\\b":1,"a\u005cb":2}`, "", `a\b`, true},
		{`{"":1,"":2}`, "", "", true},
	} {
		where, key, found := ask.DuplicateKey([]byte(tc.line))
		if where != tc.where || key != tc.key || found != tc.found {
			t.Errorf("ask.DuplicateKey(%s) = %q, %q, %v; want %q, %q, %v", tc.line, where, key, found, tc.where, tc.key, tc.found)
		}
	}
}

// TestStdioHugeValuesNotEchoed: a line quoting a value of half a megabyte
// gets an error line of a few hundred bytes, not the value back.
func TestStdioHugeValuesNotEchoed(t *testing.T) {
	big := strings.Repeat("x", 500_000)
	rest := `{"header":"Features","skipped":true},{"header":"Region","skipped":true}`
	for _, tc := range []struct{ name, line, want string }{
		{"unknown field", `{"` + big + `":1,"answers":{}}`, "is not a field of an answer line"},
		{"unknown question", `{"answers":{"` + big + `":"SQLite"}}`, "no question of this set is called"},
		{"unknown id", `{"id":"` + big + `","answers":{}}`, "no open question set has id"},
		{"unknown label", `{"answers":[{"header":"Database","selectedOptions":["` + big + `"]},` + rest + `]}`, "is not a label of question"},
		{"unknown entry field", `{"answers":[{"header":"Database","` + big + `":1}]}`, "is not a field of an answer"},
		{"Other in disguise", `{"answers":{"Database":"Other` + strings.Repeat(`\u200b`, 100_000) + `","Features":"","Region":""}}`, "is not an answer"},
		{"a duplicate key", `{"answers":{"` + big + `":"a","` + big + `":"b"}}`, "twice in answers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newRig(t, StdioConfig{})
			ch := g.askOpen(dbSet("q1"))
			g.send(tc.line)
			m := g.next()
			msg := fmt.Sprint(m["error"])
			if n := len(fmt.Sprint(m)); n > 2048 || !strings.Contains(msg, tc.want) || !strings.Contains(msg, " characters)") {
				t.Errorf("error line of %d bytes; want at most 2 KiB, containing %q and the length of the value: %.400s", n, tc.want, msg)
			}
			if id, ok := m["id"].(string); ok && id != "q1" {
				t.Errorf("the error line repeats an id of %d bytes", len(id))
			}
			g.send(goodLine)
			checkSummary(t, answered(t, ch), goodSummary)
		})
	}
}

// TestStdioCutOffLastLine: the input ends in the middle of a line. The
// partial line gets an error line that says so, written before Ask fails
// with no answer: a process exits once Ask returns, and an error line
// written after that would be lost. Out is slow, so an error line written
// after the set fails arrives after Ask returns.
func TestStdioCutOffLastLine(t *testing.T) {
	out := &slowWriter{delay: 50 * time.Millisecond}
	s := NewStdio(StdioConfig{In: strings.NewReader(`{"answers":{"Database":"SQL`), Out: out, Via: "stdin"})
	_, err := s.Ask(bounded(t), dbSet("q1"))
	if !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("Ask: got %v, want ErrNoAnswer", err)
	}
	got := out.String()
	for _, want := range []string{`"error":"stdin line 1 is not valid JSON`, "stdin ended in the middle of this line (no newline after it), so it may have been cut short"} {
		if !strings.Contains(got, want) {
			t.Errorf("when Ask returned, Out held\n%s\nwithout %q", got, want)
		}
	}
}

// slowWriter takes a while over each Write.
type slowWriter struct {
	delay time.Duration
	mu    sync.Mutex
	b     strings.Builder
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(w.delay)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *slowWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestStdioHugeLineMemory: a 10 MB line is discarded as it is read; it
// does not grow memory by its size. What is allocated is the line buffer
// growing to the 1 MiB limit (about 4.5 MiB in all, the same for a 2 MB
// or a 50 MB line), and nothing in proportion to the line.
func TestStdioHugeLineMemory(t *testing.T) {
	const size = 10 << 20
	in := io.MultiReader(strings.NewReader(`{"answers":{"Database":"`), io.LimitReader(repeatReader('x'), int64(size)),
		strings.NewReader("\"}}\n"+goodLine+"\n"))
	out := &strings.Builder{}
	s := NewStdio(StdioConfig{In: in, Out: out, Via: "stdin"})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	answers, err := s.Ask(bounded(t), dbSet("q1"))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, summary(t, answers), goodSummary)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("reading a %d-byte line allocated %d bytes; want under 8 MiB", size, grew)
	}
	if !strings.Contains(out.String(), "longer than the limit of 1048576 bytes") {
		t.Errorf("no error line for the long line:\n%.600s", out.String())
	}
}

// repeatReader reads as an endless run of one byte.
type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
