package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/statefile"
)

// The registry: the question sets waiting in the inbox or a chat channel,
// one file each, relay/<key>.json in the state directory. It holds what a
// process serving a channel needs to send a set, show what became of it,
// and route a tap to it; the answer itself goes to the mailbox.
//
// A file is replaced whole (a temporary file renamed over it), so a reader
// sees the old entry or the new one. Read-modify-write (Update) holds the
// key's lock, relay/<key>.lock, so two processes never lose each other's
// change. A process that waits on a set holds relay/<key>.wait while it
// waits (Hold), so a set asked outside a session whose asker was killed
// can be told from one still waited on (Held).

const registryDir = "relay"

// maxEntryBytes bounds what is read of an entry: an approval's whole tool
// input rides in its request.
const maxEntryBytes = 8 << 20

// Entry is a question set waiting in the inbox or a chat channel, and what
// became of it.
type Entry struct {
	Key string `json:"key"`
	// Session is the session's id; "" for a set asked outside one.
	Session string      `json:"session,omitempty"`
	Request ask.Request `json:"request"`
	// Title says where the set comes from (the session's title, "askuser
	// ask").
	Title string `json:"title,omitempty"`
	// AskedAt is when the set was first asked (zero outside a session).
	AskedAt time.Time `json:"asked_at,omitzero"`
	// Channels are the channels the set is to be sent to; "inbox" is
	// every channel askuser serve holds.
	Channels []string `json:"channels"`
	// Rev is the revision of the set's rendering: a tap on another is
	// refused.
	Rev int `json:"rev"`
	// Threads are, per channel, the message of an earlier set of the
	// session to post this one under.
	Threads map[string]channel.Ref `json:"threads,omitempty"`
	// Sent is what each channel did with the set.
	Sent map[string]*Sent `json:"sent,omitempty"`
	// Outcome is what became of the set; State "" while it waits.
	Outcome Outcome `json:"outcome,omitzero"`
	// Late is set when the answer came while no process waited on the
	// set: the session was resumed for it.
	Late bool `json:"late,omitempty"`
	// FollowedUp is set once what the session did next (its final text,
	// or what it waits on now) was posted beside the set.
	FollowedUp bool `json:"followed_up,omitempty"`
	// Elsewhere is where the session continues, once it was said beside
	// the set that it continues there (another machine, or a folder the
	// serving machine lacks), not here.
	Elsewhere string `json:"elsewhere,omitempty"`
	// Deliveries are the platform ids of the last taps taken, so a
	// redelivered tap is answered as the first was.
	Deliveries []string  `json:"deliveries,omitempty"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
}

// Sent is what one channel did with a set.
type Sent struct {
	// Ref is the set's message, once sent, and Rev the revision sent.
	Ref channel.Ref `json:"ref,omitempty"`
	Rev int         `json:"rev,omitempty"`
	// State is what the channel saved for the set (channel.Host.Save).
	State json.RawMessage `json:"state,omitempty"`
	// Shown is the outcome state the widget shows ("" while it takes
	// answers).
	Shown string `json:"shown,omitempty"`
	// Tries, NextTry and Err are the failed attempts to send or update.
	Tries   int       `json:"tries,omitempty"`
	NextTry time.Time `json:"next_try,omitzero"`
	Err     string    `json:"error,omitempty"`
	// Sending is when a send of revision SendingRev began, until it ends
	// (Ref is then kept, or the failure): still set when the process
	// sending was killed, or stopped, meanwhile, so the platform may hold
	// a message Ref does not name.
	Sending    time.Time `json:"sending,omitzero"`
	SendingRev int       `json:"sending_rev,omitempty"`
}

// Outcome is what became of a set.
type Outcome struct {
	// State is "" while the set waits, else channel.Answered,
	// channel.Withdrawn or channel.Cancelled.
	State string `json:"state,omitempty"`
	// By names who answered; Why says why the set was withdrawn or
	// cancelled.
	By  string    `json:"by,omitempty"`
	Why string    `json:"why,omitempty"`
	At  time.Time `json:"at,omitzero"`
	// Text is the line widgets show.
	Text string `json:"text,omitempty"`
}

// Pending reports whether the set still waits.
func (e *Entry) Pending() bool { return e.Outcome.State == "" }

// ErrNoEntry: the registry holds no set under that key.
var ErrNoEntry = fmt.Errorf("registry: %w", channel.ErrUnknownSet)

// EntryError is an entry that cannot be used: damaged, or not a regular
// file. Session is the session it names, as far as that can be read (""
// when it cannot), so whoever goes through every entry for one session
// can tell that session's damage from another's.
type EntryError struct {
	Key     string
	Session string
	Err     error
}

func (e *EntryError) Error() string { return e.Err.Error() }
func (e *EntryError) Unwrap() error { return e.Err }

// FileRegistry is the registry of a state directory, in files.
type FileRegistry struct{ st *Store }

// Registry returns the store's registry.
func (st *Store) Registry() Registry { return st.backend().Registry() }

func (r *FileRegistry) dir() string { return filepath.Join(r.st.Dir, registryDir) }

func (r *FileRegistry) path(key, ext string) (string, error) {
	if !channel.ValidKey(key) {
		return "", fmt.Errorf("registry: %w: %s is not a key", channel.ErrUnknownSet, ask.Excerpt(key))
	}
	return filepath.Join(r.dir(), key+ext), nil
}

// Get returns the entry under key, or an error wrapping ErrNoEntry.
func (r *FileRegistry) Get(ctx context.Context, key string) (Entry, error) {
	path, err := r.path(key, ".json")
	if err != nil {
		return Entry{}, err
	}
	return readEntry(path)
}

// readEntry reads the entry at path. An entry is used only under its own
// key, and its session is an id: one holding another key, or a session
// that is not an id (a flag, a path), is damaged, so what a planted entry
// says never reaches a resume's command line or a path.
func readEntry(path string) (Entry, error) {
	key := strings.TrimSuffix(filepath.Base(path), ".json")
	data, err := statefile.ReadFile(path, maxEntryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Entry{}, ErrNoEntry
	}
	if err != nil {
		return Entry{}, &EntryError{Key: key, Err: fmt.Errorf("registry: %w", err)}
	}
	e, err := DecodeEntry(key, data)
	if err != nil {
		return Entry{}, &EntryError{Key: key, Session: e.Session, Err: fmt.Errorf("registry: %s is damaged (%v); delete it", path, err)}
	}
	return e, nil
}

// DecodeEntry reads an entry stored under key, as every registry checks
// it: one that is no JSON, holds another key, or names a session that is
// not an id is damaged (the error says how; the entry is what could be
// read of it).
func DecodeEntry(key string, data []byte) (Entry, error) {
	var e Entry
	err := json.Unmarshal(data, &e)
	if err == nil && e.Key != key {
		err = fmt.Errorf("it holds the set %s, not %s", ask.Excerpt(e.Key), key)
	}
	if err == nil && e.Session != "" {
		_, err = ParseID(e.Session)
	}
	return e, err
}

// Update reads the entry under key (found false and a zero entry when
// there is none), lets fn change it, and writes it back, all under the
// key's lock. An error from fn leaves the entry as it was; so does an fn
// that changes nothing. The entry as written (or left) is returned.
func (r *FileRegistry) Update(ctx context.Context, key string, fn func(e *Entry, found bool) error) (Entry, error) {
	path, err := r.path(key, ".json")
	if err != nil {
		return Entry{}, err
	}
	if _, err := r.st.ownDir(registryDir); err != nil {
		return Entry{}, fmt.Errorf("registry: %w", err)
	}
	unlock, err := lockPath(ctx, path[:len(path)-len(".json")]+".lock")
	if err != nil {
		return Entry{}, fmt.Errorf("registry: %w", err)
	}
	defer unlock()
	e, err := readEntry(path)
	found := err == nil
	if err != nil && !errors.Is(err, ErrNoEntry) {
		return Entry{}, err
	}
	e, data, err := ApplyUpdate(key, e, found, r.st.now, fn)
	if err != nil || data == nil {
		return e, err
	}
	tmp, err := writeTemp(r.dir(), ".put-", append(data, '\n'))
	if err != nil {
		return e, fmt.Errorf("registry: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return e, fmt.Errorf("registry: %w", err)
	}
	return e, nil
}

// ApplyUpdate is what every Registry's Update does between reading the
// entry under key (e; found false and a zero entry when there is none)
// and writing it back: fn changes it, it keeps key, its session must be
// an id, and a change is stamped with now (Created too, when new), read
// only then. data is the entry to write; nil, with the entry left as it
// was, when fn fails or changes nothing. The entry returned is Update's.
func ApplyUpdate(key string, e Entry, found bool, now func() time.Time, fn func(e *Entry, found bool) error) (_ Entry, data []byte, _ error) {
	before, _ := json.Marshal(e)
	if err := fn(&e, found); err != nil {
		return e, nil, err
	}
	e.Key = key
	if e.Session != "" {
		if _, err := ParseID(e.Session); err != nil {
			return e, nil, fmt.Errorf("registry: %s: its session %w", key, err)
		}
	}
	after, err := json.Marshal(e)
	if err != nil {
		return e, nil, fmt.Errorf("registry: encode %s: %w", key, err)
	}
	if found && bytes.Equal(before, after) {
		return e, nil, nil
	}
	t := now()
	if !found {
		e.Created = t
	}
	e.Updated = t
	data, err = json.Marshal(e)
	if err != nil {
		return e, nil, err
	}
	return e, data, nil
}

// List returns every entry, oldest first. A damaged entry is skipped and
// reported in the error, after the others.
func (r *FileRegistry) List(ctx context.Context) ([]Entry, error) {
	names, err := os.ReadDir(r.dir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	var out []Entry
	var bad []error
	for _, n := range names {
		key, ok := strings.CutSuffix(n.Name(), ".json")
		if !ok || !channel.ValidKey(key) {
			continue
		}
		e, err := readEntry(filepath.Join(r.dir(), n.Name()))
		if errors.Is(err, ErrNoEntry) {
			continue // deleted since the directory was read
		}
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Created.Compare(b.Created) })
	return out, errors.Join(bad...)
}

// Delete removes the entry under key and its lock files.
func (r *FileRegistry) Delete(ctx context.Context, key string) error {
	path, err := r.path(key, ".json")
	if err != nil {
		return err
	}
	if _, err := r.st.ownDir(registryDir); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	base := path[:len(path)-len(".json")]
	unlock, err := lockPath(ctx, base+".lock")
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	defer unlock()
	for _, p := range []string{path, base + ".wait", base + ".lock"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("registry: %w", err)
		}
	}
	return nil
}

// Hold marks the set under key as waited on by this process until release
// is called (or the process ends).
func (r *FileRegistry) Hold(key string) (release func(), err error) {
	path, err := r.path(key, ".wait")
	if err != nil {
		return nil, err
	}
	if _, err := r.st.ownDir(registryDir); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	release, held, err := holdLock(path)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if held { // another process waits on it too: it is waited on either way
		return func() {}, nil
	}
	return release, nil
}

// Claim holds the set under key only when no process, this one included,
// holds it.
func (r *FileRegistry) Claim(key string) (release func(), ok bool, err error) {
	path, err := r.path(key, ".wait")
	if err != nil {
		return nil, false, err
	}
	if _, err := r.st.ownDir(registryDir); err != nil {
		return nil, false, fmt.Errorf("registry: %w", err)
	}
	release, held, err := holdLock(path)
	if err != nil || held {
		return nil, false, err
	}
	return release, true, nil
}

// Held reports whether a process waits on the set under key.
func (r *FileRegistry) Held(key string) bool {
	path, err := r.path(key, ".wait")
	return err == nil && inUse(path)
}
