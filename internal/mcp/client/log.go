package client

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/statefile"
)

const (
	tailLines     = 20
	tailLineChars = 300
)

// serverLog is where a server's stderr goes: appended to its log file, up
// to a limit, and its last lines kept in memory for errors.
type serverLog struct {
	path string // "" without a log directory

	mu      sync.Mutex
	f       *os.File
	written int64
	limit   int64
	full    bool
	lines   []string // the last tailLines complete lines of stderr
	partial []byte   // stderr after its last newline, capped
}

// openLog opens (appending) the server's log in dir, and marks where this
// run's output begins.
func openLog(dir, server string, limit int64) (*serverLog, error) {
	l := &serverLog{limit: limit}
	if dir == "" {
		return l, nil
	}
	if err := statefile.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the log directory: %w", err)
	}
	l.path = filepath.Join(dir, "mcp-"+NormalizeName(server)+".log")
	// In the state directory: a link or a FIFO planted there is refused,
	// never appended through or waited on.
	f, err := statefile.OpenFile(l.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open its log: %w", err)
	}
	l.f = f
	return l, nil
}

// Write takes the server's stderr.
func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.toFile(p)
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			l.partial = append(l.partial, rest[:min(len(rest), tailLineChars*4-len(l.partial))]...)
			break
		}
		line := append(l.partial, rest[:i]...)
		l.partial = l.partial[:0]
		l.keep(string(line))
		rest = rest[i+1:]
	}
	return len(p), nil
}

// keep remembers one line of stderr among the last ones.
func (l *serverLog) keep(line string) {
	line = cutText(strings.TrimRight(ask.Display(line), " "), tailLineChars)
	if line == "" {
		return
	}
	l.lines = append(l.lines, line)
	if len(l.lines) > tailLines {
		l.lines = l.lines[len(l.lines)-tailLines:]
	}
}

// toFile appends to the log file, up to the limit.
func (l *serverLog) toFile(p []byte) {
	if l.f == nil || l.full {
		return
	}
	if l.written+int64(len(p)) > l.limit {
		p = p[:max(l.limit-l.written, 0)]
		l.full = true
	}
	n, _ := l.f.Write(p)
	l.written += int64(n)
	if l.full {
		fmt.Fprintf(l.f, "\n[askuser: the log reached %d bytes; later output of this run is dropped]\n", l.limit)
	}
}

// Note writes askuser's own line to the log file (not to the stderr tail).
func (l *serverLog) Note(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	fmt.Fprintf(l.f, "[askuser %s] %s\n", time.Now().Format(time.RFC3339), fmt.Sprintf(format, args...))
}

// noteWriter is the log as an io.Writer for the SDK's logger: its lines go
// to the file, marked as askuser's, not into the stderr tail.
type noteWriter struct{ l *serverLog }

func (w noteWriter) Write(p []byte) (int, error) {
	w.l.Note("sdk: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

var _ io.Writer = noteWriter{}

// Tail returns the last lines of stderr, one per line.
func (l *serverLog) Tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := l.lines
	if len(l.partial) > 0 {
		lines = append(append([]string(nil), lines...), strings.TrimRight(ask.Display(string(l.partial)), " "))
		if len(lines) > tailLines {
			lines = lines[len(lines)-tailLines:]
		}
	}
	return strings.Join(lines, "\n")
}

func (l *serverLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
