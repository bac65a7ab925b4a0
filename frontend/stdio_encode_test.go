package frontend

import (
	"reflect"
	"testing"

	"github.com/askuser/askuser/ask"
)

// trickyStrings need escaping in every way encoding/json escapes.
var trickyStrings = []string{
	"", "plain", `quote " and \ backslash`, "line\nbreak\r\ttab\b\f", "\x00\x01\x1f\x7f",
	"<b>&amp;</b>", "ünïcödé 日本 🙂", "bad \xff utf-8 \xc3", "sep \u2028 and \u2029", "bidi \u202e",
}

// fill sets every string in v (a pointer) to s, every bool to true and
// every slice to two filled elements, by reflection: a field added to the
// types later is filled too, so a writer that forgets it is caught.
func fill(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.Pointer:
		fill(v.Elem(), s)
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), s)
		}
	default:
		panic("fill: no rule for " + v.Kind().String())
	}
}

func TestQuestionLineBytes(t *testing.T) {
	lines := []questionLine{
		{Type: "question", ID: "q1"}, // nil questions
		{Type: "question", ID: "q1", Questions: []ask.Question{{Header: "nil options"}}},
		{Type: "question", ID: "q1", Questions: []ask.Question{}},
		{Type: "question", ID: "q1", Questions: dbSet("q1").Questions, SessionID: "s_1"},
	}
	for _, s := range trickyStrings {
		var l questionLine
		fill(reflect.ValueOf(&l), s)
		lines = append(lines, l)
	}
	for _, l := range lines {
		want, err := encodeLine(l)
		if err != nil {
			t.Fatal(err)
		}
		if got := l.line(); string(got) != string(want) {
			t.Errorf("line() of %+v:\n got %s\nwant %s", l, got, want)
		}
	}
}

// FuzzAppendJSONString holds appendJSONString to encoding/json's output.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := encodeLine(s)
		if err != nil {
			t.Fatal(err)
		}
		want = want[:len(want)-1] // the newline
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
