package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// A search over a folder reads what is under it: with Read allowed and
// Read(secrets) or Read(*.pem) denied, Grep or Glob over the project (its
// path ".", or none) would return the key. Such a search is asked, under
// every mode; one inside a denied folder is denied; one whose folder (or
// filter) cannot reach a denied path runs.
func TestSearchOverDeniedPaths(t *testing.T) {
	proj, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"secrets/key": "KEY", "keys/id.pem": "KEY", "src/main.go": "package main", "README.md": "x"} {
		p := filepath.Join(proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	search := func(tool string, in map[string]string) Request {
		b, _ := json.Marshal(in)
		return Request{Tool: tool, Input: b, Dir: proj}
	}
	type row struct {
		deny, tool string
		in         map[string]string
		want       string
	}
	rows := []row{
		{"secrets", "Grep", map[string]string{"pattern": "KEY", "path": "."}, "asked"},
		{"secrets", "Grep", map[string]string{"pattern": "KEY"}, "asked"},
		{"secrets", "Grep", map[string]string{"pattern": "KEY", "path": proj}, "asked"},
		{"secrets", "Grep", map[string]string{"pattern": "KEY", "path": "src/.."}, "asked"},
		{"secrets", "Glob", map[string]string{"pattern": "**/*"}, "asked"},
		{"secrets", "Glob", map[string]string{"pattern": "**/key", "path": "."}, "asked"},
		{"secrets", "LS", map[string]string{"path": proj}, "asked"},
		{"secrets", "Grep", map[string]string{"pattern": "KEY", "path": "secrets"}, "denied"},
		{"secrets", "Glob", map[string]string{"pattern": "secrets/*"}, "denied"},
		{"secrets", "Glob", map[string]string{"pattern": "../secrets/*", "path": "src"}, "denied"},
		{"secrets", "Grep", map[string]string{"pattern": "KEY", "path": "src"}, "asked"}, // Read(secrets) is a name at any depth: src/secrets/
		{"/secrets", "Grep", map[string]string{"pattern": "KEY", "path": "src"}, "allowed"},
		{"/secrets", "Grep", map[string]string{"pattern": "KEY", "glob": "src/**/*.go"}, "allowed"}, // the filter starts in src
		{"/secrets", "Glob", map[string]string{"pattern": "src/**/*.go"}, "allowed"},
		{"/secrets", "Glob", map[string]string{"pattern": "*/key"}, "asked"},
		{"/config/*.pem", "Glob", map[string]string{"pattern": "*/*.go"}, "allowed"}, // no name is both *.pem and *.go
		{"/config/*.pem", "Glob", map[string]string{"pattern": "*/*"}, "asked"},
		{"/config/*.pem", "Glob", map[string]string{"pattern": "**/*.go"}, "asked"}, // config/a.pem/b.go
		{"*.pem", "Grep", map[string]string{"pattern": "KEY", "path": "."}, "asked"},
		{"*.pem", "Grep", map[string]string{"pattern": "KEY", "path": "keys"}, "asked"},
		{"*.pem", "Grep", map[string]string{"pattern": "KEY", "glob": "*.pem"}, "asked"},
		{"*.pem", "Glob", map[string]string{"pattern": "**/*.go"}, "asked"}, // a folder keys.pem/ would hold .go files
		{"*.pem", "Grep", map[string]string{"pattern": "KEY", "path": "src/main.go"}, "allowed"},
		{"//etc/**", "Grep", map[string]string{"pattern": "KEY", "path": "."}, "allowed"},
		{"//etc/**", "Grep", map[string]string{"pattern": "KEY", "path": "/"}, "asked"},
		{"//etc/**", "Glob", map[string]string{"pattern": "/etc/*"}, "denied"},
		{"//etc/**", "Glob", map[string]string{"pattern": "/*/passwd"}, "asked"},
	}
	for _, r := range rows {
		deny := mustRules(t, "Read("+r.deny+")")
		for how, p := range map[string]Policy{
			"allow Read":        {Allow: mustRules(t, "Read"), Deny: deny},
			"bypassPermissions": {Deny: deny, Mode: ModeBypass},
			"an ask rule":       {Allow: mustRules(t, "Read"), Ask: deny},
		} {
			want := r.want
			if how == "an ask rule" && want == "denied" {
				want = "asked"
			}
			req := search(r.tool, r.in)
			if got := decided(p, req); got != want {
				t.Errorf("%s, Read(%s) denied: %s %s: %s, want %s", how, r.deny, r.tool, req.Input, got, want)
			}
			grant := Grants{r.tool: {Allow: true, Scope: ScopeSession, By: ByPerson, Why: "the user"}}
			if d, ok := (Policy{Deny: deny}).Decide(req, grant); ok && d.Allow && want != "allowed" {
				t.Errorf("a grant for %s, Read(%s) denied: %s allowed", r.tool, r.deny, req.Input)
			}
		}
	}
}

// An allow rule covers a search only when it covers everything under the
// folder searched.
func TestSearchNeedsTheWholeFolderAllowed(t *testing.T) {
	for _, c := range []struct {
		allow, path, want string
	}{
		{"Read(src/**)", "src", "allowed"},
		{"Read(src/)", "src", "allowed"},
		{"Read(src/**)", "src/pkg", "allowed"},
		{"Read(src/*)", "src", "asked"},
		{"Read(src)", "src", "asked"},
		{"Read(src/**)", ".", "asked"},
		{"Read(**)", ".", "allowed"},
	} {
		p := Policy{Allow: mustRules(t, c.allow)}
		req := Request{Tool: "Grep", Input: json.RawMessage(`{"pattern":"x","path":"` + c.path + `"}`), Dir: "/home/me/proj"}
		if got := decided(p, req); got != c.want {
			t.Errorf("%s, Grep in %s: %s, want %s", c.allow, c.path, got, c.want)
		}
	}
}

// Deciding whether two patterns can name one path costs the product of
// their lengths at most, whatever they hold.
func TestSegsIntersectHostile(t *testing.T) {
	long := make([]string, 4000)
	for i := range long {
		long[i] = "**"
	}
	if !segsIntersect(long, append(long, "x")) {
		t.Error("** everywhere meets x")
	}
	if segsIntersect([]string{"a", "*.go"}, []string{"a", "*.pem"}) {
		t.Error("*.go met *.pem")
	}
	if !segsIntersect([]string{"**", "*.pem", "**"}, []string{"**", "*.go"}) {
		t.Error("a folder named *.pem holding a .go file was ruled out")
	}
}
