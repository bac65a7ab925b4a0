package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/statefile"
)

// files is the Backend of a Store that keeps everything in its state
// directory: a journal per session (sessions/<id>.jsonl), flocked while a
// process appends to it, and the mailbox, registry and channel locks in
// files beside it (mailbox.go, registry.go, chanlock.go). Every file is
// opened through statefile: a link planted in its place is never
// followed, a FIFO never waited on.
type files struct{ st *Store }

var _ Backend = files{}

// backend is the Store's Backend: its own, or its state directory's.
func (st *Store) backend() Backend {
	if st.Backend != nil {
		return st.Backend
	}
	return files{st}
}

// Where is the journal's file, or the sessions directory.
func (f files) Where(id ID) string {
	if id == "" {
		return f.st.sessionsDir()
	}
	return f.st.journal(id)
}

// Create makes the journal with O_EXCL, locks it and writes its header.
func (f files) Create(meta Meta, header Line) (Appender, error) {
	dir, err := f.st.ownDir("sessions")
	if err != nil {
		return nil, fmt.Errorf("create state directory: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	file, err := statefile.OpenFile(f.st.journal(meta.ID), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
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
func (f files) Open(id ID) (Appender, []byte, error) {
	if _, err := f.st.ownDir("sessions"); err != nil {
		return nil, nil, fmt.Errorf("open session: %w", err)
	}
	path := f.st.journal(id)
	file, err := statefile.OpenFile(path, os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, f.openErr(id, err)
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

func (f files) openErr(id ID, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w %s in %s; askuser sessions lists them", ErrNotFound, ask.Excerpt(string(id)), f.st.sessionsDir())
	}
	return fmt.Errorf("open session: %w", err)
}

// samePath reports whether path still names the open file f.
func samePath(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// Read reads the journal.
func (f files) Read(id ID) ([]byte, error) {
	path := f.st.journal(id)
	file, err := statefile.Open(path)
	if err != nil {
		return nil, f.openErr(id, err)
	}
	defer file.Close()
	return readJournal(path, file)
}

// readJournal reads a journal up to MaxJournalBytes.
func readJournal(path string, f *os.File) ([]byte, error) {
	data, err := statefile.ReadAll(f, MaxJournalBytes)
	if errors.Is(err, statefile.ErrTooLarge) {
		return nil, fmt.Errorf("session %w; it was not read: a run stops before its journal grows past that, "+
			"so this one was not written by askuser — move it out of %s", err, filepath.Dir(path))
	} else if err != nil {
		return nil, fmt.Errorf("read session %s: %w", path, err)
	}
	return data, nil
}

// Find lists the journals named ref or beginning with it.
func (f files) Find(ref string) ([]string, error) {
	if isID(ref) {
		if _, err := os.Lstat(f.st.journal(ID(ref))); err == nil {
			return []string{ref}, nil
		}
	}
	entries, err := f.entries()
	var out []string
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".jsonl"); strings.HasPrefix(name, ref) {
			out = append(out, name)
		}
	}
	return out, err
}

// entries are the sessions directory's entries named *.jsonl, but for
// directories: a journal whose name is not an id, or that is not a
// regular file, is listed too, so that askuser sessions shows it (as
// damaged: it is never read).
func (f files) entries() ([]fs.DirEntry, error) {
	all, err := os.ReadDir(f.st.sessionsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []fs.DirEntry
	for _, e := range all {
		if strings.HasSuffix(e.Name(), ".jsonl") && !e.IsDir() {
			out = append(out, e)
		}
	}
	return out, nil
}

// List reads every journal; one that is not a regular file, or not named
// by an id, is listed without being read.
func (f files) List() ([]Stored, error) {
	entries, err := f.entries()
	if err != nil {
		return nil, err
	}
	out := make([]Stored, 0, len(entries))
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".jsonl")
		p := filepath.Join(f.st.sessionsDir(), e.Name())
		s := Stored{Name: name, Err: unreadable(p, name, e)}
		if e.Type().IsRegular() {
			s.InUse = inUse(p)
		}
		if s.Err == nil {
			s.Data, s.Err = f.Read(ID(name))
		}
		if fi, err := e.Info(); err == nil {
			s.Updated = fi.ModTime()
		}
		out = append(out, s)
	}
	return out, nil
}

// unreadable says why a listed journal is not read at all: it is not a
// regular file (a link, a FIFO: statefile would refuse it too, and List
// does not even try), or its name is not an id.
func unreadable(path, name string, e fs.DirEntry) error {
	if !e.Type().IsRegular() {
		return &statefile.NotRegularError{Path: path, Kind: statefile.Kind(e.Type())}
	}
	if !isID(name) {
		return fmt.Errorf("session file %s: its name is %w, so askuser never reads it; askuser sessions rm %s removes it",
			path, ErrBadID, ask.Excerpt(name))
	}
	return nil
}

// InUse reports whether a process holds the journal's lock.
func (f files) InUse(id ID) bool { return inUse(f.st.journal(id)) }

// Remove deletes the journal and its side directory under the journal's
// lock, so no process opens it half-deleted; one that opened it just
// before finds it gone (Open checks). What is listed as a journal but is
// not a regular file (a link, a FIFO) is never opened: only its name goes.
func (f files) Remove(name string) error {
	if _, err := f.st.ownDir("sessions"); err != nil {
		return fmt.Errorf("remove session %s: %w", name, err)
	}
	path := filepath.Join(f.st.sessionsDir(), name+".jsonl")
	side := filepath.Join(f.st.sessionsDir(), name+".d")
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove session %s: %w", name, err)
		}
		syncDir(f.st.sessionsDir())
		return nil
	}
	file, err := statefile.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("remove session %s: %w", name, err)
	}
	defer file.Close()
	unlock, err := lock(file)
	if err != nil {
		return fmt.Errorf("session %s is %w (it is running, or asking for an answer now); stop that process, or let it finish, then remove it", name, ErrInUse)
	}
	defer unlock()
	// RemoveAll removes a link planted as the side directory, not what
	// it points to.
	if err := os.RemoveAll(side); err != nil {
		return fmt.Errorf("remove session %s: %w", name, err)
	}
	hook("remove: side directory gone")
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("remove session %s: %w", name, err)
	}
	// An answer posted in between (FileMailbox.Post, which found the
	// journal still there) made the side directory anew.
	if err := os.RemoveAll(side); err != nil {
		return fmt.Errorf("remove session %s: %w", name, err)
	}
	syncDir(f.st.sessionsDir())
	return nil
}

func (f files) Mailbox() Mailbox       { return &FileMailbox{st: f.st} }
func (f files) Registry() Registry     { return &FileRegistry{st: f.st} }
func (f files) Deliveries() Deliveries { return &FileDeliveries{st: f.st} }
func (f files) Close() error           { return nil }

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

// raceHook, when a test sets it, is called at the points where another
// process may act between two steps (hook), so a test can have it act
// there.
var raceHook func(at string)

func hook(at string) {
	if raceHook != nil {
		raceHook(at)
	}
}
