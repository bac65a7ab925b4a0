package textdist

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"run", "run", 0}, {"rn", "run", 1}, {"anwsers", "answers", 1},
		{"frontnd", "frontend", 1}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"abc", "", 3}, {"é", "e", 1},
		{"ab", "ba", 1}, {"abcd", "badc", 2}, {"ca", "abc", 3}, {"timeuot", "timeout", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (it is symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}
