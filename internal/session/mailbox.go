package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/statefile"
)

// The answer mailbox: one file per question set, holding the first answer
// given to it, wherever it was given (a chat channel, the inbox page, a
// terminal racing them). Whoever receives an answer posts it; whoever
// waits on the set takes it from there, in this process or another.
//
//	sessions/<id>.d/mailbox/<key>.json   a set of session id
//	mailbox/<key>.json                   a set asked outside a session
//
// Post writes the whole answer to a temporary file in the same directory,
// syncs it, and links it into place: link(2) fails when the name exists,
// so the first writer wins and a second learns who that was, and no reader
// ever sees half an answer. A kill -9 at any instant leaves either no
// answer or a whole one (and perhaps a stray temporary file, which Prune
// removes). Nothing follows a symbolic link planted in the mailbox, and
// nothing waits on a FIFO there (statefile).

// posted wakes the waiters of this process whenever a Post of this
// process succeeds, so an answer taken by the process that waits on it (a
// live run serving its channel) is not held up by the poll: the channel
// is closed and replaced at every post.
var posted = struct {
	sync.Mutex
	ch chan struct{}
}{ch: make(chan struct{})}

func wakeWaiters() {
	posted.Lock()
	close(posted.ch)
	posted.ch = make(chan struct{})
	posted.Unlock()
}

func postedHere() <-chan struct{} {
	posted.Lock()
	defer posted.Unlock()
	return posted.ch
}

// mailboxDir is the directory of a session's (or the sessionless) mailbox.
const mailboxDir = "mailbox"

// MailboxPoll is how often Wait looks for an answer.
const MailboxPoll = 100 * time.Millisecond

// maxDeliveryBytes bounds what is read of a mailbox file: four answers of
// 2,000 characters and their labels take a small part of it.
const maxDeliveryBytes = 256 << 10

// Box names one question set's mailbox.
type Box struct {
	// Session is the session's id, "" for a set asked outside a session
	// (askuser ask, mcp, hook).
	Session string
	// Key names the set (channel.Key form).
	Key string
}

// Delivery is the first answer to a question set.
type Delivery struct {
	// Answers hold one answer per question of the set, in order.
	Answers []ask.Answer `json:"answers"`
	// By names who answered, for a person to read: "@alice on Slack", "a
	// person on the inbox page", "a person at the terminal", "the answers
	// file".
	By string `json:"by"`
	// Who is set when a person answered in a chat channel.
	Who *channel.Who `json:"who,omitempty"`
	At  time.Time    `json:"at"`
}

// ErrAlreadyAnswered is wrapped by the *AnsweredError a second Post gets.
var ErrAlreadyAnswered = errors.New("already answered")

// AnsweredError says a set already had its answer, and whose.
type AnsweredError struct{ First Delivery }

func (e *AnsweredError) Error() string {
	return "already answered by " + ask.Display(e.First.By) + " at " + e.First.At.Local().Format("15:04")
}

// Is makes errors.Is(err, ErrAlreadyAnswered) hold.
func (e *AnsweredError) Is(target error) bool { return target == ErrAlreadyAnswered }

// FileMailbox is the answer mailbox of a state directory, in files.
type FileMailbox struct {
	st *Store
	// Poll is how often Wait looks; 0 is MailboxPoll.
	Poll time.Duration
}

// Mailbox returns the store's answer mailbox.
func (st *Store) Mailbox() Mailbox { return st.backend().Mailbox() }

// dir is the directory holding box's file, after checking that box names
// one: a session id is an ID (ParseID), a key is a key, so neither can
// name a path outside the state directory.
func (m *FileMailbox) dir(box Box) (string, error) {
	if err := box.Check(); err != nil {
		return "", err
	}
	if box.Session == "" {
		return filepath.Join(m.st.Dir, mailboxDir), nil
	}
	return filepath.Join(m.st.SideDir(ID(box.Session)), mailboxDir), nil
}

// Check reports whether box names a set, as every mailbox checks it: its
// key is a key, its session (if any) an id.
func (box Box) Check() error {
	if !channel.ValidKey(box.Key) {
		return fmt.Errorf("mailbox: %s is not a question set's key", ask.Excerpt(box.Key))
	}
	if box.Session != "" {
		if _, err := ParseID(box.Session); err != nil {
			return fmt.Errorf("mailbox: %w: %w", ErrNotFound, err)
		}
	}
	return nil
}

// mkdir makes box's directory: a link planted as the session's side
// directory or as the mailbox is refused, so an answer is never written
// outside the state directory.
func (m *FileMailbox) mkdir(box Box, dir string) error {
	if box.Session == "" {
		_, err := m.st.ownDir(mailboxDir)
		return err
	}
	if _, err := m.st.ownDir("sessions"); err != nil {
		return err
	}
	if err := statefile.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return err
	}
	return statefile.MkdirAll(dir, 0o700)
}

