package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// FuzzDecodeLine checks, for any input line: parseLine does not panic;
// it allocates in proportion to the line, never without bound; a line it
// rejects gets one error line of valid JSON, short whatever the line held;
// a line it accepts has no member named twice in any object (checked
// against encoding/json's own tokenizer, not against duplicateKey); and
// matching an accepted line to a question set does not panic and words any
// problem briefly. The seeds are the hostile lines of
// hostileLineSeeds, validLines and otherLines; CI runs them as normal
// tests.
//
// Fuzz it with a hard memory limit as well, so that an input that makes
// the decoder allocate without bound kills the run instead of the machine:
//
//	(ulimit -v 8000000; go test -run XXX -fuzz FuzzDecodeLine -fuzztime 5m ./frontend/)
//
// (ulimit -v is in KiB; Go reserves address space beyond what it uses, so
// leave it a few GiB.)
func FuzzDecodeLine(f *testing.F) {
	for _, line := range hostileLineSeeds() {
		f.Add(line)
	}
	for _, line := range append(validLines, otherLines...) {
		f.Add([]byte(line))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line) // as the reader hands it over
		if len(line) == 0 {
			return
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		kind, l, e := parseLine(line, 3, "stdin")
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64*uint64(len(line))+1<<20 {
			t.Fatalf("parsing a %d-byte line allocated %d bytes", len(line), grew)
		}
		if e != nil {
			checkErrorLine(t, e)
			return
		}
		if dup, err := hasDuplicateMember(line); err != nil || dup {
			t.Fatalf("accepted a line with a member named twice (or invalid JSON: %v): %q", err, line)
		}
		if kind != kindAnswer {
			return
		}
		if _, e := buildAnswers(dbSet("q1"), &l); e != nil {
			checkErrorLine(t, e)
		}
	})
}

// checkErrorLine: one line of JSON, an error with a message, and short.
func checkErrorLine(t *testing.T, e *lineErr) {
	t.Helper()
	b := e.line()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m["type"] != "error" || m["error"] == "" {
		t.Fatalf("error line is not an error object (%v): %s", err, b)
	}
	if bytes.IndexByte(b, '\n') != len(b)-1 {
		t.Fatalf("error line is not one line: %q", b)
	}
	if len(b) > 8<<10 {
		t.Fatalf("error line is %d bytes: %.400s", len(b), b)
	}
}

// hasDuplicateMember walks line with encoding/json's tokenizer and reports
// whether an object names a member twice.
func hasDuplicateMember(line []byte) (bool, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	type frame struct {
		object  bool
		keys    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.wantKey {
			if top.keys[s] {
				return true, nil
			}
			top.keys[s], top.wantKey = true, false
			continue
		}
		if top != nil && top.object {
			top.wantKey = true // a value was read (or a container opened): a key comes next
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// hostileLineSeeds are answer lines a broken or hostile program writes.
func hostileLineSeeds() [][]byte {
	big := strings.Repeat("x", 1<<20)
	return [][]byte{
		[]byte(`{"answers":{"Database":"SQLite","Database":"PostgreSQL"}}`),
		[]byte(`{"id":"q1","id":"q2","answers":{"Database":"SQLite"}}`),
		[]byte(`{"answers":{"Database":"SQLite"},"answers":{"Database":"PostgreSQL"}}`),
		[]byte(`{"answers":[{"header":"Database","header":"Region","selectedOptions":["SQLite"]}]}`),
		[]byte(`{"answers":{"Database":"SQLite","Data\u0062ase":"PostgreSQL"}}`),
		[]byte("{\"answers\":{\"\xff\":\"a\",\"\xfe\":\"b\"}}"),
		[]byte(`{"type":"user","type":"user","message":{"role":"user","content":"hi"}}`),
		[]byte(`{"answers":{"Database":"SQL`),
		[]byte(`{"answers":{"Database":"` + big + `"}}`),
		[]byte(`{"` + big + `":1,"answers":{}}`),
		[]byte(`{"id":"` + big + `","answers":{}}`),
		[]byte(`{"answers":{"` + big + `":"a","` + big + `":"b"}}`),
		[]byte(`{"answers":[{"header":"Database","selectedOptions":["` + big + `"]}]}`),
		[]byte(`{"answers":` + strings.Repeat("[", 100_000)),
		[]byte(`{"answers":` + strings.Repeat("[", 5_000) + strings.Repeat("]", 5_000) + `}`),
		[]byte(`{"answers":{"Database":"SQLite\u0000"}}`),
		[]byte("{\"answers\":{\"Database\":\"SQLite\x00\"}}"),
		[]byte("{\"answers\":{\"Data\xffbase\":\"SQ\xc3\x28Lite\"}}"),
		[]byte(`{"answers":{"Database":"\u001b]0;pwn\u0007\u001b[2JSQLite\u009b31m"}}`),
		[]byte(`{"answers":{"Data\u200bbase":"Other\u200b","Features":"\u202eTypeScript"}}`),
		[]byte(`{"answers":[{"header":"Database","selectedOptions":["Other"],"customInput":"` + strings.Repeat(`\u200b`, 10_000) + `"}]}`),
		[]byte(`{"source":"person","source":"program","answers":{}}`),
	}
}

// validLines are answer lines in the map form, with keys and values in
// every shape it allows: fuzzing seeds.
var validLines = []string{
	`{"id":"q1","answers":{"Database":"SQLite"}}`,
	`{"answers":{"Region":"eu-west","Database":"SQLite","Features":"TypeScript, Tailwind CSS"}}`,
	` { "type" : "answer" , "source":"person", "id":"q2",` + "\t" + `"answers" : { } } `,
	`{"answers":{"Base de données":"SQLite 日本","":""},"source":"program"}`,
}

// otherLines are valid lines in other shapes, and lines that are wrong
// in each way a reader could overlook: fuzzing seeds.
var otherLines = []string{
	`{"id":"q1","answers":[{"header":"Database","selectedOptions":["SQLite"]}]}`, // by-label form
	`{"type":"user","message":{"role":"user","content":"hi"}}`,
	`{"id":"q1","answers":{"Database":"Postgre\"SQL"}}`,    // an escape
	`{"id":"q1","answers":{"Database":"Postgre\u0053QL"}}`, // an escape
	`{"id":"q1","answers":{"Database":"a","Database":"b"}}`,
	`{"id":"q1","id":"q2","answers":{}}`,
	`{"ID":"q1","answers":{}}`,
	`{"id":"","answers":{}}`,
	`{"id":null,"answers":{}}`,
	`{"id":"q1","answers":null}`,
	`{"id":"q1"}`,
	`{"id":"q1","answers":{"Database":3}}`,
	`{"id":"q1","answers":{"Database":"SQLite"},"extra":1}`,
	`{"source":"model","answers":{}}`,
	`{"type":"answers","answers":{}}`,
	`{"id":"q1","answers":{"Database":"SQLite"}`,
	`{"id":"q1","answers":{"Database":"SQLite"}}}`,
	`{"id":"q1","answers":{"Database":"SQLite"},}`,
	`{"id":"q1" "answers":{}}`,
	`{"id":"q1","answers":{"a":"b" "c":"d"}}`,
	`{"id":"q1","answers":{,"a":"b"}}`,
	"{\"id\":\"q\xff\",\"answers\":{}}",
	"{\"id\":\"q1\",\"answers\":{}}\x00",
	"{\"id\":\"q\x01\",\"answers\":{}}",
	`[{"answers":{}}]`,
	`{}`,
	``,
}
