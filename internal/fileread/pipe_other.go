//go:build !unix

package fileread

import (
	"io/fs"
	"time"
)

// readPipe refuses a pipe where there is no poll(2) to read one with a
// deadline (see the unix version).
func readPipe(path string, max int, timeout time.Duration) ([]byte, error) {
	return nil, notFile(path, fs.ModeNamedPipe)
}
