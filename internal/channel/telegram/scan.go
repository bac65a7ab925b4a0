package telegram

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// maxScanBytes bounds what is scanned of an answer over the bound for its
// first update's id.
const maxScanBytes = 256 << 20

// errScan: the answer is not the JSON firstUpdateID expects.
var errScan = errors.New("not a getUpdates answer")

// firstUpdateID finds the update_id of the first update in a getUpdates
// answer ({"ok":true,"result":[{…,"update_id":N,…},…]}), whatever the
// order of its members, holding nothing of it but the keys it reads: an
// update too large to read is skipped by it.
func firstUpdateID(r io.Reader) (int64, bool) {
	s := &scan{r: bufio.NewReader(r)}
	id, err := s.answer()
	return id, err == nil && id > 0
}

type scan struct{ r *bufio.Reader }

// answer reads the top-level object down to the first update's id.
func (s *scan) answer() (int64, error) {
	return s.object(func(key string) (int64, bool, error) {
		if key != "result" {
			return 0, false, nil
		}
		if b, err := s.next(); err != nil || b != '[' {
			return 0, true, errScan
		}
		if b, err := s.next(); err != nil || b != '{' {
			return 0, true, errScan
		}
		id, err := s.objectRest(func(key string) (int64, bool, error) {
			if key != "update_id" {
				return 0, false, nil
			}
			id, err := s.number()
			return id, true, err
		})
		return id, true, err
	})
}

// object reads an object (its opening brace first), calling member for
// each key: member reads the value itself and reports done, or leaves it
// to be skipped.
func (s *scan) object(member func(key string) (int64, bool, error)) (int64, error) {
	if b, err := s.next(); err != nil || b != '{' {
		return 0, errScan
	}
	return s.objectRest(member)
}

func (s *scan) objectRest(member func(key string) (int64, bool, error)) (int64, error) {
	for {
		b, err := s.next()
		switch {
		case err != nil:
			return 0, err
		case b == '}':
			return 0, errScan // the member looked for is not there
		case b == ',':
			continue
		case b != '"':
			return 0, errScan
		}
		key, err := s.key()
		if err != nil {
			return 0, err
		}
		if b, err := s.next(); err != nil || b != ':' {
			return 0, errScan
		}
		if id, done, err := member(key); done || err != nil {
			return id, err
		}
		if err := s.skipValue(); err != nil {
			return 0, err
		}
	}
}

// next is the next byte that is not white space.
func (s *scan) next() (byte, error) {
	for {
		b, err := s.r.ReadByte()
		if err != nil || (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
			return b, err
		}
	}
}

// key reads a string whose opening quote was read; one longer than a key
// of askuser's is read to its end and returned as "".
func (s *scan) key() (string, error) {
	var k []byte
	for {
		b, err := s.r.ReadByte()
		switch {
		case err != nil:
			return "", err
		case b == '"':
			return string(k), nil
		case b == '\\':
			if _, err := s.r.ReadByte(); err != nil {
				return "", err
			}
			k = nil
		case len(k) < 32:
			k = append(k, b)
		}
	}
}

// number reads an integer value.
func (s *scan) number() (int64, error) {
	b, err := s.next()
	var digits []byte
	for err == nil && b >= '0' && b <= '9' && len(digits) < 20 {
		digits = append(digits, b)
		b, err = s.r.ReadByte()
	}
	return strconv.ParseInt(string(digits), 10, 64)
}

// skipValue reads past one value, holding nothing of it.
func (s *scan) skipValue() error {
	depth := 0
	for {
		b, err := s.next()
		if err != nil {
			return err
		}
		switch b {
		case '"':
			if _, err := s.key(); err != nil {
				return err
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',', ':': // between members, inside what is skipped
		default: // a number, true, false, null
			if err := s.skipScalar(); err != nil {
				return err
			}
		}
		if depth <= 0 {
			if depth < 0 {
				return errScan
			}
			return nil
		}
	}
}

// skipScalar reads to the end of a number, true, false or null whose
// first byte was read.
func (s *scan) skipScalar() error {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return err
		}
		switch c {
		case ',', ':', '}', ']', ' ', '\n', '\r', '\t':
			return s.r.UnreadByte()
		}
	}
}
