//go:build unix

package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestTryLock: a lock file is held once at a time (flock is per open
// file, so a second open in this process stands for another process),
// taken again once the holder closes it, and never taken through a link.
func TestTryLock(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.lock")
	f, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(path); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second TryLock while held: %v, want ErrLocked", err)
	}
	f.Close()
	g, err := TryLock(path)
	if err != nil {
		t.Fatalf("TryLock after the holder closed it: %v", err)
	}
	g.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, mode %v; want 0600", err, fi.Mode())
	}
	link := filepath.Join(dir, "link.lock")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := TryLock(link); !errors.Is(err, ErrNotRegular) {
		t.Errorf("TryLock through a link: %v, want ErrNotRegular", err)
	}
}
