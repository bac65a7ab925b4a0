package mcp

// jsonScan follows a JSON value byte by byte, so that a value spread over
// lines is checked once per line added, in time proportional to the line:
// decoding everything held again at each line (jsonStatus) made a value
// over n lines cost n times its length, and a few MB of short lines held
// standard input for hours. It answers what jsonStatus answers about the
// bytes fed so far (TestJSONScanAgreesWithDecoder holds the two together);
// the value is decoded once, when it is whole.
type jsonScan struct {
	state scanState
	// stack holds '{' or '[' for each container open.
	stack []byte
	// key is set while the string being read is an object's key.
	key bool
	// rest is what a literal (true, false, null) still needs; hex counts
	// the digits a \u escape still needs.
	rest string
	hex  int
}

type scanState int

const (
	scanValue        scanState = iota // a value is due
	scanValueOrClose                  // after '[': a value or ']'
	scanKeyOrClose                    // after '{': a key or '}'
	scanKey                           // after ',' in an object: a key
	scanColon                         // after a key
	scanAfter                         // after a value in a container: ',' or its close
	scanDone                          // the value is whole; only white space may follow
	scanString
	scanEscape
	scanLiteral
	scanMinus    // after '-'
	scanZero     // a number's leading 0
	scanInt      // its other integer digits
	scanDot      // after '.'
	scanFrac     // fraction digits
	scanExp      // after 'e'
	scanExpSign  // after 'e+' or 'e-'
	scanExpDigit // exponent digits
	scanInvalid
)

// feed reads b.
func (s *jsonScan) feed(b []byte) {
	for _, c := range b {
		if s.state == scanInvalid {
			return
		}
		s.step(c)
	}
}

// status says what the bytes fed so far are, as jsonStatus would: one
// whole value (a number ends where the input does), the start of one, or
// neither.
func (s *jsonScan) status() int {
	switch s.state {
	case scanInvalid:
		return valueInvalid
	case scanDone:
		return valueWhole
	case scanZero, scanInt, scanFrac, scanExpDigit:
		if len(s.stack) == 0 {
			return valueWhole
		}
	}
	return valueUnfinished
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *jsonScan) step(c byte) {
	switch s.state {
	case scanValue, scanValueOrClose:
		switch {
		case isJSONSpace(c):
		case c == ']' && s.state == scanValueOrClose:
			s.close()
		default:
			s.begin(c)
		}
	case scanKeyOrClose, scanKey:
		switch {
		case isJSONSpace(c):
		case c == '}' && s.state == scanKeyOrClose:
			s.close()
		case c == '"':
			s.state, s.key = scanString, true
		default:
			s.state = scanInvalid
		}
	case scanColon:
		switch {
		case isJSONSpace(c):
		case c == ':':
			s.state = scanValue
		default:
			s.state = scanInvalid
		}
	case scanAfter:
		s.after(c)
	case scanDone:
		if !isJSONSpace(c) {
			s.state = scanInvalid
		}
	case scanString, scanEscape:
		s.inString(c)
	case scanLiteral:
		if s.rest == "" || c != s.rest[0] {
			s.state = scanInvalid
			return
		}
		if s.rest = s.rest[1:]; s.rest == "" {
			s.ended()
		}
	default:
		s.number(c)
	}
}

// begin starts a value with its first byte.
func (s *jsonScan) begin(c byte) {
	switch {
	case c == '{':
		s.stack, s.state = append(s.stack, '{'), scanKeyOrClose
	case c == '[':
		s.stack, s.state = append(s.stack, '['), scanValueOrClose
	case c == '"':
		s.state, s.key = scanString, false
	case c == 't':
		s.state, s.rest = scanLiteral, "rue"
	case c == 'f':
		s.state, s.rest = scanLiteral, "alse"
	case c == 'n':
		s.state, s.rest = scanLiteral, "ull"
	case c == '-':
		s.state = scanMinus
	case c == '0':
		s.state = scanZero
	case c >= '1' && c <= '9':
		s.state = scanInt
	default:
		s.state = scanInvalid
	}
}

// ended is the end of a value: the container it is in goes on, or the
// whole value is done.
func (s *jsonScan) ended() {
	if len(s.stack) == 0 {
		s.state = scanDone
		return
	}
	s.state = scanAfter
}

// close ends the innermost container.
func (s *jsonScan) close() {
	s.stack = s.stack[:len(s.stack)-1]
	s.ended()
}

// after reads the byte after a value inside a container.
func (s *jsonScan) after(c byte) {
	open := s.stack[len(s.stack)-1]
	switch {
	case isJSONSpace(c):
	case c == ',' && open == '{':
		s.state = scanKey
	case c == ',':
		s.state = scanValue
	case c == '}' && open == '{', c == ']' && open == '[':
		s.close()
	default:
		s.state = scanInvalid
	}
}

func (s *jsonScan) inString(c byte) {
	switch {
	case s.hex > 0:
		if !isHex(c) {
			s.state = scanInvalid
			return
		}
		s.hex--
	case s.state == scanEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			s.hex = 4
		default:
			s.state = scanInvalid
			return
		}
		s.state = scanString
	case c == '\\':
		s.state = scanEscape
	case c == '"' && s.key:
		s.state = scanColon
	case c == '"':
		s.ended()
	case c < 0x20:
		s.state = scanInvalid
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number reads a byte of a number, or the byte after it.
func (s *jsonScan) number(c byte) {
	digit := c >= '0' && c <= '9'
	switch s.state {
	case scanMinus:
		switch {
		case c == '0':
			s.state = scanZero
		case digit:
			s.state = scanInt
		default:
			s.state = scanInvalid
		}
		return
	case scanInt, scanFrac, scanExpDigit:
		if digit {
			return
		}
	case scanDot:
		s.state = scanFrac
		if !digit {
			s.state = scanInvalid
		}
		return
	case scanExp:
		switch {
		case c == '+' || c == '-':
			s.state = scanExpSign
		case digit:
			s.state = scanExpDigit
		default:
			s.state = scanInvalid
		}
		return
	case scanExpSign:
		s.state = scanExpDigit
		if !digit {
			s.state = scanInvalid
		}
		return
	}
	// After the integer part, a fraction or an exponent may follow; else
	// the number has ended and c is read after it.
	switch {
	case c == '.' && (s.state == scanZero || s.state == scanInt):
		s.state = scanDot
	case (c == 'e' || c == 'E') && (s.state == scanZero || s.state == scanInt || s.state == scanFrac):
		s.state = scanExp
	default:
		s.ended()
		if s.state == scanDone {
			s.step(c)
		} else {
			s.after(c)
		}
	}
}
