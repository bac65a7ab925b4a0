package frontend

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// The fast path for the commonest answer line: the map form (Claude Code's
// answers map, docs/protocol.md) with plain strings, the form askuser's
// own example lines use:
//
//	{"id":"q1","answers":{"Database":"SQLite","Region":"eu-west"}}
//
// Decoding a line into generic values with encoding/json took over a
// quarter of a round trip (decoding into typed structs was no faster, and
// would accept field names in any case and null for a missing field).
// parsePlainLine reads that one shape directly and gives up on anything
// else: decodeLine then reads the line, and words any error. It never
// accepts a line decodeLine would reject or read differently;
// FuzzPlainLine holds the two equal.

// parsePlainLine reads line when it is a JSON object whose members are
// only "answers" (an object of strings), "id", "source" and "type" (strings
// with the values decodeLine accepts), each at most once, with no string
// holding an escape, a control character, invalid UTF-8 or a repeated
// answers key. ok is false for any other line.
func parsePlainLine(line []byte, n int, input string) (l inLine, ok bool) {
	l = inLine{input: input, n: n, source: ask.SourceProgram, mapForm: true}
	sc := plainScanner{b: line}
	var seen [4]bool // type, id, source, answers, as in lineFields
	if !sc.next('{') {
		return inLine{}, false
	}
	for closed := sc.next('}'); !closed; closed = sc.next('}') {
		if seen != [4]bool{} && !sc.next(',') {
			return inLine{}, false
		}
		key, ok := sc.memberKey()
		if !ok {
			return inLine{}, false
		}
		i := slices.Index(lineFields, key)
		if i < 0 || seen[i] {
			return inLine{}, false
		}
		seen[i] = true
		if key == "answers" {
			if l.entries, ok = sc.plainAnswers(); !ok {
				return inLine{}, false
			}
			continue
		}
		v, ok := sc.str()
		switch {
		case !ok:
			return inLine{}, false
		case key == "type" && v != "answer":
			return inLine{}, false
		case key == "id" && v == "":
			return inLine{}, false
		case key == "source" && v != string(ask.SourcePerson) && v != string(ask.SourceProgram):
			return inLine{}, false
		case key == "id":
			l.id = v
		case key == "source":
			l.source = ask.Source(v)
		}
	}
	if !seen[3] || !sc.atEnd() {
		return inLine{}, false
	}
	return l, true
}

// plainAnswers reads the "answers" object, sorted by key as decodeLine
// sorts it.
func (sc *plainScanner) plainAnswers() ([]inEntry, bool) {
	entries := make([]inEntry, 0, 4)
	if !sc.next('{') {
		return nil, false
	}
	for closed := sc.next('}'); !closed; closed = sc.next('}') {
		if len(entries) > 0 && !sc.next(',') {
			return nil, false
		}
		key, ok := sc.memberKey()
		if !ok {
			return nil, false
		}
		value, ok := sc.str()
		if !ok {
			return nil, false
		}
		entries = append(entries, inEntry{index: -1, key: key, value: value})
	}
	slices.SortFunc(entries, func(a, b inEntry) int { return strings.Compare(a.key, b.key) })
	for i := 1; i < len(entries); i++ {
		if entries[i].key == entries[i-1].key {
			return nil, false // ambiguous: decodeLine rejects it with an error line
		}
	}
	return entries, true
}

// plainScanner reads a line front to back.
type plainScanner struct {
	b []byte
	i int
}

// next skips white space and then c, reporting whether c was there.
func (sc *plainScanner) next(c byte) bool {
	sc.skipSpace()
	if sc.i < len(sc.b) && sc.b[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// atEnd reports whether only white space is left.
func (sc *plainScanner) atEnd() bool {
	sc.skipSpace()
	return sc.i == len(sc.b)
}

func (sc *plainScanner) skipSpace() {
	for sc.i < len(sc.b) && (sc.b[sc.i] == ' ' || sc.b[sc.i] == '\t' || sc.b[sc.i] == '\r' || sc.b[sc.i] == '\n') {
		sc.i++
	}
}

// memberKey reads a key and its colon.
func (sc *plainScanner) memberKey() (string, bool) {
	key, ok := sc.str()
	return key, ok && sc.next(':')
}

// str reads a string with nothing to unescape or replace, so its bytes are
// what encoding/json would decode.
func (sc *plainScanner) str() (string, bool) {
	if !sc.next('"') {
		return "", false
	}
	start := sc.i
	for ; sc.i < len(sc.b); sc.i++ {
		switch c := sc.b[sc.i]; {
		case c == '"':
			s := sc.b[start:sc.i]
			sc.i++
			return string(s), utf8.Valid(s)
		case c < 0x20 || c == '\\':
			return "", false
		}
	}
	return "", false
}
