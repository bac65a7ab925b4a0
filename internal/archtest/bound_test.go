package archtest

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bound on a product package: more files or lines than this and a
// room has become a drawer, to be split by meaning.
const (
	maxPackageFiles = 30
	maxPackageLines = 4000
)

// testSupport are the packages that exist for tests: fakes of the chat
// platforms, of a model provider and of the stores, the real clients'
// installer, the terminal rig and the harnesses. They are linked into no
// binary (TestTestSupportIsNotLinked), their doc says they are test
// support (TestTestSupportSaysSo), and the bound is for product code.
var testSupport = []string{
	"ask/asktest",
	"internal/channel/channeltest",
	"internal/channel/slack/slackfake",
	"internal/channel/telegram/telegramfake",
	"internal/channel/whatsapp/whatsappfake",
	"internal/clients",
	"internal/cmdutil/cmdtest",
	"internal/fakeprovider",
	"internal/store/pgtest",
	"internal/store/storetest",
	"internal/termtest",
}

func isTestSupport(rel string) bool {
	for _, s := range testSupport {
		if rel == s {
			return true
		}
	}
	return false
}

// sourceFiles are the non-test Go files of the package in dir, whatever
// system or build tag they are for.
func sourceFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// TestPackageBound: no product package has more than 30 non-test Go files
// or 4,000 lines of them.
func TestPackageBound(t *testing.T) {
	checked := 0
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if isTestSupport(rel) {
			continue
		}
		files := sourceFiles(t, p.Dir)
		lines := 0
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines += bytes.Count(b, []byte("\n"))
		}
		checked++
		if len(files) > maxPackageFiles || lines > maxPackageLines {
			t.Errorf("%s has %d files and %d lines of non-test Go; a product package stays within %d files and %d lines: split it by meaning",
				p.ImportPath, len(files), lines, maxPackageFiles, maxPackageLines)
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d packages; the test is looking in the wrong place", checked)
	}
}

// TestTestSupportSaysSo: each test-support package's doc says it is test
// support, so no one takes a fake for product code.
func TestTestSupportSaysSo(t *testing.T) {
	dirs := map[string]string{}
	for _, p := range listPackages(t) {
		dirs[strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")] = p.Dir
	}
	for _, rel := range testSupport {
		dir, ok := dirs[rel]
		if !ok {
			t.Errorf("%s is listed as test support but is gone: drop it from the list", rel)
			continue
		}
		doc := ""
		fset := token.NewFileSet()
		for _, f := range sourceFiles(t, dir) {
			af, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if af.Doc != nil {
				doc += af.Doc.Text()
			}
		}
		if !strings.Contains(strings.Join(strings.Fields(strings.ToLower(doc)), " "), "test support") {
			t.Errorf("%s: its package doc does not say it is test support", rel)
		}
	}
}

// TestTestSupportIsNotLinked: no product package depends on a test-support
// package (a test channel is linked only under the askuser_testchan build
// tag, which go list does not set).
func TestTestSupportIsNotLinked(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		if isTestSupport(rel) || strings.HasPrefix(rel, "scripts/") {
			continue
		}
		for _, d := range p.Deps {
			if dep, ok := strings.CutPrefix(d, module+"/"); ok && isTestSupport(dep) && !isTestSupportKit(rel, dep) {
				t.Errorf("%s depends on %s, which is test support", rel, dep)
			}
		}
	}
}

// isTestSupportKit: a channel's fake may share channeltest's kit (the
// fakes themselves are test support; this is for completeness).
func isTestSupportKit(rel, dep string) bool {
	return strings.HasSuffix(rel, "fake") && dep == "internal/channel/channeltest"
}
