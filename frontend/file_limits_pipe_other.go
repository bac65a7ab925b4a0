//go:build !unix

package frontend

import (
	"io/fs"
	"time"
)

// readPipe refuses a pipe where there is no poll(2) to read one with a
// deadline (see the unix version).
func readPipe(path, name string, timeout time.Duration) ([]byte, error) {
	return nil, notRegular(name, fs.ModeNamedPipe)
}
