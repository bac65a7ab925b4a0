package ask

import (
	"sort"
	"strconv"
	"strings"
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
