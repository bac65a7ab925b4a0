//go:build unix

package channel

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadFileRefusesFIFO: a named pipe where the channels file goes is
// refused at once, never waited on (every command that can use a channel
// reads this file).
func TestReadFileRefusesFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "channels.env")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, optional := range []bool{true, false} {
		if _, err := ReadFile(path, optional); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Errorf("optional %v: %v, want it refused as not a regular file", optional, err)
		}
	}
}
