//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package termtest

import (
	"testing"

	"github.com/hinshun/vt10x"
)

// TestCells: each cell keeps the colours and attributes it was drawn in,
// with reverse video already applied to its colours.
func TestCells(t *testing.T) {
	s := newScreen(10, 2)
	_, _ = s.Write([]byte("\x1b[1;38;5;105mA\x1b[0m\x1b[4;32mB\x1b[0m\x1b[7mC\x1b[0m\x1b[1;31mD\x1b[0m\r\n\x1b[3mE"))
	cells := s.Cells()
	if len(cells) != 2 || len(cells[0]) != 10 {
		t.Fatalf("cells are %d rows of %d, want 2 rows of 10", len(cells), len(cells[0]))
	}
	for i, want := range []Cell{
		{Char: 'A', FG: 105, BG: vt10x.DefaultBG, Bold: true},
		{Char: 'B', FG: vt10x.Green, BG: vt10x.DefaultBG, Underline: true},
		{Char: 'C', FG: vt10x.DefaultBG, BG: vt10x.DefaultFG, Reverse: true},
		{Char: 'D', FG: vt10x.LightRed, BG: vt10x.DefaultBG, Bold: true}, // bold brightens the eight ANSI colours
		{Char: ' ', FG: vt10x.DefaultFG, BG: vt10x.DefaultBG},
	} {
		if got := cells[0][i]; got != want {
			t.Errorf("cell %d = %+v, want %+v", i, got, want)
		}
	}
	if got, want := cells[1][0], (Cell{Char: 'E', FG: vt10x.DefaultFG, BG: vt10x.DefaultBG, Italic: true}); got != want {
		t.Errorf("the second line's first cell = %+v, want %+v", got, want)
	}
}
