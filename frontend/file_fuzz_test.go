package frontend

import (
	"context"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"

	"github.com/askuser/askuser/ask"
)

// maxParseAlloc bounds what one parse may allocate; the worst files within
// the limits allocate about 60 MB (BenchmarkLoadFileWorst).
const maxParseAlloc = 256 << 20

// FuzzLoadAnswers checks, for any bytes: ParseFile neither panics nor
// allocates more than maxParseAlloc; a rejected file is a *FileError
// (ErrBadAnswers) whose every line is path:line:col: message; a file the
// limits let through is nested and sized within them as goccy's parser
// itself sees it, so the token check cannot be fooled into letting a deep
// file reach the parser; and asking a question from an accepted file does
// not panic.
//
// CI runs the seeds below as a normal test. To fuzz, bound the memory of
// each worker so that a regression shows as a failure rather than a swapping
// machine:
//
//	GOMEMLIMIT=512MiB go test ./frontend/ -run '^$' -fuzz FuzzLoadAnswers -fuzztime 10m -parallel 1 -test.fuzzminimizetime 30s
//
// A failing input is saved under testdata/fuzz/FuzzLoadAnswers and from then
// on runs as a seed.
func FuzzLoadAnswers(f *testing.F) {
	example, err := os.ReadFile("../testdata/answers.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(example)
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		file, err := ParseFile(testPath, data)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > maxParseAlloc {
			t.Errorf("ParseFile of %d bytes allocated %d MB", len(data), n>>20)
		}
		if err != nil {
			checkFileError(t, err)
		} else {
			for _, qs := range [][]ask.Question{{qDB}, {qDB, qFeatures, qPkg, qRegion}} {
				_, _ = file.Ask(context.Background(), ask.Request{ID: "f", Questions: qs})
			}
		}
		checkParserSees(t, data)
	})
}

// hostileSeeds are small forms of the inputs the limits are for.
var hostileSeeds = []string{
	normalAnswers,
	"",
	"answers:\n  Database: " + strings.Repeat("[", 40),
	"answers:\n  Database: " + strings.Repeat("{a: ", 40),
	"answers:\n  Database:\n    " + strings.Repeat("- ", 40) + "x",
	"answers:\n" + strings.Repeat("  ? a\n", 20),
	indented(20),
	"answers:\n  Database: \"" + strings.Repeat("[", 40) + "\"\n",
	"answers:\n  Database: '" + strings.Repeat("[", 40) + "'\n",
	"answers:\n  Database: x " + strings.Repeat("[", 40) + "\n",
	"answers:\n  Database: PostgreSQL # " + strings.Repeat("[", 40) + "\n",
	"answers:\n  Database: [a,#b]\n" + strings.Repeat("  X: [a,#b]\n", 20),
	"answers:\n  Database:\n    other: |\n      " + strings.Repeat("[", 40) + "\n",
	"answers:\n  Database:\n    other: >-\n     x\n    " + strings.Repeat("[", 40) + "\n",
	"answers:\n  Database: \"x\n  " + strings.Repeat("[", 40) + "\"\n",
	"answers:\n  &a Database: !t " + strings.Repeat("[", 40) + "\n",
	"answers:\r  Database: SQLite\r  Region: {skip: true}\r",
	"answers:\n\tDatabase: SQLite\n",
	"---\nanswers: {}\n---\nanswers: {}\n",
	"answers: [" + strings.Repeat("a,", MaxFileItems) + "a]\n",
	"answers:\n  Database: {other: \"" + strings.Repeat("x", MaxFileScalarBytes+1) + "\"}\n",
	"\xef\xbb\xbfanswers:\n  Database: SQLite\n",
	"\xff\xfea\x00n\x00s\x00",
	"\xfe\xff\x00a\x00n",
	"\xff\xfe\x00\x00a\x00\x00\x00",
	"a\x00n\x00s\x00w\x00",
	"answers:\n  Database: SQ\x00Lite\n",
	"answers:\n  Database: SQ\xffLite\n",
	"- a\n- b\n",
	"just a string",
}

// indented nests n mappings by indentation alone.
func indented(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	return b.String()
}

// checkFileError checks that err is a *FileError whose lines all name the
// file and a place in it.
func checkFileError(t *testing.T, err error) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, ErrBadAnswers) || len(fe.Problems) == 0 {
		t.Fatalf("error %T %.200v; want a *FileError wrapping ErrBadAnswers", err, err)
	}
	for _, p := range fe.Problems {
		if p.Path != testPath || p.Line < 1 || p.Column < 1 || p.Message == "" {
			t.Errorf("problem %+v lacks the file, line, column or message", p)
		}
	}
}

// checkParserSees parses data as parseFile does and, when the limits let it
// through and goccy parses it, measures the tree goccy built.
func checkParserSees(t *testing.T, data []byte) {
	t.Helper()
	p := &fileParser{path: testPath}
	text, ok := p.text(data, int64(len(data)))
	if !ok {
		return
	}
	tokens := lexer.Tokenize(string(text))
	if !p.shape(tokens) {
		return
	}
	tree, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return
	}
	for _, d := range tree.Docs {
		if depth, items := measure(d.Body); depth > MaxFileDepth || items > MaxFileItems {
			t.Fatalf("the limits let through a tree %d deep with %d items in one collection:\n%.500q", depth, items, data)
		}
	}
}

// measure returns how deeply n's lists and mappings nest and the most
// entries or items any one of them holds.
func measure(n ast.Node) (depth, items int) {
	var kids []ast.Node
	switch v := n.(type) {
	case nil:
		return 0, 0
	case *ast.MappingNode:
		depth, items = 1, len(v.Values)
		for _, mv := range v.Values {
			kids = append(kids, mv.Key, mv.Value)
		}
	case *ast.MappingValueNode:
		kids = []ast.Node{v.Key, v.Value}
		depth, items = 1, 1
	case *ast.SequenceNode:
		depth, items = 1, len(v.Values)
		kids = v.Values
	case *ast.MappingKeyNode:
		kids = []ast.Node{v.Value}
	case *ast.AnchorNode:
		kids = []ast.Node{v.Value}
	case *ast.TagNode:
		kids = []ast.Node{v.Value}
	}
	most := 0
	for _, k := range kids {
		d, i := measure(k)
		most, items = max(most, d), max(items, i)
	}
	return depth + most, items
}
