package prompt

import (
	"unicode"
	"unicode/utf8"
)

// keyKind is what a key press means to the prompt.
type keyKind int

const (
	kRune      keyKind = iota // a printable character (key.r)
	kUp                       // ↑, ctrl+p
	kDown                     // ↓, ctrl+n
	kLeft                     // ←
	kRight                    // →
	kHome                     // home, ctrl+a
	kEnd                      // end, ctrl+e
	kPageUp                   // page up
	kPageDown                 // page down
	kEnter                    // enter (CR, or LF from ctrl+j)
	kTab                      // tab
	kShiftTab                 // shift+tab
	kDelete                   // delete (forward)
	kBackspace                // backspace (DEL or BS)
	kEsc                      // esc on its own
	kCtrlC                    // ctrl+c
	kCtrlD                    // ctrl+d
	kCtrlU                    // ctrl+u: clear the line
	kCtrlW                    // ctrl+w: delete a word
)

// key is one decoded key press.
type key struct {
	kind keyKind
	r    rune
}

// keyDecoder turns the bytes a terminal in raw mode sends into key
// presses. Escape sequences (ESC [ … final, ESC O x) become keys or are
// dropped whole, so an unknown sequence never types its letters into a
// field. A lone ESC is ambiguous until more input arrives or a short time
// passes: feed keeps it pending, and flush, called when no byte followed
// in time, turns it into Esc.
type keyDecoder struct {
	pending []byte
	// scanned is how much of pending an incomplete key was read to: a
	// CSI sequence waiting for its final byte is read on from there at
	// the next feed, not from its start, so one that arrives a byte per
	// read (a slow link, a long paste) costs linear time, not quadratic.
	scanned int
}

// feed adds bytes and returns the keys now complete. hasPending reports
// whether an incomplete sequence (or rune) waits for more bytes.
func (d *keyDecoder) feed(p []byte) []key {
	d.pending = append(d.pending, p...)
	var keys []key
	for len(d.pending) > 0 {
		k, n, ok := decodeKey(d.pending, d.scanned)
		if n == 0 {
			d.scanned = len(d.pending) // incomplete: wait for the rest
			break
		}
		d.pending, d.scanned = d.pending[n:], 0
		if ok {
			keys = append(keys, k)
		}
	}
	return keys
}

func (d *keyDecoder) hasPending() bool { return len(d.pending) > 0 }

// flush resolves what is pending once no more bytes came: a lone ESC is
// the Esc key, ESC followed by a character is alt+character (ignored), and
// anything else incomplete is dropped.
func (d *keyDecoder) flush() []key {
	p := d.pending
	d.pending, d.scanned = nil, 0
	if len(p) > 0 && p[0] == 0x1b && len(p) == 1 {
		return []key{{kind: kEsc}}
	}
	return nil
}

// decodeKey decodes the first key of p: n is the bytes it takes (0 when p
// holds only the start of a key), ok is false for bytes that mean nothing
// here. The first scanned bytes of p were read before and held no end of
// the key.
func decodeKey(p []byte, scanned int) (k key, n int, ok bool) {
	switch c := p[0]; c {
	case 0x1b:
		return decodeEscape(p, scanned)
	case '\r', '\n':
		return key{kind: kEnter}, 1, true
	case '\t':
		return key{kind: kTab}, 1, true
	case 0x7f, 0x08:
		return key{kind: kBackspace}, 1, true
	case 0x03:
		return key{kind: kCtrlC}, 1, true
	case 0x04:
		return key{kind: kCtrlD}, 1, true
	case 0x15:
		return key{kind: kCtrlU}, 1, true
	case 0x17:
		return key{kind: kCtrlW}, 1, true
	case 0x10:
		return key{kind: kUp}, 1, true
	case 0x0e:
		return key{kind: kDown}, 1, true
	case 0x01:
		return key{kind: kHome}, 1, true
	case 0x05:
		return key{kind: kEnd}, 1, true
	}
	if p[0] < 0x20 {
		return key{}, 1, false // another control key: nothing to do
	}
	if !utf8.FullRune(p) {
		return key{}, 0, false
	}
	r, size := utf8.DecodeRune(p)
	if r == utf8.RuneError || !unicode.IsPrint(r) {
		return key{}, size, false
	}
	return key{kind: kRune, r: r}, size, true
}

// decodeEscape decodes a sequence starting with ESC, whose first scanned
// bytes hold no final byte.
func decodeEscape(p []byte, scanned int) (key, int, bool) {
	if len(p) < 2 {
		return key{}, 0, false // a lone ESC, so far
	}
	switch p[1] {
	case '[':
		// CSI: parameters and intermediates, then one final byte.
		for i := max(2, scanned); i < len(p); i++ {
			if c := p[i]; c >= 0x40 && c <= 0x7e {
				k, ok := csiKey(string(p[2:i]), c)
				return k, i + 1, ok
			} else if c < 0x20 {
				return key{}, i, false // malformed: drop what came before
			}
		}
		return key{}, 0, false
	case 'O':
		if len(p) < 3 {
			return key{}, 0, false
		}
		k, ok := csiKey("", p[2])
		return k, 3, ok
	case 0x1b:
		// ESC ESC: the first is a lone Esc.
		return key{kind: kEsc}, 1, true
	}
	// ESC and a character: alt+character, which means nothing here.
	_, size := utf8.DecodeRune(p[1:])
	return key{}, 1 + size, false
}

// csiKey maps a CSI (or SS3) sequence to a key.
func csiKey(params string, final byte) (key, bool) {
	switch final {
	case 'A':
		return key{kind: kUp}, true
	case 'B':
		return key{kind: kDown}, true
	case 'C':
		return key{kind: kRight}, true
	case 'D':
		return key{kind: kLeft}, true
	case 'Z':
		return key{kind: kShiftTab}, true
	case 'H':
		return key{kind: kHome}, true
	case 'F':
		return key{kind: kEnd}, true
	case '~':
		switch params {
		case "1", "7":
			return key{kind: kHome}, true
		case "3":
			return key{kind: kDelete}, true
		case "4", "8":
			return key{kind: kEnd}, true
		case "5":
			return key{kind: kPageUp}, true
		case "6":
			return key{kind: kPageDown}, true
		}
	}
	return key{}, false
}
