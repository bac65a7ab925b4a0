package ask

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fieldRank orders the fields of the schema as a model writes them, so
// problems read top to bottom like the input. Unknown fields come last.
var fieldRank = map[string]int{
	"input": 0, "questions": 1, "question": 2, "header": 3, "options": 4,
	"multiSelect": 5, "label": 6, "description": 7,
}

// sortProblems puts problems in path order: question by question, the
// fields of each in schema order, options by index. Decoding and validation
// find problems in two passes; without this, a question's problems would be
// split between the two halves of the list. The sort is stable, so problems
// at one path keep the order they were found in.
func sortProblems(probs []Problem) {
	sort.SliceStable(probs, func(i, j int) bool {
		return comparePaths(probs[i].Path, probs[j].Path) < 0
	})
}

// pathStep is one step of a problem path: a field name and, for an array
// element, its index (-1 for the field itself).
type pathStep struct {
	name  string
	index int
}

func comparePaths(a, b string) int {
	sa, sb := pathSteps(a), pathSteps(b)
	for k := 0; k < len(sa) && k < len(sb); k++ {
		if c := compareSteps(sa[k], sb[k]); c != 0 {
			return c
		}
	}
	return len(sa) - len(sb)
}

func compareSteps(a, b pathStep) int {
	ra, okA := fieldRank[a.name]
	rb, okB := fieldRank[b.name]
	switch {
	case okA && okB && ra != rb:
		return ra - rb
	case okA != okB: // known fields before unknown ones
		if okA {
			return -1
		}
		return 1
	case a.name != b.name:
		return strings.Compare(a.name, b.name)
	}
	return a.index - b.index
}

// pathSteps splits "questions[1].options[2].label" into its steps. An
// unknown field's name may be quoted and contain dots or brackets; it is
// kept whole.
func pathSteps(path string) []pathStep {
	var steps []pathStep
	for path != "" {
		var seg string
		if path[0] == '"' {
			if q, err := strconv.QuotedPrefix(path); err == nil {
				seg, path = q, strings.TrimPrefix(path[len(q):], ".")
				steps = append(steps, pathStep{name: seg, index: -1})
				continue
			}
		}
		seg, path, _ = strings.Cut(path, ".")
		step := pathStep{name: seg, index: -1}
		if open := strings.IndexByte(seg, '['); open > 0 && strings.HasSuffix(seg, "]") {
			if n, err := strconv.Atoi(seg[open+1 : len(seg)-1]); err == nil {
				step = pathStep{name: seg[:open], index: n}
			}
		}
		steps = append(steps, step)
	}
	return steps
}

// ExcerptChars is how many characters of an offending value a message
// quotes. Bad input is often bad by being huge: a message that quoted it
// whole would send a megabyte back to the model or onto a terminal.
const ExcerptChars = 60

// Excerpt quotes s for a message about it: whole when it is at most
// ExcerptChars characters, else its first ExcerptChars characters and its
// length, as "Lorem ipsum…"… (1048576 characters). The quoting escapes
// control characters, escape sequences, invisible format characters and
// invalid UTF-8, so the excerpt is safe on a terminal and shows what a
// look-alike hides. Every message that quotes a value it rejects uses it.
func Excerpt(s string) string {
	cut, n := 0, 0
	for cut < len(s) && n < ExcerptChars {
		_, size := utf8.DecodeRuneInString(s[cut:])
		cut += size
		n++
	}
	if cut == len(s) {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%s… (%d characters)", strconv.Quote(s[:cut]), utf8.RuneCountInString(s))
}
