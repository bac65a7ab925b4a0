package hostrun

import (
	"io"
	"sync"
)

// tailMax is how much of the agent's output askuser keeps to read how a
// run ended (the last result line, an error): the output itself passes
// through unchanged.
const tailMax = 1 << 20

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

// Bytes returns what is kept.
func (t *tailBuffer) Bytes() []byte {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]byte(nil), t.b...)
}

// teeTo writes to w (if any) and keeps the tail in t; a failing w does
// not stop the copy (the agent's output is not the run's to lose).
func teeTo(w io.Writer, t *tailBuffer) io.Writer {
	if w == nil {
		return t
	}
	return teeWriter{w, t}
}

type teeWriter struct {
	w io.Writer
	t *tailBuffer
}

func (x teeWriter) Write(p []byte) (int, error) {
	x.t.Write(p)
	_, _ = x.w.Write(p)
	return len(p), nil
}
