package ask

import (
	"strings"
	"testing"
)

// flat writes a JSONNode back as one line, to compare with what a test
// expects: keys in the order shown, strings quoted, what was left out as
// "+N".
func flat(n JSONNode) string {
	var b strings.Builder
	var walk func(JSONNode)
	walk = func(n JSONNode) {
		switch n.Kind {
		case JSONObject:
			b.WriteString("{")
			for i, f := range n.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(f.Key + ": ")
				walk(f.Value)
			}
		case JSONArray:
			b.WriteString("[")
			for i, it := range n.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(it)
			}
		case JSONString:
			b.WriteString(`"` + n.Text + `"`)
			if n.Block {
				b.WriteString("(block)")
			}
		default:
			b.WriteString(n.Text)
		}
		if n.Left > 0 {
			b.WriteString(" +" + GroupDigits(n.Left))
		}
		switch n.Kind {
		case JSONObject:
			b.WriteString("}")
		case JSONArray:
			b.WriteString("]")
		}
	}
	walk(n)
	return b.String()
}

func TestReadJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		budget   int
		want     string
		cut      bool
	}{
		{"order as written, duplicates kept", `{"path":"a.md","content":"x","path":"b.md"}`, 100,
			`{path: "a.md", content: "x", path: "b.md"}`, false},
		{"lines are a block", `{"content":"# Plan\n\nStep one.\n"}`, 100,
			"{content: \"# Plan\n\nStep one.\n\"(block)}", false},
		{"a long line is a block", `{"c":"` + strings.Repeat("a", 61) + `"}`, 100,
			`{c: "` + strings.Repeat("a", 61) + `"(block)}`, false},
		{"literals as written", `{"n":1.50,"ok":true,"none":null,"e":{},"l":[],"s":""}`, 100,
			`{n: 1.50, ok: true, none: null, e: {}, l: [], s: ""}`, false},
		{"escapes decoded, then made safe", `{"k\u001b[2J":"red \u001b[31mtext\u001b[0m \u202eevil","x":"<b>"}`, 100,
			`{k: "red text evil", x: "<b>"}`, false},
		{"arrays", `[1,"two",[3]]`, 100, `[1, "two", [3]]`, false},
		{"a string cut at the budget", `{"a":"0123456789"}`, 5, `{a: "0123" +6}`, true},
		{"a huge string cut as written", `{"a":"\u001b[31m` + strings.Repeat("x", 1000) + `"}`, 5, `{a: "xxxx"(block) +1,001}`, true},
		{"fields past the budget counted", `{"a":"01","b":"x","c":{"d":1}}`, 3, `{a: "01" +2}`, true},
		{"items past the budget counted", `["aa","bb","cc","dd"]`, 4, `["aa", "bb" +2]`, true},
		{"deep nesting shown as text", strings.Repeat(`[`, 12) + strings.Repeat(`]`, 12), 100,
			strings.Repeat("[", 8) + "[[[[]]]]" + strings.Repeat("]", 8), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, cut, ok := ReadJSON([]byte(tc.in), tc.budget)
			if !ok {
				t.Fatalf("%s: not read as JSON", tc.in)
			}
			if got := flat(root); got != tc.want || cut != tc.cut {
				t.Errorf("%s\n got %s (cut %v)\nwant %s (cut %v)", tc.in, got, cut, tc.want, tc.cut)
			}
		})
	}
	for _, bad := range []string{``, `{"a":`, `{"a":1} {"b":2}`, `not json`, `{"a":1]`} {
		if _, _, ok := ReadJSON([]byte(bad), 100); ok {
			t.Errorf("%q read as one JSON value", bad)
		}
	}
}

func TestGroupDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 32000: "32,000", 1048576: "1,048,576", -1234: "-1,234"} {
		if got := GroupDigits(n); got != want {
			t.Errorf("GroupDigits(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestOutline: the text layout a terminal shows keeps the card's: fields
// in the order written, a file's content as its lines under its key, a
// long string on lines of its own, items numbered, and what the budget
// left out said.
func TestOutline(t *testing.T) {
	long := strings.Repeat("word ", 15)
	for _, tc := range []struct {
		name, in string
		budget   int
		want     string
	}{
		{"a file write", `{"path":"notes/plan.md","content":"# Plan\n\nStep one.\n  indented\n"}`, 1000,
			"path: notes/plan.md\ncontent:\n  # Plan\n\n  Step one.\n    indented\n"},
		{"a long line on its own", `{"command":"` + long + `","timeout":30}`, 1000,
			"command:\n  " + long + "\ntimeout: 30"},
		{"nested and numbered", `{"edits":[{"old":"a","new":"b\nc"},"x"],"opts":{"dry":true},"e":"","n":null}`, 1000,
			"edits:\n  1. old: a\n     new:\n       b\n       c\n  2. x\nopts:\n  dry: true\ne: \"\"\nn: null"},
		{"a string alone", `"one\ntwo"`, 1000, "one\ntwo"},
		{"escapes decoded, then made safe", `{"a":"x\u001b[2Jy\u202ez"}`, 1000, "a: xyz"},
		{"what the budget left out", `{"a":"0123456789","b":1,"c":2}`, 5, "a: 0123… and 6 more characters\n… and 2 more fields"},
		{"items left out", `["aa","bb","cc","dd"]`, 4, "1. aa\n2. bb\n… and 2 more items"},
		{"one field left out", `{"a":"xx","b":1}`, 3, "a: xx\n… and 1 more field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _, ok := ReadJSON([]byte(tc.in), tc.budget)
			if !ok {
				t.Fatalf("%s: not read as JSON", tc.in)
			}
			if got := root.Outline(); got != tc.want {
				t.Errorf("%s\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}
