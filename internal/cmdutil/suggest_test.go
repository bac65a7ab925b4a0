package cmdutil

import (
	"slices"
	"testing"
)

func TestNearest(t *testing.T) {
	flags := []string{"frontend", "f", "answers", "a", "on-timeout", "on-unanswered", "verbose", "v", "help", "h"}
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"frontnd", []string{"frontend"}},               // a letter left out
		{"anwsers", []string{"answers"}},                // two letters swapped: one edit
		{"on", []string{"on-timeout", "on-unanswered"}}, // a prefix of two
		{"verbos", []string{"verbose"}},                 // a prefix
		{"no-such-flag", nil},                           // nothing near: no guess
		{"x", nil},                                      // one letter is too little to guess from
		{"hlep", []string{"help"}},
		{"zzzzzzz", nil},
	} {
		if got := Nearest(tc.typed, flags); !slices.Equal(got, tc.want) {
			t.Errorf("nearest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
	commands := []string{"ask", "run", "resume", "sessions", "serve"}
	for typed, want := range map[string][]string{"rn": {"run"}, "sesions": {"sessions"}, "frobnicate": nil, "se": {"sessions", "serve"}} {
		if got := Nearest(typed, commands); !slices.Equal(got, want) {
			t.Errorf("nearest(%q) = %q, want %q", typed, got, want)
		}
	}
}
