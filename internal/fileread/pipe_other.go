//go:build !unix

package fileread

import (
	"context"
	"os"
	"time"
)

// readOpen opens path and reads at most maxBytes bytes of it, a regular file.
// A pipe is refused where there is no poll(2) to read one with a deadline
// (see the unix version).
func readOpen(_ context.Context, path string, maxBytes int, timeout time.Duration) ([]byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, openError(path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if mode := info.Mode(); !mode.IsRegular() {
		return nil, 0, notFile(path, mode)
	}
	data, err := readRegular(f, path, maxBytes, info.Size())
	return data, max(info.Size(), int64(len(data))), err
}
