//go:build !linux

package session

import "os"

// syncData flushes a journal to disk; fdatasync is Linux's, so others
// sync data and metadata alike.
func syncData(f *os.File) error { return f.Sync() }
