package frontend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// SplitFirstJSON reads the first JSON value from r (possibly
// pretty-printed over several lines) and returns it and a reader positioned
// right after it, for `askuser ask -`, where the question set comes first on
// stdin and the answer lines follow on the same stream. When the rest of the
// value's line is blank it is skipped too, so rest starts at the first
// answer line. SplitFirstJSON never reads past the value to look further:
// a program may wait for the question line before writing its answers.
func SplitFirstJSON(r io.Reader) (first []byte, rest io.Reader, err error) {
	dec := json.NewDecoder(r)
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.Is(err, io.EOF):
			return nil, nil, fmt.Errorf("read first JSON value: the input is empty: %w", err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return nil, nil, fmt.Errorf("read first JSON value: the input ends inside it: %w", err)
		case errors.As(err, &se):
			return nil, nil, fmt.Errorf("read first JSON value: not valid JSON at byte %d: %w", se.Offset, err)
		}
		return nil, nil, fmt.Errorf("read first JSON value: %w", err)
	}
	buffered, _ := io.ReadAll(dec.Buffered()) // a bytes.Reader: no I/O
	i := 0
	for i < len(buffered) && (buffered[i] == ' ' || buffered[i] == '\t' || buffered[i] == '\r') {
		i++
	}
	if i < len(buffered) && buffered[i] == '\n' {
		buffered = buffered[i+1:]
	}
	return v, io.MultiReader(bytes.NewReader(buffered), r), nil
}
