// The pty and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

// Package termtest runs prompts and programs on a real pseudo-terminal
// whose output is drawn by a terminal emulator (vt10x), for tests that
// assert on what a person sees, at a given width and height.
//
// vt10x keeps no scrollback, so Screen records each line as it scrolls
// off the top: a test can count every copy of a question that ever
// reached the terminal's history, not only what the screen shows last.
// Everything written is drawn as it arrives, by a goroutine reading the
// terminal, so a program is never blocked on a full terminal and a test
// waits for a screen state (Term.Wait) rather than for bytes.
//
// Text is what most tests read (Lines, String, Line); Cells gives the
// screen as drawn, each character with its colours and attributes, for a
// test that checks styling or renders a picture of the terminal.
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package termtest

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// wrapNext is vt10x's cursor state bit for "the next character wraps to
// a new line" (cursorWrapNext, unexported there).
const wrapNext = 2

// vt10x's bits of a glyph's Mode (attrReverse… , unexported there).
const (
	attrReverse   = 1 << 0
	attrUnderline = 1 << 1
	attrBold      = 1 << 2
	attrItalic    = 1 << 4
)

// Screen is an emulated terminal screen with the scrollback it would have.
type Screen struct {
	mu         sync.Mutex
	vt         vt10x.Terminal
	opts       []vt10x.TerminalOption
	scrollback []string
	raw        strings.Builder
	part       []byte // the start of a rune split between writes
	writes     int
}

func newScreen(cols, rows int, opts ...vt10x.TerminalOption) *Screen {
	return &Screen{vt: vt10x.New(append(opts, vt10x.WithSize(cols, rows))...), opts: opts}
}

// Write draws p, one character at a time, recording the top line before
// a character scrolls it away: a line feed on the bottom line, or a
// character that wraps past the bottom line's last column.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	s.raw.Write(p)
	data := append(s.part, p...)
	s.part = nil
	for len(data) > 0 {
		if !utf8.FullRune(data) {
			s.part = append([]byte(nil), data...)
			break
		}
		r, n := utf8.DecodeRune(data)
		cols, rows := s.vt.Size()
		cur := s.vt.Cursor()
		atBottom := cur.Y == rows-1
		switch {
		case atBottom && (r == '\n' || r == '\v' || r == '\f'):
			s.scrollback = append(s.scrollback, s.lineLocked(0))
		case atBottom && r >= 0x20 && r != 0x7f && cur.X == cols-1 && cur.State&wrapNext != 0:
			s.scrollback = append(s.scrollback, s.lineLocked(0))
		}
		_, _ = s.vt.Write(data[:n])
		data = data[n:]
	}
	return len(p), nil
}

// Resize changes the screen's size as a terminal that does not re-wrap
// lines does: rows that no longer fit below the cursor are lost, those
// above it scroll into the scrollback.
func (s *Screen) Resize(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, old := s.vt.Size()
	if slide := s.vt.Cursor().Y - rows + 1; slide > 0 && rows < old {
		for y := 0; y < slide; y++ {
			s.scrollback = append(s.scrollback, s.lineLocked(y))
		}
	}
	s.vt.Resize(cols, rows)
}

// ResizeReflow changes the screen's size as terminals that re-wrap lines
// do (VTE, iTerm2, kitty): a line wider than the new width continues on
// the rows below it, the cursor moves with its text, and what no longer
// fits on the screen scrolls into the scrollback. Colours are not kept.
func (s *Screen) ResizeReflow(cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, oldRows := s.vt.Size()
	cur := s.vt.Cursor()
	var lines []string
	curRow, curCol, last := 0, 0, 0
	for y := 0; y < oldRows; y++ {
		rs := []rune(s.lineLocked(y))
		if y == cur.Y {
			curRow, curCol = len(lines)+cur.X/cols, cur.X%cols
		}
		if len(rs) == 0 {
			lines = append(lines, "")
			continue
		}
		for i := 0; i < len(rs); i += cols {
			lines = append(lines, string(rs[i:min(i+cols, len(rs))]))
		}
		last = len(lines)
	}
	lines = lines[:max(last, curRow+1)]
	if over := len(lines) - rows; over > 0 {
		s.scrollback = append(s.scrollback, lines[:over]...)
		lines, curRow = lines[over:], curRow-over
	}
	hidden := !s.vt.CursorVisible()
	s.vt = vt10x.New(append(s.opts, vt10x.WithSize(cols, rows))...)
	var b strings.Builder
	b.WriteString(strings.Join(lines, "\r\n"))
	fmt.Fprintf(&b, "\x1b[%d;%dH", curRow+1, curCol+1)
	if hidden {
		b.WriteString("\x1b[?25l")
	}
	_, _ = s.vt.Write([]byte(b.String()))
}

