package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A process waiting for a lock another holds sleeps in the kernel, which
// /proc/locks shows as a blocked waiter ("->"), and wakes when it is
// released; it does not poll. A wait given up (its context ends) leaves
// the lock free once the holder lets go.
func TestLockPathSleepsInTheKernel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.lock")
	release, held, err := holdLock(path)
	if err != nil || held {
		t.Fatalf("holdLock: held %v, %v", held, err)
	}
	got := make(chan error, 1)
	go func() {
		unlock, err := lockPath(context.Background(), path)
		if err == nil {
			unlock()
		}
		got <- err
	}()
	untilBlockedWaiter(t, path)
	release()
	if err := <-got; err != nil {
		t.Fatalf("lockPath after the holder let go: %v", err)
	}

	release, _, _ = holdLock(path)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, err := lockPath(ctx, path)
		got <- err
	}()
	untilBlockedWaiter(t, path)
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("a wait whose context ended: %v; want context.Canceled", err)
	}
	release()
	for deadline := time.Now().Add(10 * time.Second); ; {
		r, held, err := holdLock(path)
		if err == nil && !held {
			r()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the lock stayed held after a given-up wait and its holder's release")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// untilBlockedWaiter returns once /proc/locks shows a process blocked on
// the lock of the file at path, or fails the test after 10 seconds.
func untilBlockedWaiter(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ino := fmt.Sprintf(":%d ", fi.Sys().(*syscall.Stat_t).Ino)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile("/proc/locks")
		if err != nil {
			t.Skipf("no /proc/locks: %v", err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "-> FLOCK") && strings.Contains(line, ino) {
				return
			}
		}
	}
	t.Fatal("no process sleeps in the kernel waiting for the lock: the waiter polls")
}
