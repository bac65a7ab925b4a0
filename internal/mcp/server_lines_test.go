package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestGuardLinesKeepsGoodLines: a value spread over lines is read whole,
// as the SDK read it; a line that begins a value the next line cannot
// continue is answered as not JSON, and that next line is taken on its
// own; a value unfinished when input ends is answered too.
func TestGuardLinesKeepsGoodLines(t *testing.T) {
	w := startWire(t, ServeConfig{})
	type reply struct{ id, err string }
	for _, step := range []struct {
		line string
		want []reply
	}{
		{`{"jsonrpc":"2.0","id":1,`, nil},
		{`{"jsonrpc":"2.0","id":2,"method":"ping"}`, []reply{{"null", "Parse error: line 1: the start of a JSON value that never ends"}, {"2", ""}}},
		{"{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 3,\n  \"method\": \"ping\"\n}", []reply{{"3", ""}}},
		{`{"jsonrpc":"2.0","id":4,"method":"ping"} {"jsonrpc":"2.0","id":5,"method":"ping"}`,
			[]reply{{"null", "Parse error: line 8 is not JSON (invalid character '{' after top-level value)"}}},
		{`{"jsonrpc":"2.0","id":6,"method":"ping"}`, []reply{{"6", ""}}},
		{`{"jsonrpc":"2.0","id":7,`, nil},
	} {
		w.send(step.line)
		for _, want := range step.want {
			m := w.next()
			var e struct{ Message string }
			_ = json.Unmarshal(m["error"], &e)
			if string(m["id"]) != want.id || !strings.HasPrefix(e.Message, want.err) || (want.err == "") != (m["result"] != nil) {
				t.Errorf("after %q: reply %s, want id %s and error %q", step.line, m, want.id, want.err)
			}
		}
	}
	w.in.Close()
	if m := w.next(); string(m["id"]) != "null" || !strings.Contains(string(m["error"]), "line 10: the start of a JSON value that never ends") {
		t.Errorf("at the end of input: %s", m)
	}
}

// TestReadLineBound: a line longer than the limit is read to its end and
// dropped, and the next line is read as usual.
func TestReadLineBound(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)+"\nshort\n12345678\nlast"), 16)
	for _, want := range []struct {
		line    string
		tooLong bool
	}{{"", true}, {"short", false}, {"12345678", false}, {"last", false}} {
		line, tooLong, _ := readLine(br, 8)
		if string(line) != want.line || tooLong != want.tooLong {
			t.Errorf("readLine = %q, %v; want %q, %v", line, tooLong, want.line, want.tooLong)
		}
	}
}

// next reads the next line the server writes, within a second.
func (w *wire) next() map[string]json.RawMessage {
	w.t.Helper()
	got := make(chan map[string]json.RawMessage, 1)
	go func() {
		if w.out.Scan() {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(w.out.Bytes(), &m)
			got <- m
		}
		close(got)
	}()
	select {
	case m, ok := <-got:
		if !ok {
			w.t.Fatal("the server's output ended")
		}
		return m
	case <-time.After(time.Second):
		w.t.Fatal("no reply within a second")
	}
	return nil
}

// TestGuardLinesSpreadValueIsLinear: a value spread over many lines costs
// work in proportion to its length, as one line does, not to its length
// times its lines (each line re-read everything held: 48 KB over 16,000
// lines took seconds, and a few MB would hold standard input for hours).
// Allocation measures the work, as a ratio between two lengths in the
// same run: four times the lines, about four times the work.
func TestGuardLinesSpreadValueIsLinear(t *testing.T) {
	work := func(lines int) uint64 {
		in := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[` + strings.Repeat("1,\n", lines) + "1]}}\n"
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var out bytes.Buffer
		r := guardLines(io.NopCloser(strings.NewReader(in)), &syncWriter{w: nopCloser{&out}}, io.Discard)
		passed, _ := io.ReadAll(r)
		runtime.ReadMemStats(&after)
		if len(passed) != len(in) || out.Len() != 0 {
			t.Fatalf("%d lines: passed %d of %d bytes, replied %q", lines, len(passed), len(in), out.String())
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := work(2000), work(8000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Errorf("4 times the lines cost %.0f times the work (%d bytes allocated, %d for a quarter); want about 4", ratio, large, small)
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
