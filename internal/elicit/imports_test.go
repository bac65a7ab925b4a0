package elicit_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestALeafOnAsk keeps the package a leaf: askuser hook uses it without
// the MCP SDK, so it imports the standard library and ask only.
func TestALeafOnAsk(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 3 {
		t.Fatalf("found %v (%v); the test is looking in the wrong place", files, err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if strings.Contains(strings.Split(path, "/")[0], ".") && path != "github.com/askuser/askuser/ask" {
				t.Errorf("%s imports %s; internal/elicit imports the standard library and ask only", f, path)
			}
		}
	}
}
