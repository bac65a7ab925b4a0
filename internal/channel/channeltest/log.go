package channeltest

import (
	"strings"
	"sync"
)

// Log is an io.Writer a relay can log to while a test reads what it
// wrote: the relay writes from its own goroutines, so every call takes
// the lock.
type Log struct {
	mu sync.Mutex
	b  strings.Builder
}

// Write implements io.Writer.
func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything written so far.
func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
