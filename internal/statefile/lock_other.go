//go:build !unix

package statefile

import "os"

// TryLock opens the lock file at path. This system has no flock: the file
// is opened, but nothing keeps another process from opening it too.
func TryLock(path string) (*os.File, error) {
	return OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}
