package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// linkWorld is a project with links out of it, on the real file system:
//
//	root/home/.config/            exists; autostart/ in it does not
//	root/outside/                 a folder outside the project
//	root/proj/src/notes.md     -> root/home/.config/autostart/evil.desktop (missing, and so is its folder)
//	root/proj/src/draft.md     -> root/outside/draft.md (missing)
//	root/proj/src/chain        -> next (missing, in src) -> root/outside/chained.txt (missing)
//	root/proj/src/rel          -> ../../outside/rel.txt (missing, relative)
//	root/proj/src/lib          -> root/outside/lib (exists)
//	root/proj/src/loop         -> loop
type linkWorld struct{ root, home, proj, outside string }

func newLinkWorld(t *testing.T) linkWorld {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := linkWorld{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj"), outside: filepath.Join(root, "outside")}
	for _, d := range []string{filepath.Join(w.home, ".config"), filepath.Join(w.proj, "src"), filepath.Join(w.outside, "lib")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := filepath.Join(w.proj, "src")
	for link, target := range map[string]string{
		"notes.md": filepath.Join(w.home, ".config", "autostart", "evil.desktop"),
		"draft.md": filepath.Join(w.outside, "draft.md"),
		"chain":    "next",
		"next":     filepath.Join(w.outside, "chained.txt"),
		"rel":      "../../outside/rel.txt",
		"lib":      filepath.Join(w.outside, "lib"),
		"loop":     "loop",
	} {
		if err := os.Symlink(target, filepath.Join(src, link)); err != nil {
			t.Skipf("no symbolic links here: %v", err)
		}
	}
	t.Setenv("HOME", w.home)
	return w
}

// pathInput is a call's input naming p, in the field its tool uses.
func pathInput(tool, p string) json.RawMessage {
	field := map[string]string{"NotebookEdit": "notebook_path", "Grep": "path", "Glob": "path", "LS": "path"}[tool]
	if field == "" {
		field = "file_path"
	}
	in, _ := json.Marshal(map[string]string{field: p})
	return in
}

func decided(p Policy, req Request) string {
	d, ok := p.Decide(req, nil)
	switch {
	case !ok:
		return "asked"
	case d.Allow:
		return "allowed"
	}
	return "denied"
}

// A link is followed whether or not what it leads to exists: writing
// through src/notes.md creates the file it names, outside the project.
// Links are resolved one name at a time before .. is applied, as the
// kernel does: src/lib/.. is the folder src/lib leads into. Every tool
// whose input names a path is checked.
func TestPathRulesFollowDanglingLinks(t *testing.T) {
	w := newLinkWorld(t)
	// The kernel agrees: each of these lands outside the project.
	for name, lands := range map[string]string{
		"src/draft.md":      filepath.Join(w.outside, "draft.md"),
		"src/chain":         filepath.Join(w.outside, "chained.txt"),
		"src/rel":           filepath.Join(w.outside, "rel.txt"),
		"src/lib/../esc.md": filepath.Join(w.outside, "esc.md"),
	} {
		if err := os.WriteFile(w.proj+"/"+name, []byte("x"), 0o644); err != nil { // not Join, which would remove ..
			t.Fatalf("writing %s: %v", name, err)
		}
		if _, err := os.Stat(lands); err != nil {
			t.Fatalf("writing %s did not land at %s: %v", name, lands, err)
		}
		if err := os.Remove(lands); err != nil {
			t.Fatal(err)
		}
	}
	escapes := []string{"src/notes.md", "src/draft.md", "src/chain", "src/rel", "src/lib/../escaped", "src/lib/../../proj/../outside/x", "src/loop"}
	tools := []string{"Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "Grep", "Glob", "LS"}
	for _, tool := range tools {
		family := "Edit"
		if tool == "Read" || tool == "Grep" || tool == "Glob" || tool == "LS" {
			family = "Read"
		}
		allow := Policy{Allow: mustRules(t, family+"(src/**)")}
		denyOut := Policy{Allow: mustRules(t, family), Deny: mustRules(t, family+"(//"+w.outside[1:]+"/**) "+family+"(~/.config/**)")}
		bypass := Policy{Deny: denyOut.Deny, Mode: ModeBypass}
		for _, p := range escapes {
			req := Request{Tool: tool, Input: pathInput(tool, p), Dir: w.proj}
			if got := decided(allow, req); got == "allowed" {
				t.Errorf("%s %s under %s(src/**): allowed; it leads out of src", tool, p, family)
			}
			want := "denied"
			if p == "src/loop" {
				want = "asked" // the kernel refuses it; the rules cannot say where it leads
			}
			if got := decided(denyOut, req); got != want {
				t.Errorf("%s %s, with a deny rule on where it leads: %s, want %s", tool, p, got, want)
			}
			if got := decided(bypass, req); got != want {
				t.Errorf("%s %s, bypassPermissions with a deny rule on where it leads: %s, want %s", tool, p, got, want)
			}
		}
		// What stays in src is still allowed.
		for _, p := range []string{"src/a.go", "src/new/b.go", "src/lib/../a.go/../b.go"} {
			want := "allowed"
			if p == "src/lib/../a.go/../b.go" {
				want = "asked" // src/lib/.. is outside
			}
			if got := decided(allow, Request{Tool: tool, Input: pathInput(tool, p), Dir: w.proj}); got != want {
				t.Errorf("%s %s under %s(src/**): %s, want %s", tool, p, family, got, want)
			}
		}
	}
}

// A path that names more links than the kernel follows, or loops, is
// read as unreadable, never as the text written.
func TestResolveLinksLoops(t *testing.T) {
	w := newLinkWorld(t)
	if _, ok := resolveLinks(filepath.Join(w.proj, "src", "loop", "x")); ok {
		t.Error("a link to itself was resolved")
	}
	got, ok := resolveLinks(filepath.Join(w.proj, "src", "missing", "..", "a"))
	if want := filepath.Join(w.proj, "src", "a"); !ok || got != want {
		t.Errorf("a folder not yet made, then ..: %q %v, want %q (a tool making folders makes it, then leaves it)", got, ok, want)
	}
}
