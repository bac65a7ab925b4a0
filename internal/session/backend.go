package session

import (
	"context"
	"time"
)

// The store seam: where a Store keeps what its sessions share with other
// processes and machines. A Store without a Backend keeps it in files in
// its state directory (files.go); internal/store/postgres keeps it in a
// database a team shares. Either way the Store encodes and replays the
// journal itself, so both hold the very same records, and the contract
// tests (internal/store/storetest) give both the same cases to answer
// alike.
//
// What a Backend never holds: the state directory's own files (a
// session's side directory of tool logs, askuser serve's address and
// token), which belong to the machine.

// Backend holds sessions' journals, the answer mailbox, the registry of
// waiting sets and the locks.
type Backend interface {
	// Create stores a new session whose first record is header, and
	// holds it until the Appender is closed. An id already stored is
	// an error wrapping ErrExists.
	Create(meta Meta, header Line) (Appender, error)
	// Open holds session id for appending and returns its journal, one
	// record per line. A session another process holds is an error
	// wrapping ErrInUse, one not stored wraps ErrNotFound.
	Open(id ID) (Appender, []byte, error)
	// Read returns session id's journal, refusing one past
	// MaxJournalBytes.
	Read(id ID) ([]byte, error)
	// Find returns the names (as List gives them) of the sessions named
	// ref or beginning with it: ref alone when it is one. The Store
	// checks each is an id where it needs one (Remove takes a damaged
	// journal's name as it is).
	Find(ref string) ([]string, error)
	// List returns every session's journal, read, with whether a
	// process holds it; one that cannot be read (not an id, not a
	// regular file, too large) is listed with why.
	List() ([]Stored, error)
	// InUse reports whether a process holds session id.
	InUse(id ID) bool
	// Remove deletes a session, its journal and answers, unless a
	// process holds it (ErrInUse). name is its id, or the name a damaged
	// journal is listed under.
	Remove(name string) error
	// Where names session id's journal in messages (a file, or a
	// session in a database), or the store itself when id is "".
	Where(id ID) string

	Mailbox() Mailbox
	Registry() Registry
	Deliveries() Deliveries
	// HoldChannel takes chat channel name for this process (ErrChannelHeld
	// while another holds it).
	HoldChannel(name string) (release func(), err error)
	// Version is a value that changes whenever a session, an answer, a
	// waiting set or a lock does, for a page to know when to redraw; ""
	// when the backend cannot say cheaply (files: a page looks at the
	// state directory's files instead).
	Version() (string, error)
	// Close ends what the backend holds open; the locks this process
	// holds are released.
	Close() error
}

// Line is one journal record, as the Store encoded it, and what a
// backend may note of it without decoding it.
type Line struct {
	// Data is the record's JSON, without a newline.
	Data []byte
	Type string
	At   time.Time
	// Status is a status record's status.
	Status string
}

// Appender writes a held session's journal.
type Appender interface {
	// Append writes one record, durably once it returns.
	Append(Line) error
	// Truncate drops what follows the first good bytes of the journal
	// Open returned: a torn last record.
	Truncate(good int64) error
	// Close releases the session.
	Close() error
}

// Stored is one session of a listing, read.
type Stored struct {
	// Name is the session's id, or, for a journal that cannot be read by
	// id, the name it is listed under.
	Name string
	// Data is the journal; Err says why it could not be read.
	Data []byte
	Err  error
	// Updated is when it was last written, as the store knows it (a
	// file's time): what a listing shows of a journal it cannot read.
	Updated time.Time
	InUse   bool
}

// Mailbox holds the first answer to each question set, wherever it was
// given (FileMailbox in files).
type Mailbox interface {
	// Post gives box its answer; a second gets an *AnsweredError naming
	// the first.
	Post(ctx context.Context, box Box, d Delivery) error
	Get(ctx context.Context, box Box) (Delivery, bool, error)
	// Wait returns box's answer as soon as it has one.
	Wait(ctx context.Context, box Box) (Delivery, error)
	// Prune removes the answers to sets asked outside a session given
	// before before.
	Prune(before time.Time) error
}

// Deliveries records the deliveries chat channels took from their
// platforms (a WhatsApp message, a Telegram update, a Slack click), by
// the platform's id, for every process and machine of the store, so one
// the platform delivers again (Meta retries a webhook for days) is taken
// no second time, across restarts (FileDeliveries in files).
type Deliveries interface {
	// Taken reports whether delivery id was taken (and not pruned since).
	Taken(ctx context.Context, id string) (bool, error)
	// Take records delivery id as taken at at, durably once it returns;
	// taking it again changes nothing.
	Take(ctx context.Context, id string, at time.Time) error
	// Prune forgets the deliveries taken before before.
	Prune(ctx context.Context, before time.Time) error
}

// Registry holds the sets waiting in the inbox or a chat channel
// (FileRegistry in files).
type Registry interface {
	Get(ctx context.Context, key string) (Entry, error)
	// Update reads the entry under key, lets fn change it and writes it
	// back, with no other Update of key in between, in any process.
	Update(ctx context.Context, key string, fn func(e *Entry, found bool) error) (Entry, error)
	// List returns every entry, oldest first.
	List(ctx context.Context) ([]Entry, error)
	Delete(ctx context.Context, key string) error
	// Hold marks the set under key as waited on by this process until
	// release is called (or the process ends); Held reports whether a
	// process does, or may: a store that cannot say answers true, since
	// a set nobody waits on is withdrawn.
	Hold(key string) (release func(), err error)
	Held(key string) bool
	// Claim holds the set under key as Hold does, but only when no
	// process holds it already (ok false, and nothing held): two processes
	// asking one set outside a session learn that the other asks it.
	Claim(key string) (release func(), ok bool, err error)
}
