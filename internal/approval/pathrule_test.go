package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A link inside an allowed folder that leads out of it is not covered by
// the folder's allow rule; a deny rule on where it leads still denies.
func TestPathRulesFollowLinks(t *testing.T) {
	root := t.TempDir()
	proj, outside := filepath.Join(root, "proj"), filepath.Join(root, "outside")
	for _, d := range []string{filepath.Join(proj, "src"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(proj, "src", "link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(filepath.Join(proj, "src"), filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	write := func(p string) Request {
		in, _ := json.Marshal(map[string]string{"file_path": p})
		return Request{Tool: "Write", Input: in, Dir: proj}
	}
	allow := mustRules(t, "Write(src/**)")
	deny := mustRules(t, "Write(//"+outside[1:]+"/**)")
	for _, tc := range []struct {
		policy Policy
		path   string
		want   string
	}{
		{Policy{Allow: allow}, "src/a.go", "allowed"},
		{Policy{Allow: allow}, "src/link/a.go", "asked"},                      // leads out of src
		{Policy{Allow: allow}, filepath.Join(root, "alias", "a.go"), "asked"}, // written outside src, though it lands there
		{Policy{Deny: deny}, "src/link/new/a.go", "denied"},                   // where it leads is denied, even for a file not yet made
		{Policy{Deny: deny}, "src/a.go", "asked"},
	} {
		d, decided := tc.policy.Decide(write(tc.path), nil)
		got := "asked"
		if decided {
			got = map[bool]string{true: "allowed", false: "denied"}[d.Allow]
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.path, got, tc.want)
		}
	}
}

// A hostile path or pattern costs little and never matches by accident.
func TestPathRulesHostile(t *testing.T) {
	long := "a/"
	for i := 0; i < 5000; i++ {
		long += "b/"
	}
	pp, _ := pathPatternOf("**/**/**/**/**/**/**/**/x", "", "/p", realDir)
	if pp.touches(callPath{lexical: "/p/" + long + "y", real: "/p/" + long + "y"}) {
		t.Error("a pattern ending in x matched a path ending in y")
	}
	if _, err := ParseRule("Read(src/[a)", "x"); err == nil {
		t.Error("a malformed pattern was accepted")
	}
	if _, ok := readPath("a\x00b", "/p"); ok {
		t.Error("a path with a NUL was read")
	}
}

// Reading a long path that does not exist costs in proportion to its
// length: four times the folders, about four times the work (allocation,
// measured at two lengths in the same run). Finding how much of it exists
// went up one folder at a time, re-reading the path from the root each
// time: 40 KB took seconds, and a hook's 16 MiB input would not finish.
func TestPathReadingIsBounded(t *testing.T) {
	work := func(folders int) uint64 {
		p := filepath.Join(t.TempDir(), "missing") + strings.Repeat("/x", folders)
		return allocatedBy(func() {
			if got, ok := readPath(p, "/"); !ok || got.real != p {
				t.Errorf("readPath(%.40q…) = %.40q…, %v; want the path as written", p, got.real, ok)
			}
		})
	}
	small, large := work(2000), work(8000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Errorf("4 times the folders cost %.0f times the work (%d bytes allocated, %d for a quarter); want about 4", ratio, large, small)
	}
}

// A deny rule holds where a path cannot be read: with no home folder
// known, ~/.ssh/id_rsa matches no rule here, but the host, which finds the
// home folder in the password database, still reads it. Under
// bypassPermissions such a call is asked, never allowed.
func TestDenyHoldsWhereAPathCannotBeRead(t *testing.T) {
	t.Setenv("HOME", "")
	deny := Policy{Deny: mustRules(t, "Read(~/.ssh/**)"), Mode: ModeBypass}
	for _, p := range []string{"~/.ssh/id_rsa", "~/.ssh/\x00"} {
		req := Request{Tool: "Read", Input: []byte(mustJSONString(t, map[string]string{"file_path": p})), Dir: "/home/me/proj"}
		if d, decided := deny.Decide(req, nil); decided && d.Allow {
			t.Errorf("%q: allowed (%s); want it asked", p, d.Why)
		}
	}
}
