package ask

import (
	"strings"
	"testing"
)

// TestFoldKeySimplePath checks that FoldKey's shortcut for simple keys
// gives what the full normalisation gives.
func TestFoldKeySimplePath(t *testing.T) {
	full := func(s string) string {
		return strings.ToLower(strings.Join(strings.Fields(BareLabel(skeleton(Display(s)))), " "))
	}
	inputs := []string{
		"", " ", "PostgreSQL", "Tailwind CSS", "ESLint + Prettier", "a  b", " lead", "trail ",
		"PostgreSQL (Recommended)", "x (recommended)", "(Recommended)", "Lint, format", "tab\there",
		"new\nline", "\x1b[31mred\x1b[0m", "Ünïcode", "ÉCOLE", "ﬁle", "K\u212a", "a\u00a0b", "~!@#$%^&*()_+{}|:<>?",
	}
	simple := 0
	for _, s := range inputs {
		if _, ok := simpleKey(s); ok {
			simple++
		}
		if got, want := FoldKey(s), full(s); got != want {
			t.Errorf("FoldKey(%q) = %q, want %q", s, got, want)
		}
	}
	if simple < 5 {
		t.Errorf("only %d inputs took the shortcut; the test no longer covers it", simple)
	}
}

func FuzzFoldKeySimplePath(f *testing.F) {
	for _, s := range []string{"PostgreSQL", "a  b", " x", "y (Recommended)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := strings.ToLower(strings.Join(strings.Fields(BareLabel(skeleton(Display(s)))), " "))
		if got := FoldKey(s); got != want {
			t.Errorf("FoldKey(%q) = %q, want %q", s, got, want)
		}
	})
}

func FuzzSameKey(f *testing.F) {
	for _, p := range [][2]string{{"PostgreSQL", "postgresql"}, {"ſ", "S"}, {"K", "\u212a"}, {"a b", "A  B"}, {"x (Recommended)", "X"}, {"Lint, format", "lint,  format "}} {
		f.Add(p[0], p[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := sameKey(a, b), FoldKey(a) == FoldKey(b); got != want {
			t.Errorf("sameKey(%q, %q) = %v, want %v", a, b, got, want)
		}
	})
}
