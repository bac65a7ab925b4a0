//go:build unix

package frontend

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadFileNamedPipe: a named pipe is refused without being opened, as
// opening one that nobody writes to would block forever.
func TestLoadFileNamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := LoadFile(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), fifo+" is a named pipe") {
			t.Errorf("LoadFile(fifo) = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("LoadFile(fifo) blocked")
	}
}
