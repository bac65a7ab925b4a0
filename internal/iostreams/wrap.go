package iostreams

import (
	"io"
	"os"
	"unicode"
	"unicode/utf8"

	"golang.org/x/term"
	"golang.org/x/text/width"
)

// wordWrapper breaks the lines written to a terminal at word boundaries,
// so a line longer than the terminal is never cut mid-word by the
// terminal's own wrap: a word that would cross the right edge starts the
// next line, indented as far as the line it continues (a list item's
// text stays under its text). It sees text already sanitised (no escape
// sequences). A word longer than a whole line starts a line of its own,
// and the terminal wraps it.
//
// A word is placed once a space or a line break ends it, or at the end of
// each Write. For streamed text (a model's reply, a few characters at a
// time) hold keeps the word being written across writes, so a word split
// between two deltas is still wrapped whole; whoever streams must then end
// with a line break, which writes everything held (askuser run's printer
// ends every reply so before anything else is shown).
type wordWrapper struct {
	w     io.Writer
	width func() int // the terminal's width now; <= 0 writes as is
	on    func() bool
	hold  bool
	// verbatim is set while Verbatim writes: nothing is broken, but the
	// column is kept, so the lines after go on wrapping correctly.
	verbatim bool

	col     int    // cells on the current line
	indent  int    // the current line's leading spaces, for its continuations
	leading bool   // only spaces so far on this line
	gap     []byte // the spaces after the last word placed
	gapW    int
	word    []byte // the word being written
	wordW   int
	part    []byte // the start of a rune split across writes
	out     []byte
}

func newWordWrapper(w io.Writer, widthNow func() int, on func() bool, hold bool) *wordWrapper {
	return &wordWrapper{w: w, width: widthNow, on: on, hold: hold, leading: true}
}

// Write wraps p; it reports len(p) when the underlying write succeeds.
func (ww *wordWrapper) Write(p []byte) (int, error) {
	if !ww.on() && len(ww.word) == 0 && len(ww.gap) == 0 && len(ww.part) == 0 {
		ww.reset()
		return ww.w.Write(p)
	}
	ww.out = ww.out[:0]
	data := p
	if len(ww.part) > 0 {
		data = append(append([]byte(nil), ww.part...), p...)
		ww.part = ww.part[:0]
	}
	w := ww.width()
	if ww.verbatim {
		w = 0 // place breaks nothing at width 0
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 && !utf8.FullRune(data[i:]) {
			ww.part = append(ww.part, data[i:]...)
			break
		}
		ww.rune(r, data[i:i+size], w)
		i += size
	}
	if !ww.hold {
		ww.place(w)
		ww.flushGap()
	}
	if len(ww.out) > 0 {
		if _, err := ww.w.Write(ww.out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

func (ww *wordWrapper) reset() {
	ww.col, ww.indent, ww.leading = 0, 0, true
}

func (ww *wordWrapper) rune(r rune, raw []byte, w int) {
	switch {
	case r == '\n':
		ww.place(w)
		ww.gap, ww.gapW = ww.gap[:0], 0 // trailing spaces show nothing
		ww.out = append(ww.out, '\n')
		ww.reset()
	case r == '\r':
		ww.place(w)
		ww.flushGap()
		ww.out = append(ww.out, '\r')
		ww.reset()
	case r == ' ' || r == '\t':
		cells := 1
		if r == '\t' {
			cells = 8 - (ww.col+ww.gapW)%8
		}
		if ww.leading {
			ww.out = append(ww.out, raw...)
			ww.col += cells
			ww.indent += cells
			return
		}
		ww.place(w)
		ww.gap = append(ww.gap, raw...)
		ww.gapW += cells
	default:
		ww.leading = false
		ww.word = append(ww.word, raw...)
		ww.wordW += cellWidth(r)
	}
}

// place writes the word held back, on this line if it fits, else on the
// next, indented as this one.
func (ww *wordWrapper) place(w int) {
	if len(ww.word) == 0 {
		return
	}
	indent := ww.indent
	if indent > w/2 {
		indent = 0
	}
	if w > 0 && ww.col > ww.indent && ww.col+ww.gapW+ww.wordW > w {
		ww.out = append(ww.out, '\n')
		for range indent {
			ww.out = append(ww.out, ' ')
		}
		ww.col = indent
		ww.gap, ww.gapW = ww.gap[:0], 0
	}
	ww.flushGap()
	ww.out = append(ww.out, ww.word...)
	ww.col += ww.wordW
	if w > 0 && ww.col > w { // a word longer than the line: the terminal wrapped it
		ww.col %= w
	}
	ww.word, ww.wordW = ww.word[:0], 0
}

func (ww *wordWrapper) flushGap() {
	ww.out = append(ww.out, ww.gap...)
	ww.col += ww.gapW
	ww.gap, ww.gapW = ww.gap[:0], 0
}

// cellWidth is how many terminal cells r takes: two for East Asian wide
// and fullwidth characters, none for combining marks, else one.
func cellWidth(r rune) int {
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == '\u200b' {
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// WordWrap returns a writer to the terminal f that breaks lines at word
// boundaries at f's width, for text written straight to a terminal
// rather than through ErrOut (what resume shows above the prompt it
// draws there). The text must already be safe to show (ask.Display).
func WordWrap(f *os.File) io.Writer {
	width := func() int {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil {
			return w
		}
		return 0
	}
	return newWordWrapper(f, width, func() bool { return true }, false)
}
