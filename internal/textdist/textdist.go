// Package textdist measures how far apart two words are, for the "did you
// mean" of a mistyped flag, command, key or answer.
package textdist

// Distance is the optimal-string-alignment distance between a and b, in
// runes: insertions, deletions, substitutions and transpositions of
// neighbours each count one, so "anwsers" is one edit from "answers". It
// keeps three rows of the table, so a long word costs time, not memory.
func Distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	before, prev, cur := make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(y)]
}