func (s *Screen) lineLocked(y int) string {
	cols, _ := s.vt.Size()
	var b strings.Builder
	for x := 0; x < cols; x++ {
		c := s.vt.Cell(x, y).Char
		if c == 0 {
			c = ' '
		}
		b.WriteRune(c)
	}
	return strings.TrimRight(b.String(), " ")
}

// Cell is one character cell of the screen as vt10x draws it. FG and BG
// are the colours shown: an ANSI or xterm palette index below 256, a
// 24-bit RGB value below 1<<24, or vt10x.DefaultFG / vt10x.DefaultBG for
// the terminal's own colours, in either place. vt10x has already applied
// the attributes that change colours: reverse video swapped FG and BG,
// and bold turned the eight ANSI colours bright. Char is ' ' for a cell
// never written.
type Cell struct {
	Char                             rune
	FG, BG                           vt10x.Color
	Bold, Underline, Italic, Reverse bool
}

// Cells is the screen, row by row, every cell of each.
func (s *Screen) Cells() [][]Cell {
	s.mu.Lock()
	defer s.mu.Unlock()
	cols, rows := s.vt.Size()
	out := make([][]Cell, rows)
	for y := range out {
		out[y] = make([]Cell, cols)
		for x := range out[y] {
			g := s.vt.Cell(x, y)
			c := Cell{Char: g.Char, FG: g.FG, BG: g.BG,
				Bold: g.Mode&attrBold != 0, Underline: g.Mode&attrUnderline != 0,
				Italic: g.Mode&attrItalic != 0, Reverse: g.Mode&attrReverse != 0}
			if c.Char == 0 {
				c.Char = ' '
			}
			out[y][x] = c
		}
	}
	return out
}

// Lines is what the screen shows, line by line, without trailing spaces.
func (s *Screen) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, rows := s.vt.Size()
	out := make([]string, rows)
	for y := range out {
		out[y] = s.lineLocked(y)
	}
	return out
}

// String is the screen as text, without trailing blank lines.
func (s *Screen) String() string {
	return strings.TrimRight(strings.Join(s.Lines(), "\n"), "\n")
}

// Scrollback is every line that has scrolled off the top, oldest first.
func (s *Screen) Scrollback() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.scrollback...)
}

// Count is how many lines of the scrollback and the screen hold sub.
func (s *Screen) Count(sub string) int {
	n := 0
	for _, l := range append(s.Scrollback(), s.Lines()...) {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

// Line returns the first line of the screen that holds sub, and whether
// there is one.
func (s *Screen) Line(sub string) (string, bool) {
	for _, l := range s.Lines() {
		if strings.Contains(l, sub) {
			return l, true
		}
	}
	return "", false
}

// Raw is every byte written, as written.
func (s *Screen) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.raw.String()
}

// CursorVisible reports whether the cursor is shown.
func (s *Screen) CursorVisible() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vt.CursorVisible()
}

// Title is the window title the program set, if any.
func (s *Screen) Title() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vt.Title()
}

// Size is the screen's size.
func (s *Screen) Size() (cols, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.vt.Size()
}

// Dump draws the screen in a frame as wide as the terminal, for failure
// messages and reports.
func (s *Screen) Dump() string {
	cols, _ := s.Size()
	var b strings.Builder
	b.WriteString("┌" + strings.Repeat("─", cols) + "┐\n")
	lines := strings.Split(s.String(), "\n")
	for _, l := range lines {
		pad := cols - utf8.RuneCountInString(l)
		b.WriteString("│" + l + strings.Repeat(" ", max(pad, 0)) + "│\n")
	}
	b.WriteString("└" + strings.Repeat("─", cols) + "┘")
	return b.String()
}

func (s *Screen) changes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}
