package client

import (
	"bytes"
	"encoding/json"
	"sync"
)

// The SDK decodes a tool's inputSchema and an elicitation's
// requestedSchema into Go maps, which lose the order of their keys. The
// order matters: a model is shown the tool's schema "unchanged", and a
// form is asked in the order of its properties. So the bytes a server
// sends are tapped on the way to the SDK, the raw schemas found in them
// are kept, and a decoded schema is matched back to its raw form by
// equal canonical JSON. Any miss falls back to the decoded schema.
const (
	maxTapLine  = 4 << 20 // longer messages are not searched
	maxRawKept  = 1024
	maxRawDepth = 6
)

// tapped reports whether a key holds a schema to keep.
func tapped(key string) bool { return key == "inputSchema" || key == "requestedSchema" }

// rawSchemas are the raw schemas seen in what a server sent.
type rawSchemas struct {
	mu    sync.Mutex
	kept  map[string]json.RawMessage
	order []string
}

func newRawSchemas() *rawSchemas { return &rawSchemas{kept: map[string]json.RawMessage{}} }

// rawTap reads one stream a server sends (its stdout, one HTTP reply):
// newline-delimited JSON, or server-sent events whose data lines hold
// JSON. Streams are read concurrently, so each has its own tap.
type rawTap struct {
	store *rawSchemas
	line  []byte
	skip  bool // the current line is too long to search
}

func (r *rawSchemas) tap() *rawTap { return &rawTap{store: r} }

// Write takes the next bytes of the stream.
func (t *rawTap) Write(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if !t.skip {
			if len(t.line)+len(chunk) > maxTapLine {
				t.skip, t.line = true, t.line[:0]
			} else {
				t.line = append(t.line, chunk...)
			}
		}
		if i < 0 {
			return
		}
		t.endLine()
		p = p[i+1:]
	}
}

// Flush ends the stream: a body without a final newline still counts.
func (t *rawTap) Flush() { t.endLine() }

func (t *rawTap) endLine() {
	line := bytes.TrimSpace(t.line)
	if !t.skip && bytes.Contains(line, []byte(`Schema"`)) {
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("data:")))
		t.store.search(line, 0)
	}
	t.line, t.skip = t.line[:0], false
}

// search keeps the raw value of every tapped key in a JSON value.
func (t *rawSchemas) search(raw json.RawMessage, depth int) {
	if depth > maxRawDepth || len(raw) == 0 {
		return
	}
	switch raw[0] {
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return
		}
		for k, v := range obj {
			if tapped(k) && len(v) > 0 && v[0] == '{' {
				t.keep(v)
				continue
			}
			t.search(v, depth+1)
		}
	case '[':
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return
		}
		for _, v := range arr {
			t.search(v, depth+1)
		}
	}
}

func (t *rawSchemas) keep(raw json.RawMessage) {
	key, ok := canonical(raw)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.kept[key]; !dup {
		if len(t.order) >= maxRawKept {
			delete(t.kept, t.order[0])
			t.order = t.order[1:]
		}
		t.order = append(t.order, key)
	}
	t.kept[key] = append(json.RawMessage(nil), raw...)
}

// Raw returns the schema as the server wrote it, when v (a schema the SDK
// decoded) was seen; else v encoded.
func (t *rawSchemas) Raw(v any) json.RawMessage {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	if t == nil {
		return enc
	}
	key, ok := canonical(enc)
	if !ok {
		return enc
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if raw, ok := t.kept[key]; ok {
		return raw
	}
	return enc
}

// canonical is JSON with object keys sorted, as encoding/json writes maps.
func canonical(raw json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}
