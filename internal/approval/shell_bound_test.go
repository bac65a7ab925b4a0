package approval

import (
	"runtime"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/askuser/askuser/internal/approval/shellread"
)

// allocatedBy is the memory f allocates: a measure of the work it does
// that does not depend on the machine's speed or load.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Reading a command line costs a few parses of it, whatever its shape:
// measured against the shell parser's own work on the same text, in the
// same run. A plain line with many words cost 45 parses (each word's
// source printed through a new 4 KB buffer); wrappers whose every later
// word may be the command, each reading a long argument as code, made
// 20 KB cost 9 GB (8,000 parses).
func TestShellReadingIsBounded(t *testing.T) {
	text := strings.Repeat("a b ", 5000) // 20 KB, 10,000 words
	parse := allocatedBy(func() {
		_, _ = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("git status "+text), "")
	})
	long := quoted(text) // the same text as one argument
	for name, c := range map[string]struct {
		line  string
		times uint64 // the bound, in parses
	}{
		"plain":           {"git status " + text, 8},
		"opaque wrappers": {strings.Repeat("ssh ", 15) + long, 16},
		"watch":           {strings.Repeat("watch ", 15) + long, 16},
		"xargs":           {strings.Repeat("xargs -I{} ", 8) + long, 16},
		"long words":      {strings.Repeat("ssh ", 15) + strings.Repeat(long+" ", 4), 4 * 16},
		"nested bash -c":  {nestBashC(12, text), 16},
		"wrapped":         {strings.Repeat("nice ", 15) + "git status " + text, 16},
		"functions fed":   {"f() { " + strings.Repeat("f <<< x; ", 8) + "}; f <<< x; git status " + text, 16},
		"unknown runner":  {"runit " + text, 8},
		"unknown runners": {strings.Repeat("runit ", 15) + long, 16},
		"guessed code":    {"runit " + strings.Repeat(long+" ", 4), 4 * 16},
		"sed and awk":     {"sed " + quoted(strings.Repeat("s/a/b/;", 3000)) + " | awk " + quoted(strings.Repeat("{print $1}", 2000)), 8},
		"arithmetic":      {"x=1; echo $((" + strings.Repeat("x+", 3000) + "1))", 16},
	} {
		got := allocatedBy(func() { shellread.Read(c.line) })
		t.Logf("%s: %.1f parses", name, float64(got)/float64(parse))
		if got > c.times*parse {
			t.Errorf("%s: reading %d bytes allocated %d, %.0f times parsing the text once (%d); want at most %d times",
				name, len(c.line), got, float64(got)/float64(parse), parse, c.times)
		}
	}
}
