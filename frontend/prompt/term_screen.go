package prompt

import (
	"fmt"
	"io"
	"strings"
)

// Control sequences the interactive prompt writes; the plain prompt
// writes none of them.
const (
	seqHideCursor = "\x1b[?25l"
	seqShowCursor = "\x1b[?25h"
	seqEraseDown  = "\x1b[J"
)

// screen draws frames in place at the bottom of what the terminal shows,
// without the alternate screen, so the agent's text stays above the
// question.
//
// Invariants that keep the scrollback free of copies of the question: a
// frame is never taller than the screen and no line reaches the last
// column (frame guarantees both), and the cursor rests at the end of the
// frame's last line, never below it. Redrawing then moves up within the
// screen, erases down and writes: the screen scrolls only when a frame
// grows, and then what scrolls away is the text above the frame, once.
// Only the lines from the first one that changed are rewritten, so a
// ticking clock rewrites the footer alone.
type screen struct {
	w     io.Writer
	color bool
	drawn []string // the frame on the terminal, rendered
	cells []int    // each drawn line's width in cells
	// The terminal's size when it was drawn.
	width, height int
}

// draw replaces the frame on the terminal with frame, for a terminal
// width columns wide and height rows high.
func (s *screen) draw(frame []line, width, height int) error {
	rendered := make([]string, len(frame))
	cells := make([]int, len(frame))
	for i, l := range frame {
		rendered[i], cells[i] = l.render(s.color), l.width()
	}
	var b strings.Builder
	from := 0
	switch {
	case s.drawn == nil:
		b.WriteString("\r")
	case width != s.width || height != s.height:
		// The terminal may have re-wrapped the old frame to the new
		// width, or scrolled it on a shorter screen: move up over every
		// row it can now take (the terminal stops the cursor at the
		// top) and draw it all again.
		b.WriteString(s.up(s.rowsAt(width)-1) + seqEraseDown)
	default:
		for from < len(rendered) && from < len(s.drawn) && rendered[from] == s.drawn[from] {
			from++
		}
		if from == len(rendered) && from == len(s.drawn) {
			return nil // nothing changed
		}
		if from == len(rendered) { // shorter: keep the last line to rest on
			from--
		}
		b.WriteString(s.up(len(s.drawn)-1-from) + seqEraseDown)
	}
	b.WriteString(strings.Join(rendered[from:], "\r\n"))
	s.drawn, s.cells, s.width, s.height = rendered, cells, width, height
	_, err := io.WriteString(s.w, b.String())
	return err
}

// up moves the cursor n rows up, to the first column.
func (s *screen) up(n int) string {
	if n <= 0 {
		return "\r"
	}
	return fmt.Sprintf("\r\x1b[%dA", n)
}

// rowsAt is how many rows the drawn frame takes on a terminal now width
// columns wide, if the terminal re-wrapped its lines. A terminal that
// does not re-wrap cuts them instead, and moving up over the extra rows
// erases as many lines of the text above the frame from the screen;
// the other way round, copies of the question would be left behind.
func (s *screen) rowsAt(width int) int {
	n := 0
	for _, c := range s.cells {
		n += max(1, (c+width-1)/max(width, 1))
	}
	return n
}

// withdraw erases the frame and leaves the cursor where it began.
func (s *screen) withdraw() error {
	if s.drawn == nil {
		return nil
	}
	seq := s.up(len(s.drawn)-1) + seqEraseDown
	s.drawn, s.cells = nil, nil
	_, err := io.WriteString(s.w, seq)
	return err
}

// print withdraws the frame and writes lines for good, above where the
// next frame will be drawn.
func (s *screen) print(lines []line) error {
	if err := s.withdraw(); err != nil {
		return err
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.render(s.color) + "\r\n")
	}
	_, err := io.WriteString(s.w, b.String())
	return err
}
