package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The template engines are kept to what askuser cannot avoid.
// text/template (and html/template, which runs on it) calls methods by
// name, through reflection, so a program that links it keeps every
// exported method of every type it can reach (README "Development").
//
//   - html/template is not linked: the inbox's pages are written by Go code
//     (internal/inbox/page/html.go) with escapers held to html/template's own.
//   - text/template is linked, and only urfave/cli v2 imports it: its
//     default help printer, which a package variable names, so the linker
//     keeps it even though askuser prints its own help (a stock v2 App with
//     HideHelp links it too). urfave/cli v2 is a fixed dependency, built
//     from the module proxy as published; no other package may add a
//     second reason to link the engine.
//
// Tests may use the engines: only what the binary links counts.
func TestTemplateEnginesConfined(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs",
		"-f", "{{.ImportPath}} {{join .Imports \" \"}}", module).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 50 {
		t.Fatalf("go list found %d dependencies of %s; the test is looking in the wrong place", len(lines), module)
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		pkg, imports := fields[0], fields[1:]
		if pkg == "html/template" {
			t.Errorf("askuser links html/template (find who imports it: go list -deps -f '{{.ImportPath}}: {{.Imports}}' -tags urfave_cli_no_docs . | grep html/template)")
		}
		if strings.HasPrefix(pkg, "text/template") || strings.HasPrefix(pkg, "html/template") {
			continue // the engine's own packages
		}
		if slices.Contains(imports, "text/template") && pkg != "github.com/urfave/cli/v2" {
			t.Errorf("%s imports text/template; only urfave/cli v2 may (its help printer, which askuser cannot unlink)", pkg)
		}
	}
}

// Every module askuser builds is the one its version names, as the module
// proxy serves it: no replace directive swaps in a copy or a fork, which
// would leave askuser maintaining another project's code unseen.
func TestNoModuleReplaced(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{if .Replace}}=> {{.Replace.Path}} {{.Replace.Version}}{{end}}", "all").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 20 {
		t.Fatalf("go list -m found %d modules; the test is looking in the wrong place", len(lines))
	}
	for _, line := range lines {
		if strings.Contains(line, "=>") {
			t.Errorf("go.mod replaces %s: build the module as published", line)
		}
	}
}

// No package of askuser's own compiles a regular expression when the
// process starts: a package-level var set from regexp.MustCompile (or
// Compile) runs in the package's initialiser, in every askuser process,
// a hook's included, whether or not the expression is ever used. Compile
// it at first use (sync.OnceValue) instead. Only what the binary links
// counts.
func TestNoRegexpCompiledAtStart(t *testing.T) {
	linked := map[string]bool{}
	out, err := exec.Command("go", "list", "-deps", "-tags", "urfave_cli_no_docs", module).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		linked[p] = true
	}
	checked := 0
	fset := token.NewFileSet()
	for _, p := range listPackages(t) {
		if !linked[p.ImportPath] {
			continue
		}
		for _, f := range p.GoFiles {
			path := filepath.Join(p.Dir, f)
			af, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, decl := range af.Decls {
				if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
					if pos, ok := compilesRegexp(g); ok {
						t.Errorf("%s: a regular expression is compiled at start; compile it at first use (sync.OnceValue)", fset.Position(pos))
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d files; the test is looking in the wrong place", checked)
	}
}

// compilesRegexp finds a call of regexp.Compile or MustCompile in a var
// declaration that runs at start: outside any function literal, or in
// one called on the spot.
func compilesRegexp(g *ast.GenDecl) (token.Pos, bool) {
	var found token.Pos
	var visit func(ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if lit, ok := n.Fun.(*ast.FuncLit); ok {
				ast.Inspect(lit.Body, visit)
			}
		case *ast.FuncLit:
			return false // runs when called, not at start
		case *ast.SelectorExpr:
			name := n.Sel.Name
			if id, ok := n.X.(*ast.Ident); ok && id.Name == "regexp" && (strings.HasPrefix(name, "Compile") || strings.HasPrefix(name, "MustCompile")) && !found.IsValid() {
				found = n.Pos()
			}
		}
		return true
	}
	ast.Inspect(g, visit)
	return found, found.IsValid()
}
