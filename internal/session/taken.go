package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/askuser/askuser/internal/statefile"
)

// The deliveries taken, in files: one per delivery, deliveries/<hash>,
// named by the SHA-256 of the platform's id (an id is the platform's
// text, never a path) and holding when it was taken. Take writes a
// synced temporary file and links it into place, so the first Take of
// an id wins, a second changes nothing, and a kill -9 leaves the record
// whole or absent. Nothing follows a link planted there (statefile).

const takenDir = "deliveries"

// maxTakenBytes bounds what is read of a record: a time.
const maxTakenBytes = 256

// FileDeliveries is the deliveries taken of a state directory, in files.
type FileDeliveries struct{ st *Store }

// Deliveries returns the store's record of the deliveries taken.
func (st *Store) Deliveries() Deliveries { return st.backend().Deliveries() }

func (d *FileDeliveries) path(id string) string {
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(d.st.Dir, takenDir, hex.EncodeToString(sum[:20]))
}

// Taken reports whether id was taken: whatever is at its name (even what
// is not a record of askuser's) says it was, so a delivery is never taken
// twice on the strength of a damaged record.
func (d *FileDeliveries) Taken(ctx context.Context, id string) (bool, error) {
	if id == "" {
		return false, errors.New("deliveries: a delivery needs its id")
	}
	_, err := os.Lstat(d.path(id))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, fmt.Errorf("deliveries: %w", err)
}

// Take records id as taken at at.
func (d *FileDeliveries) Take(ctx context.Context, id string, at time.Time) error {
	if id == "" {
		return errors.New("deliveries: a delivery needs its id")
	}
	dir, err := d.st.ownDir(takenDir)
	if err != nil {
		return fmt.Errorf("deliveries: %w", err)
	}
	tmp, err := writeTemp(dir, ".take-", []byte(at.UTC().Format(time.RFC3339Nano)+"\n"))
	if err != nil {
		return fmt.Errorf("deliveries: %w", err)
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, d.path(id)); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("deliveries: %w", err)
	}
	syncDir(dir)
	return nil
}

// Prune removes the records taken before before, and temporary files a
// killed Take left that long ago. A record whose time cannot be read is
// aged by its file's time.
func (d *FileDeliveries) Prune(ctx context.Context, before time.Time) error {
	dir := filepath.Join(d.st.Dir, takenDir)
	if !isOwnDir(dir) {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("deliveries: %w", err)
	}
	for _, e := range ents {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		path := filepath.Join(dir, e.Name())
		if takenAt(path, e).Before(before) {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("deliveries: %w", err)
			}
		}
	}
	return nil
}

// takenAt is when the record at path was taken: the time it holds, else
// its file's.
func takenAt(path string, e fs.DirEntry) time.Time {
	if !strings.HasPrefix(e.Name(), ".") {
		if data, err := statefile.ReadFile(path, maxTakenBytes); err == nil {
			if at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data))); err == nil {
				return at
			}
		}
	}
	if fi, err := e.Info(); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}
