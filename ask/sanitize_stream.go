package ask

import (
	"io"
	"unicode/utf8"
)

// DisplayWriter passes text to a person's terminal made safe as Display
// makes it, but keeping line breaks and tabs, for streamed text such as a
// model's reply or a server's error: escape sequences (CSI, OSC, DCS and
// friends, 7- and 8-bit) are removed whole even when a write ends inside
// one, control characters and bidirectional overrides are dropped, "\r\n"
// becomes "\n", and invalid UTF-8 becomes U+FFFD. It is safe for one
// writer at a time; wrap it for concurrent use.
type DisplayWriter struct {
	w     io.Writer
	state escState
	part  []byte // the start of a rune split across writes
	out   []byte
}

type escState int

const (
	stText   escState = iota
	stEsc             // after ESC
	stEscInt          // after ESC and intermediate bytes
	stCSI             // in a control sequence
	stString          // in an OSC/DCS/SOS/PM/APC string
	stStrEsc          // in a string, after ESC (ESC \ ends it)
)

// NewDisplayWriter returns a DisplayWriter writing to w.
func NewDisplayWriter(w io.Writer) *DisplayWriter { return &DisplayWriter{w: w} }

// Write sanitises p and writes what is safe of it. It reports len(p) when
// the underlying write succeeds: dropped bytes count as written.
func (d *DisplayWriter) Write(p []byte) (int, error) {
	d.out = d.out[:0]
	data := p
	if len(d.part) > 0 {
		data = append(append([]byte(nil), d.part...), p...)
		d.part = d.part[:0]
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(data[i:]) {
				d.part = append(d.part, data[i:]...) // wait for the rest of the rune
				break
			}
			r = utf8.RuneError
		}
		i += max(size, 1)
		d.rune(r)
	}
	if len(d.out) == 0 {
		return len(p), nil
	}
	if _, err := d.w.Write(d.out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (d *DisplayWriter) rune(r rune) {
	switch d.state {
	case stEsc:
		switch {
		case r == '[':
			d.state = stCSI
		case r == ']' || r == 'P' || r == 'X' || r == '^' || r == '_':
			d.state = stString
		case r >= 0x20 && r <= 0x2f:
			d.state = stEscInt
		default:
			d.state = stText // a two-character sequence such as ESC c
		}
		return
	case stEscInt:
		if r < 0x20 || r > 0x2f {
			d.state = stText
		}
		return
	case stCSI:
		if r >= 0x40 && r <= 0x7e {
			d.state = stText
			return
		}
		if r >= 0x20 && r < 0x40 {
			return
		}
		d.state = stText // malformed: the sequence ends before this rune
	case stString:
		switch r {
		case 0x07, 0x9c:
			d.state = stText
		case 0x1b:
			d.state = stStrEsc
		}
		return
	case stStrEsc:
		if r == '\\' {
			d.state = stText
			return
		}
		d.state = stString // ESC not followed by \: still inside the string
		return
	}
	switch {
	case r == 0x1b:
		d.state = stEsc
	case r == 0x9b:
		d.state = stCSI
	case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
		d.state = stString
	case r == '\n' || r == '\t':
		d.out = append(d.out, byte(r))
	case r == '\v' || r == '\f':
		d.out = append(d.out, '\n')
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isBidiControl(r):
		// dropped, "\r" among them: "\r\n" becomes "\n"
	default:
		d.out = utf8.AppendRune(d.out, r)
	}
}
