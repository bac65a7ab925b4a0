//go:build !unix

package session

import (
	"context"
	"os"
	"sync"
)

func syncDir(string) {}

func lock(*os.File) (func(), error) { return func() {}, nil }

func inUse(string) bool { return false }

// Without flock, locks hold within one process only.
var processLocks sync.Map

func lockPath(ctx context.Context, path string) (func(), error) {
	v, _ := processLocks.LoadOrStore(path, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	mu.Lock()
	return mu.Unlock, nil
}

func holdLock(path string) (func(), bool, error) {
	v, _ := processLocks.LoadOrStore(path, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	if !mu.TryLock() {
		return nil, true, nil
	}
	return mu.Unlock, false, nil
}
