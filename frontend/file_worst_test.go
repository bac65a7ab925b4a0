package frontend

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// limitError matches the errors of the limits in file_limits.go and
// file_shape.go.
var limitError = regexp.MustCompile(`passes the \d+ KiB limit|nested more than \d+ deep|more than \d+ (entries|items|YAML documents)|a value of \d+ bytes`)

// normalAnswers is a typical answers file, the yardstick for the worst ones.
const normalAnswers = `unanswered: error
answers:
  Database: PostgreSQL
  Which features should we enable?: [TypeScript, Tailwind CSS]
  Package Mgr: {other: bun}
  Region: {skip: true}
`

// fillTo repeats unit after head until the file is nearly size bytes.
func fillTo(size int, head, unit, tail string) string {
	n := (size - len(head) - len(tail)) / len(unit)
	return head + strings.Repeat(unit, n) + tail
}

// groups writes head, then entries made by entry(i) until the file is nearly
// MaxFileBytes, in mappings of MaxFileItems entries under keys g0, g1, ...
func groups(head string, entry func(i int) string) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		e := entry(i % MaxFileItems)
		if i%MaxFileItems == 0 {
			e = fmt.Sprintf("  g%d:\n", i/MaxFileItems) + e
		}
		if b.Len()+len(e) > MaxFileBytes {
			return b.String()
		}
		b.WriteString(e)
	}
}

// worstFiles are files at the size limit shaped to be as slow as possible for
// goccy: the most tokens, the longest mappings and lists, the deepest
// nesting allowed, the error paths found slowest; and files that break a
// limit only at their end, so that all of them is lexed first. ok says
// whether the file is within every limit (it may still be invalid YAML or a
// wrong answers file).
func worstFiles() []struct {
	name string
	data string
	ok   bool
} {
	// The file, answers:, a group and its list hold the nesting below.
	nest := strings.Repeat("[", MaxFileDepth-4) + strings.Repeat("]", MaxFileDepth-4)
	flowList := "[" + strings.Repeat("a,", MaxFileItems-1) + "a]"
	unclosed := func(open string) string {
		tail := "  A: " + strings.Repeat(open+strings.Repeat("a, ", MaxFileItems-1), MaxFileDepth-2)
		return fillTo(MaxFileBytes-len(tail), "answers:\n", "#\n", "") + tail
	}
	return []struct {
		name string
		data string
		ok   bool
	}{
		{"mappings of the most entries", groups("answers:\n", func(i int) string { return "    a: b\n" }), true},
		{"distinct keys", groups("answers:\n", func(i int) string { return fmt.Sprintf("    k%d: v\n", i) }), true},
		{"flow lists of the most items", groups("answers:\n", func(i int) string { return "    - " + flowList + "\n" }), true},
		{"flow mappings", groups("answers:\n", func(i int) string { return "    - {a: b, c: d, e: f}\n" }), true},
		{"deepest nesting, repeated", groups("answers:\n", func(i int) string { return "    - " + nest + "\n" }), true},
		{"unclosed lists", unclosed("["), true},
		{"unclosed mappings", unclosed("{"), true},
		{"comments", fillTo(MaxFileBytes, "answers:\n", "#\n", ""), true},
		{"documents", strings.Repeat("---\na: b\n", MaxFileItems), true},
		{"aliases", groups("x: &a [x]\nanswers:\n", func(i int) string { return "    - [" + strings.Repeat("*a, ", 15) + "*a]\n" }), true},
		{"anchors", fillTo(MaxFileBytes, "a: ", "&a ", "x"), true},
		{"complex keys", groups("answers:\n", func(i int) string { return "    ? a\n" }), true},
		{"block lists", groups("answers:\n", func(i int) string { return "    - a\n" }), true},
		{"long scalars", fillTo(MaxFileBytes, "answers:\n", "  a: "+strings.Repeat("x", MaxFileScalarBytes-8)+"\n", ""), true},
		{"one long plain line", fillTo(MaxFileBytes, "answers:\n  A: ", "x ", ""), false},
		{"unclosed single quote", fillTo(MaxFileBytes, "answers:\n  A: '", "x\n", ""), false},
		{"tabs", fillTo(MaxFileBytes, "answers:\n  A: ", "\t", "x\n"), true},
		{"too deep at the end", fillTo(MaxFileBytes-100, "answers:\n", "#\n", "") + "  A: " + strings.Repeat("[", 90), false},
		{"too many items at the end", fillTo(MaxFileBytes, "answers:\n  A: [", "a,", "a]\n"), false},
		{"too large", fillTo(MaxFileBytes+1, "answers:\n  A: [", "a,", "a]\n") + "aa", false},
	}
}

// TestFileWorstWithinLimits checks that each worst file is what it claims:
// within the limits (it reaches the parser) or stopped by one of them.
func TestFileWorstWithinLimits(t *testing.T) {
	for _, w := range worstFiles() {
		_, err := ParseFile(testPath, []byte(w.data))
		limited := err != nil && limitError.MatchString(err.Error())
		if limited == w.ok {
			t.Errorf("%s (%d bytes): stopped by a limit %v, want %v: %.300v", w.name, len(w.data), limited, !w.ok, err)
		}
		if err != nil && !errors.Is(err, ErrBadAnswers) {
			t.Errorf("%s: %v is not ErrBadAnswers", w.name, err)
		}
	}
}

// BenchmarkLoadFileWorst times the worst files within the limits against a
// normal answers file in the same run (the x-normal metric). Run it with
//
//	go test -run '^$' -bench LoadFileWorst -benchmem ./frontend/
func BenchmarkLoadFileWorst(b *testing.B) {
	normal := []byte(normalAnswers)
	start, n := time.Now(), 0
	for ; n < 200 || time.Since(start) < 100*time.Millisecond; n++ {
		if _, err := ParseFile(testPath, normal); err != nil {
			b.Fatal(err)
		}
	}
	perNormal := float64(time.Since(start).Nanoseconds()) / float64(n)
	b.Run("normal", func(b *testing.B) {
		for b.Loop() {
			_, _ = ParseFile(testPath, normal)
		}
	})
	for _, w := range worstFiles() {
		data := []byte(w.data)
		b.Run(w.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			start := time.Now()
			for b.Loop() {
				_, _ = ParseFile(testPath, data)
			}
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/perNormal, "x-normal")
		})
	}
}