// Post gives box its answer. When box has one already, nothing changes and
// the error is an *AnsweredError naming who answered first and when. A
// session's set is posted only while the session exists: one removed
// while this posted is an ErrNotFound, and what this made in its side
// directory goes too.
func (m *FileMailbox) Post(ctx context.Context, box Box, d Delivery) error {
	dir, err := m.dir(box)
	if err != nil {
		return err
	}
	if len(d.Answers) == 0 || d.By == "" || d.At.IsZero() {
		return fmt.Errorf("mailbox: an answer needs its answers, who gave them and when")
	}
	if box.Session != "" && m.gone(box.Session) {
		return fmt.Errorf("mailbox: %w %s: it was deleted", ErrNotFound, ask.Excerpt(box.Session))
	}
	hook("post: session found")
	data, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("mailbox: encode the answer: %w", err)
	}
	err = m.put(ctx, box, dir, data)
	// Remove may have run since the check above, and found no side
	// directory to delete, or deleted it before this made it anew.
	if box.Session != "" && m.gone(box.Session) {
		os.RemoveAll(m.st.SideDir(ID(box.Session)))
		return fmt.Errorf("mailbox: %w %s: it was deleted", ErrNotFound, ask.Excerpt(box.Session))
	}
	if err == nil {
		wakeWaiters()
	}
	return err
}

// gone reports whether session id's journal is no longer there.
func (m *FileMailbox) gone(id string) bool {
	_, err := os.Lstat(filepath.Join(m.st.sessionsDir(), id+".jsonl"))
	return err != nil
}

// put links the answer data into box's directory dir, made if need be.
func (m *FileMailbox) put(ctx context.Context, box Box, dir string, data []byte) error {
	if err := m.mkdir(box, dir); err != nil {
		return fmt.Errorf("mailbox: %w", err)
	}
	tmp, err := writeTemp(dir, ".post-", append(data, '\n'))
	if err != nil {
		return fmt.Errorf("mailbox: %w", err)
	}
	defer os.Remove(tmp)
	final := filepath.Join(dir, box.Key+".json")
	if err := os.Link(tmp, final); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("mailbox: %w", err)
		}
		first, ok, rerr := m.Get(ctx, box)
		if rerr != nil {
			return rerr
		}
		if !ok { // removed just now (the session was deleted)
			return fmt.Errorf("mailbox: %w %s: it was deleted", ErrNotFound, ask.Excerpt(box.Session))
		}
		return &AnsweredError{First: first}
	}
	syncDir(dir)
	return nil
}

// writeTemp writes data to a new file in dir, synced, and returns its path.
func writeTemp(dir, prefix string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// Get returns box's answer, if it has one.
func (m *FileMailbox) Get(ctx context.Context, box Box) (Delivery, bool, error) {
	dir, err := m.dir(box)
	if err != nil {
		return Delivery{}, false, err
	}
	data, err := statefile.ReadFile(filepath.Join(dir, box.Key+".json"), maxDeliveryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return Delivery{}, false, nil
	}
	if err != nil {
		return Delivery{}, false, fmt.Errorf("mailbox: %w", err)
	}
	d, err := DecodeDelivery(data)
	if err != nil {
		return Delivery{}, false, fmt.Errorf("mailbox: the answer to set %s is damaged (%v); delete %s to let it be answered again",
			box.Key, err, filepath.Join(dir, box.Key+".json"))
	}
	return d, true, nil
}

// DecodeDelivery reads an answer as a mailbox keeps it. An answer that is
// no JSON, or holds no answers, is damaged: the error says which.
func DecodeDelivery(data []byte) (Delivery, error) {
	var d Delivery
	if err := json.Unmarshal(data, &d); err != nil {
		return Delivery{}, err
	}
	if len(d.Answers) == 0 {
		return Delivery{}, errors.New("it holds no answers")
	}
	return d, nil
}

// Wait returns box's answer as soon as it has one, or ask.CtxErr(ctx)
// when ctx ends first. It looks every Poll, and at once when this process
// posts an answer.
func (m *FileMailbox) Wait(ctx context.Context, box Box) (Delivery, error) {
	every := m.Poll
	if every <= 0 {
		every = MailboxPoll
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		here := postedHere()
		d, ok, err := m.Get(ctx, box)
		if err != nil || ok {
			return d, err
		}
		select {
		case <-ctx.Done():
			return Delivery{}, ask.CtxErr(ctx)
		case <-t.C:
		case <-here:
		}
	}
}

// Prune removes the answers to sets asked outside a session that were
// given before before, and temporary files a killed Post left anywhere.
// A session's answers go with the session (Remove).
func (m *FileMailbox) Prune(before time.Time) error {
	// Nothing is deleted through a link: each directory on the way, below
	// the state directory, is checked.
	var dirs []string
	top := filepath.Join(m.st.Dir, mailboxDir)
	if isOwnDir(top) {
		dirs = append(dirs, top)
	}
	if isOwnDir(m.st.sessionsDir()) {
		side, _ := filepath.Glob(filepath.Join(m.st.sessionsDir(), "*.d", mailboxDir))
		for _, dir := range side {
			if isOwnDir(filepath.Dir(dir)) && isOwnDir(dir) {
				dirs = append(dirs, dir)
			}
		}
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			temp := strings.HasPrefix(e.Name(), ".post-")
			if !temp && dir != top {
				continue
			}
			if fi, err := e.Info(); err == nil && fi.ModTime().Before(before) {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
	return nil
}
