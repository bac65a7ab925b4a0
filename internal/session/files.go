package session

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
)

// files is the Backend of a Store that keeps everything in its state
// directory: a journal per session (sessions/<id>.jsonl), flocked while a
// process appends to it, and the mailbox, registry and channel locks in
// files beside it (mailbox.go, registry.go, chanlock.go).
type files struct{ st *Store }

var _ Backend = files{}

// backend is the Store's Backend: its own, or its state directory's.
func (st *Store) backend() Backend {
	if st.Backend != nil {
		return st.Backend
	}
	return files{st}
}

func (f files) path(id string) string { return filepath.Join(f.st.sessionsDir(), id+".jsonl") }

// Where is the journal's file, or the sessions directory.
func (f files) Where(id string) string {
	if id == "" {
		return f.st.sessionsDir()
	}
	return f.path(id)
}

// Create makes the journal with O_EXCL, locks it and writes its header.
func (f files) Create(meta Meta, header Line) (Appender, error) {
	dir := f.st.sessionsDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	file, err := os.OpenFile(f.path(meta.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("create session: %w: %w", err, ErrExists)
	}
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	unlock, err := lock(file)
	if err != nil {
		file.Close()
		return nil, err
	}
	j := &fileJournal{f: file, unlock: unlock, path: file.Name()}
	if err := j.Append(header); err != nil {
		j.Close()
		return nil, err
	}
	syncDir(dir)
	return j, nil
}

// Open locks the journal and reads it.
func (f files) Open(id string) (Appender, []byte, error) {
	path := f.path(id)
	file, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w %q in %s; askuser sessions lists them", ErrNotFound, id, f.st.sessionsDir())
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open session: %w", err)
	}
	unlock, err := lock(file)
	if err != nil {
		file.Close()
		return nil, nil, err
	}
	j := &fileJournal{f: file, unlock: unlock, path: path}
	data, err := readJournal(path, file)
	if err == nil && !samePath(file, path) {
		// Removed (askuser sessions rm) between finding it and locking
		// it: appending now would write into a deleted file.
		err = fmt.Errorf("%w %q: it was deleted just now", ErrNotFound, id)
	}
	if err != nil {
		j.Close()
		return nil, nil, err
	}
	return j, data, nil
}

// samePath reports whether path still names the open file f.
func samePath(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Read reads the journal.
func (f files) Read(id string) ([]byte, error) {
	path := f.path(id)
	file, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w %q in %s; askuser sessions lists them", ErrNotFound, id, f.st.sessionsDir())
	}
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	defer file.Close()
	return readJournal(path, file)
}

func readJournal(path string, f *os.File) ([]byte, error) {
	var data bytes.Buffer
	if fi, err := f.Stat(); err == nil {
		data.Grow(int(fi.Size()) + bytes.MinRead)
	}
	if _, err := data.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	return data.Bytes(), nil
}

// Find lists the journals named ref or beginning with it.
func (f files) Find(ref string) ([]string, error) {
	if _, err := os.Stat(f.path(ref)); err == nil {
		return []string{ref}, nil
	}
	ids, err := f.ids()
	var out []string
	for _, have := range ids {
		if strings.HasPrefix(have, ref) && validID(have) {
			out = append(out, have)
		}
	}
	slices.Sort(out)
	return out, err
}

// ids lists the names of the journals in the sessions directory; a
// journal whose name is not an id is listed too, so that askuser sessions
// shows it (as damaged: it cannot be loaded by that name).
func (f files) ids() ([]string, error) {
	entries, err := os.ReadDir(f.st.sessionsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// List reads every journal.
func (f files) List() ([]Stored, error) {
	ids, err := f.ids()
	if err != nil {
		return nil, err
	}
	out := make([]Stored, 0, len(ids))
	for _, id := range ids {
		p := f.path(id)
		s := Stored{Name: id, InUse: inUse(p)}
		if !validID(id) {
			s.Err = fmt.Errorf("%w: %s is not a session id: an id is letters, digits, \"-\" and \"_\"", ErrNotFound, ask.Excerpt(id))
		} else {
			s.Data, s.Err = f.Read(id)
		}
		if fi, err := os.Stat(p); err == nil {
			s.Updated = fi.ModTime()
		}
		out = append(out, s)
	}
	return out, nil
}

// InUse reports whether a process holds the journal's lock.
func (f files) InUse(id string) bool { return inUse(f.path(id)) }

// Remove deletes the journal and its side directory under the journal's
// lock, so no process opens it half-deleted; one that opened it just
// before finds it gone (Open checks).
func (f files) Remove(id string) error {
	path := f.path(id)
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("remove session %s: %w", id, err)
	}
	defer file.Close()
	unlock, err := lock(file)
	if err != nil {
		return fmt.Errorf("session %s is %w (it is running, or asking a question now); stop that process, or let it finish, then remove it", id, ErrInUse)
	}
	defer unlock()
	if err := os.RemoveAll(f.st.SideDir(id)); err != nil {
		return fmt.Errorf("remove session %s: %w", id, err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove session %s: %w", id, err)
	}
	syncDir(f.st.sessionsDir())
	return nil
}

func (f files) Mailbox() Mailbox   { return &FileMailbox{st: f.st} }
func (f files) Registry() Registry { return &FileRegistry{st: f.st} }
func (f files) Close() error       { return nil }

// Version is "": a page fingerprints the state directory itself.
func (f files) Version() (string, error) { return "", nil }

// fileJournal appends to a locked journal: one write, then a sync, per
// record.
type fileJournal struct {
	f      *os.File
	unlock func()
	path   string
}

func (j *fileJournal) Append(l Line) error {
	if _, err := j.f.Write(append(l.Data, '\n')); err != nil {
		return fmt.Errorf("write session %s: %w", j.path, err)
	}
	if err := syncData(j.f); err != nil {
		return fmt.Errorf("sync session %s: %w", j.path, err)
	}
	return nil
}

func (j *fileJournal) Truncate(good int64) error { return j.f.Truncate(good) }

func (j *fileJournal) Close() error {
	if j.f == nil {
		return nil
	}
	j.unlock()
	err := j.f.Close()
	j.f = nil
	return err
}
