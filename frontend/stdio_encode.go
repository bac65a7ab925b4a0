package frontend

import (
	"strconv"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// Writing the question line without reflection. Every Ask writes one, and
// encoding/json's walk over ask.Question by reflection was a sixth of a
// round trip; this is about three times faster. The output is byte for
// byte what encodeLine writes (TestQuestionLineBytes fills every field of
// the types by reflection and compares, so a field added to ask.Question
// fails it until it is written here too).

// line returns l as one line ending in "\n", as encodeLine(l) would.
func (l questionLine) line() []byte {
	b := make([]byte, 0, l.sizeHint())
	b = append(b, `{"type":`...)
	b = appendJSONString(b, l.Type)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, l.ID)
	b = append(b, `,"questions":`...)
	if l.Questions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Questions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuestion(b, &l.Questions[i])
		}
		b = append(b, ']')
	}
	if l.SessionID != "" {
		b = append(b, `,"session_id":`...)
		b = appendJSONString(b, l.SessionID)
	}
	return append(b, "}\n"...)
}

// sizeHint is a little more than the line's length when nothing needs
// escaping, so the line is built in one allocation.
func (l questionLine) sizeHint() int {
	n := 64 + len(l.ID) + len(l.SessionID)
	for _, q := range l.Questions {
		n += 64 + len(q.Question) + len(q.Header)
		for _, o := range q.Options {
			n += 32 + len(o.Label) + len(o.Description)
		}
	}
	return n
}

func appendQuestion(b []byte, q *ask.Question) []byte {
	b = append(b, `{"question":`...)
	b = appendJSONString(b, q.Question)
	b = append(b, `,"header":`...)
	b = appendJSONString(b, q.Header)
	b = append(b, `,"options":`...)
	if q.Options == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, o := range q.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"label":`...)
			b = appendJSONString(b, o.Label)
			b = append(b, `,"description":`...)
			b = appendJSONString(b, o.Description)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"multiSelect":`...)
	b = strconv.AppendBool(b, q.MultiSelect)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string the way encoding/json does
// with HTML escaping off: quote and backslash escaped, control characters
// escaped (so a line stays one line), invalid UTF-8 replaced by U+FFFD,
// U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
