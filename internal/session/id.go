package session

import (
	"crypto/rand"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// ID is a session's id: a version 4 UUID in lower-case hex
// (3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f), the form NewID makes. It names
// the journal (sessions/<id>.jsonl) and its side directory, is a path of
// the inbox's pages and an argument of the askuser resume that askuser
// serve starts: only NewID and ParseID make one, so an ID is never a path,
// a flag or a pattern. A journal's header holds its id too, and is used
// only under that name (load checks).
type ID string

// ErrBadID is wrapped by ParseID's errors.
var ErrBadID = errors.New("not a session id")

// idExample is an id for messages.
const idExample = "3f2a9c1e-8b7d-4c2a-9e1f-0a1b2c3d4e5f"

// NewID returns a random (version 4) UUID, the form Claude Code uses.
func NewID() ID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return ID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// ParseID reads a whole session id. Its error wraps ErrBadID and quotes at
// most 60 characters of s (ask.Excerpt).
func ParseID(s string) (ID, error) {
	if !isID(s) {
		return "", fmt.Errorf("%s is %w: an id is a UUID in lower-case hex, such as %s", ask.Excerpt(s), ErrBadID, idExample)
	}
	return ID(s), nil
}

// isID reports whether s has the form NewID makes: 8-4-4-4-12 lower-case
// hex digits, version 4, variant 10.
func isID(s string) bool {
	if len(s) != len(idExample) || s[14] != '4' || !strings.ContainsRune("89ab", rune(s[19])) {
		return false
	}
	for i := range len(s) {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHex(s[i]) {
				return false
			}
		}
	}
	return true
}

// isPrefix reports whether s can begin an id: what askuser resume, cancel
// and sessions rm accept in place of a whole one, when only one session's
// id begins so.
func isPrefix(s string) bool {
	if s == "" || len(s) > len(idExample) {
		return false
	}
	for i := range len(s) {
		if !isHex(s[i]) && !(s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23)) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
