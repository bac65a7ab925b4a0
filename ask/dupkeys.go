package ask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// encoding/json keeps the last of two members with the same name, so
// {"answers":{"Database":"SQLite","Database":"PostgreSQL"}} would answer
// PostgreSQL and drop SQLite without a word, and a model's input with two
// "questions" would lose one set. JSON that names a member twice is
// ambiguous, and is rejected like any other bad input.

// dupFrame is one object or array being scanned.
type dupFrame struct {
	object  bool
	keys    map[string]bool
	wantKey bool   // the next string is a member name
	name    string // the last member name, or the element index
	index   int
}

// DuplicateKey reports the first member name that appears twice in one
// object of line, which must be valid JSON, and where that object is
// ("" at the top level, else a path such as answers or answers[0]). Names
// are compared as encoding/json decodes them: escapes resolved, invalid
// UTF-8 replaced.
func DuplicateKey(line []byte) (where, key string, found bool) {
	var stack []dupFrame
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case '{', '[':
			if n := len(stack); n > 0 && !stack[n-1].object {
				stack[n-1].name = fmt.Sprint(stack[n-1].index)
			}
			stack = append(stack, dupFrame{object: c == '{', wantKey: c == '{'})
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if top := &stack[len(stack)-1]; top.object {
				top.wantKey = true
			} else {
				top.index++
			}
		case '"':
			end := stringEnd(line, i)
			if top := topFrame(stack); top != nil && top.wantKey {
				name := memberName(line[i : end+1])
				if top.keys[name] {
					return dupPath(stack[:len(stack)-1]), name, true
				}
				if top.keys == nil {
					top.keys = map[string]bool{}
				}
				top.keys[name], top.wantKey, top.name = true, false, name
			}
			i = end
		}
	}
	return "", "", false
}

func topFrame(stack []dupFrame) *dupFrame {
	if len(stack) == 0 {
		return nil
	}
	return &stack[len(stack)-1]
}

// stringEnd returns the index of the quote that closes the string opened
// at line[start].
func stringEnd(line []byte, start int) int {
	for i := start + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return len(line) - 1
}

// memberName decodes a quoted member name as encoding/json would.
func memberName(quoted []byte) string {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(quoted, &s) // valid: the line decoded
	return s
}

// dupPath names the object whose member the stack's frames lead to: the
// top-level member names bare (answers), elements by index (answers[0]),
// deeper names quoted (message["content"]).
func dupPath(frames []dupFrame) string {
	var b strings.Builder
	for i, f := range frames {
		switch {
		case !f.object:
			fmt.Fprintf(&b, "[%s]", f.name)
		case i == 0 && isFieldName(f.name):
			b.WriteString(f.name)
		default:
			fmt.Fprintf(&b, "[%s]", Excerpt(f.name))
		}
	}
	return b.String()
}

func isFieldName(s string) bool {
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return s != ""
}
