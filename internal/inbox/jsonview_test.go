package inbox

import (
	"strings"
	"testing"
)

// flat writes a jsonNode back as one line, to compare with what a test
// expects: keys in the order shown, strings quoted, what was left out as
// "+N".
func flat(n jsonNode) string {
	var b strings.Builder
	var walk func(jsonNode)
	walk = func(n jsonNode) {
		switch n.Kind {
		case jsonObject:
			b.WriteString("{")
			for i, f := range n.Fields {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(f.Key + ": ")
				walk(f.Value)
			}
		case jsonArray:
			b.WriteString("[")
			for i, it := range n.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				walk(it)
			}
		case jsonString:
			b.WriteString(`"` + n.Text + `"`)
			if n.Block {
				b.WriteString("(block)")
			}
		default:
			b.WriteString(n.Text)
		}
		if n.Left > 0 {
			b.WriteString(" +" + digits(n.Left))
		}
		switch n.Kind {
		case jsonObject:
			b.WriteString("}")
		case jsonArray:
			b.WriteString("]")
		}
	}
	walk(n)
	return b.String()
}

func TestReadableJSON(t *testing.T) {
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
			root, cut, ok := readableJSON([]byte(tc.in), tc.budget)
			if !ok {
				t.Fatalf("%s: not read as JSON", tc.in)
			}
			if got := flat(root); got != tc.want || cut != tc.cut {
				t.Errorf("%s\n got %s (cut %v)\nwant %s (cut %v)", tc.in, got, cut, tc.want, tc.cut)
			}
		})
	}
	for _, bad := range []string{``, `{"a":`, `{"a":1} {"b":2}`, `not json`, `{"a":1]`} {
		if _, _, ok := readableJSON([]byte(bad), 100); ok {
			t.Errorf("%q read as one JSON value", bad)
		}
	}
}

func TestDigits(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 32000: "32,000", 1048576: "1,048,576", -1234: "-1,234"} {
		if got := digits(n); got != want {
			t.Errorf("digits(%d) = %q, want %q", n, got, want)
		}
	}
}
