package frontend

import (
	"reflect"
	"testing"
)

// plainLines are read by the fast path.
var plainLines = []string{
	`{"id":"q1","answers":{"Database":"SQLite"}}`,
	`{"answers":{"Region":"eu-west","Database":"SQLite","Features":"TypeScript, Tailwind CSS"}}`,
	` { "type" : "answer" , "source":"person", "id":"q2",` + "\t" + `"answers" : { } } `,
	`{"answers":{"Base de données":"SQLite 日本","":""},"source":"program"}`,
}

// otherLines are left to decodeLine: valid lines in other shapes, and
// lines that are wrong in each way the fast path must not paper over.
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

func TestPlainLineFastPath(t *testing.T) {
	for _, line := range plainLines {
		l, ok := parsePlainLine([]byte(line), 7, "stdin")
		if !ok {
			t.Errorf("the fast path gave up on %s", line)
			continue
		}
		kind, want, e := decodeLine([]byte(line), 7, "stdin")
		if e != nil || kind != kindAnswer || !reflect.DeepEqual(l, want) {
			t.Errorf("%s:\nfast path %+v\ndecodeLine %v %+v %+v", line, l, kind, want, e)
		}
	}
	for _, line := range otherLines {
		if l, ok := parsePlainLine([]byte(line), 7, "stdin"); ok {
			t.Errorf("the fast path read %q as %+v; it must leave it to decodeLine", line, l)
		}
	}
}

// FuzzPlainLine holds the fast path to decodeLine: whatever it reads,
// decodeLine reads the same way.
func FuzzPlainLine(f *testing.F) {
	for _, line := range append(plainLines, otherLines...) {
		f.Add(line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		l, ok := parsePlainLine([]byte(line), 1, "stdin")
		if !ok {
			return
		}
		kind, want, e := decodeLine([]byte(line), 1, "stdin")
		if e != nil || kind != kindAnswer || !reflect.DeepEqual(l, want) {
			t.Errorf("%q:\nfast path %+v\ndecodeLine %v %+v %+v", line, l, kind, want, e)
		}
	})
}
