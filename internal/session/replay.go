package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/agentloop"
)

// Replaying a journal holds back the call records of an assistant message
// (asked, replied, answered, partial) undecoded, because State.Append
// drops what they record as soon as the user message carrying the calls'
// results follows. In a long session nearly all of them are settled that
// way, and they are about half of the journal's bytes, so resuming costs
// about what decoding the conversation alone costs, however long it is
// (internal/session/bench_test.go measures it). Held records are decoded,
// in order, before any other record is applied, so what is replayed is
// exactly what decoding every record would give. A held record that is
// dropped is still checked to be JSON, so a damaged line is reported
// wherever it is; what a dropped record says is not checked: nothing
// reads it.

// callPrefixes are how the call records begin as askuser writes them (the
// type is the first field). A record that begins otherwise is decoded in
// order, like every other record.
var callPrefixes = [][]byte{
	[]byte(`{"type":"` + recAsked + `",`),
	[]byte(`{"type":"` + recReplied + `",`),
	[]byte(`{"type":"` + recAnswered + `",`),
	[]byte(`{"type":"` + recPartial + `",`),
}

func isCallRecord(raw []byte) bool {
	for _, p := range callPrefixes {
		if bytes.HasPrefix(raw, p) {
			return true
		}
	}
	return false
}

// replay applies the lines of buf to s in order.
type replay struct {
	s    *Session
	path string
	buf  []byte
	// held are the call records read but not yet decoded, in order.
	held []heldLine
	// line is the number of lines read; good is the length of the intact
	// prefix when a torn last line was dropped, else -1.
	line, good int
}

// heldLine is a held record: its line number and where it is in buf.
type heldLine struct{ line, off, end int }

func (rp *replay) run() error {
	buf := rp.buf
	for off := 0; off < len(buf); {
		rp.line++
		end := bytes.IndexByte(buf[off:], '\n')
		last := end < 0
		if last {
			end = len(buf) - off
		}
		raw := buf[off : off+end]
		if !last && isCallRecord(raw) {
			rp.held = append(rp.held, heldLine{rp.line, off, end})
			off += end + 1
			continue
		}
		r, err := decodeRecord(raw, last)
		if err != nil {
			// The held records come first: one of them may be the first
			// damaged line.
			if stop, err := rp.flush(); stop || err != nil {
				return err
			}
			if last || isTail(buf[off+end:]) {
				rp.torn(rp.line, off, len(raw))
				return nil
			}
			return rp.corrupt(rp.line, shortErr(err))
		}
		if settles(r) {
			err = rp.drop()
		} else {
			_, err = rp.flush()
		}
		if err != nil {
			return err
		}
		if err := rp.s.apply(r, rp.line); err != nil {
			return rp.corrupt(rp.line, err.Error())
		}
		off += end + 1
	}
	_, err := rp.flush()
	return err
}

// decodeRecord decodes one line; last says it has no newline.
func decodeRecord(raw []byte, last bool) (record, error) {
	var r record
	err := json.Unmarshal(raw, &r)
	if err == nil && r.Type == "" {
		err = fmt.Errorf("record has no type")
	}
	if err == nil && last {
		// A record and its newline are one write, so a record without
		// it was cut short; keeping it would glue the next append onto
		// this line, and a later load would drop both.
		err = fmt.Errorf("record has no newline")
	}
	return r, err
}

// settles reports whether r is a user message of the session's own
// conversation: State.Append drops every call record before it, the
// sub-agents' included (their conversations belong to the calls).
func settles(r record) bool {
	return r.Type == recMessage && r.Parent == "" && r.Message != nil && r.Message.Role == agentloop.RoleUser
}

// flush decodes and applies the held records. stop reports a torn last
// line among them, after which nothing is left to read.
func (rp *replay) flush() (stop bool, err error) {
	held := rp.held
	rp.held = rp.held[:0]
	for _, h := range held {
		r, err := decodeRecord(rp.buf[h.off:h.off+h.end], false)
		if err != nil {
			if isTail(rp.buf[h.off+h.end:]) {
				rp.torn(h.line, h.off, h.end)
				return true, nil
			}
			return false, rp.corrupt(h.line, shortErr(err))
		}
		if err := rp.s.apply(r, h.line); err != nil {
			return false, rp.corrupt(h.line, err.Error())
		}
	}
	return false, nil
}

// drop forgets the held records, which a user message settles, after
// checking that each is JSON.
func (rp *replay) drop() error {
	for _, h := range rp.held {
		raw := rp.buf[h.off : h.off+h.end]
		if !json.Valid(raw) {
			_, err := decodeRecord(raw, false)
			return rp.corrupt(h.line, shortErr(err))
		}
	}
	rp.held = rp.held[:0]
	return nil
}

func (rp *replay) torn(line, off, n int) {
	rp.good = off
	rp.s.Recovered = fmt.Sprintf("dropped a torn last line (line %d, %d bytes), left by a process killed while writing", line, n)
}

func (rp *replay) corrupt(line int, reason string) error {
	return &CorruptError{Path: rp.path, Line: line, Intact: line - 1, Reason: reason}
}
