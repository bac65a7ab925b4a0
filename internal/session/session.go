// Package session keeps askuser runs on disk so they can be listed,
// continued and resumed after the process is gone.
//
// A session is one append-only JSON-lines journal, <dir>/sessions/<id>.jsonl.
// Every record is written with a single write and synced to disk before the
// run acts on it, so a kill -9 at any instant leaves a journal whose every
// complete line is a record; at most the last line is torn, and loading
// drops it (and says so). A damaged line anywhere else is reported with the
// file, the line and how many records before it are intact, never a panic.
// Loading decodes the call records (asked, replied, answered, partial) that
// a later user message settles only as far as checking they are JSON: what
// they record is dropped at that message anyway (replay.go).
// A journal is locked while a process appends to it, and a locked journal
// is never deleted (Remove refuses it).
//
// What else may be in the state directory cannot be turned against its
// owner. A session's id is an ID (a v4 UUID, lower-case hex), made only
// by NewID and ParseID, and a journal is used only under the id its
// header holds: a header whose id is not that file's name is damage, so a
// planted journal never lends its id to a command line or a path. A
// journal is opened through statefile, so a link is never followed and a
// FIFO or a device is never waited on; listing names such an entry as
// damaged without opening it. A journal is read only up to
// MaxJournalBytes, and a run stops before writing past it.
//
// Format 3 adds "partial" records (answers to some questions of a set,
// with their indexes: the rest are asked later) and "cancel" records (the
// person declined to answer, askuser cancel, after "replied" records that
// say so for every pending set); the header's meta carries the working
// directory and a title. Formats 1 and 2 load unchanged.
//
// Beside the journals the store keeps what answers from elsewhere need:
// the answer mailbox (mailbox.go: the first answer to a set, whoever gave
// it, in a file created once), the registry of sets waiting in the inbox
// or a chat channel (registry.go), and a lock per chat channel, held by
// the one process that serves it (chanlock.go). Each is used through an
// interface its consumer (internal/relay) declares, so another store can
// take their place.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/statefile"
)

// FormatVersion is the journal format version.
const FormatVersion = 3

// Meta describes a session: what it runs against and how it began.
type Meta struct {
	// ID is checked where it is read: a journal's header must hold the
	// id its file is named by (load).
	ID          ID        `json:"id"`
	Created     time.Time `json:"created"`
	Provider    string    `json:"provider"`
	Model       string    `json:"model"`
	BaseURL     string    `json:"base_url,omitempty"`
	Script      string    `json:"script,omitempty"`
	System      string    `json:"system,omitempty"`
	Cwd         string    `json:"cwd,omitempty"`
	FirstPrompt string    `json:"first_prompt,omitempty"`
	// Title is the first prompt made short and safe to show (Title).
	Title string `json:"title,omitempty"`
	// Tools: what the run was given, so resume gives the same (a flag
	// given to resume wins). MCPConfig holds each --mcp-config as given,
	// a file made absolute.
	MCPConfig       []string `json:"mcp_config,omitempty"`
	StrictMCP       bool     `json:"strict_mcp_config,omitempty"`
	AllowedTools    []string `json:"allowed_tools,omitempty"`
	DisallowedTools []string `json:"disallowed_tools,omitempty"`
	PermissionMode  string   `json:"permission_mode,omitempty"`
	// SubagentModel is the model sub-agents run on, when not the run's.
	SubagentModel string `json:"subagent_model,omitempty"`
}

// record is one journal line.
type record struct {
	Type    string    `json:"type"`
	At      time.Time `json:"at"`
	Version int       `json:"version,omitempty"`
	Meta    *Meta     `json:"meta,omitempty"`

	Message   *agentloop.Message `json:"message,omitempty"`
	Request   *ask.Request       `json:"request,omitempty"`
	RequestID string             `json:"request_id,omitempty"`
	ToolUseID string             `json:"tool_use_id,omitempty"`
	Key       string             `json:"key,omitempty"`
	Value     json.RawMessage    `json:"value,omitempty"`
	Result    *agentloop.Block   `json:"result,omitempty"`
	Answers   []ask.Answer       `json:"answers,omitempty"`
	// Indexes are the questions of the set that a partial record's
	// answers answer, in order.
	Indexes []int `json:"indexes,omitempty"`

	// Parent is set on the records of a sub-agent's conversation: the
	// tool_use ids of the Task calls that lead to it, joined by "/".
	Parent string `json:"parent,omitempty"`

	Status string           `json:"status,omitempty"`
	Detail string           `json:"detail,omitempty"`
	Turns  int              `json:"turns,omitempty"`
	Usage  *agentloop.Usage `json:"usage,omitempty"`
}

// Record types.
const (
	recSession  = "session"
	recMessage  = "message"
	recAsked    = "asked"
	recReplied  = "replied"
	recStep     = "step"
	recAnswered = "answered"
	recStatus   = "status"
	recPartial  = "partial"
	recCancel   = "cancel"
)

// Session is an open journal and the conversation it holds.
type Session struct {
	Meta  Meta
	State *agentloop.State
	// Status and Detail are from the last status record.
	Status string
	Detail string
	// Updated is the time of the last record.
	Updated time.Time
	// Recovered says what loading repaired (a torn last line), or "".
	Recovered string
	// Cancelled is set when the person declined to answer (askuser
	// cancel) and nothing has happened since.
	Cancelled *Cancellation

	path string
	f    *os.File
	// size is the journal's length, kept below MaxJournalBytes.
	size   int64
	unlock func()
	now    func() time.Time
	// mu serialises appends: sub-agents' loops journal concurrently.
	mu sync.Mutex
}

// Path is the journal file.
func (s *Session) Path() string { return s.path }

// Message records a message of the top conversation (agentloop.Journal);
// so do Asked, Replied, Partial, Step and Answered for its other events.
// A sub-agent's go through Child.
func (s *Session) Message(m agentloop.Message) error { return s.top().Message(m) }

// Asked records a question set starting to wait.
func (s *Session) Asked(req ask.Request, toolUseID string, at time.Time) error {
	return s.top().Asked(req, toolUseID, at)
}

// Replied records the answers to a question set.
func (s *Session) Replied(requestID string, answers []ask.Answer) error {
	return s.top().Replied(requestID, answers)
}

// Partial records answers to some questions of a set
// (agentloop.PartialJournal).
func (s *Session) Partial(requestID string, answers []ask.Answer, indexes []int) error {
	return s.top().Partial(requestID, answers, indexes)
}

// Step records a step of a tool call.
func (s *Session) Step(toolUseID, key string, value json.RawMessage) error {
	return s.top().Step(toolUseID, key, value)
}

// Answered records a tool result.
func (s *Session) Answered(id string, result agentloop.Block, answers []ask.Answer) error {
	return s.top().Answered(id, result, answers)
}

// Child returns the journal of the sub-agent started by call toolUseID
// (agentloop.ChildJournal): its records go into this session's file,
// marked with their parent, and load into State.Children.
func (s *Session) Child(toolUseID string) agentloop.Journal { return s.top().Child(toolUseID) }

func (s *Session) top() *journalAt { return &journalAt{s: s} }

// journalAt writes the records of one conversation of a session: the top
// one (parent "") or a sub-agent's, whose records carry the path of Task
// calls that started it.
type journalAt struct {
	s      *Session
	parent string
}

func (j *journalAt) Message(m agentloop.Message) error {
	return j.s.append(record{Type: recMessage, Message: &m, Parent: j.parent})
}

func (j *journalAt) Asked(req ask.Request, toolUseID string, at time.Time) error {
	return j.s.append(record{Type: recAsked, At: at, Request: &req, ToolUseID: toolUseID, Parent: j.parent})
}

func (j *journalAt) Replied(requestID string, answers []ask.Answer) error {
	return j.s.append(record{Type: recReplied, RequestID: requestID, Answers: answers, Parent: j.parent})
}

func (j *journalAt) Partial(requestID string, answers []ask.Answer, indexes []int) error {
	return j.s.append(record{Type: recPartial, RequestID: requestID, Answers: answers, Indexes: indexes, Parent: j.parent})
}

func (j *journalAt) Step(toolUseID, key string, value json.RawMessage) error {
	return j.s.append(record{Type: recStep, ToolUseID: toolUseID, Key: key, Value: value, Parent: j.parent})
}

func (j *journalAt) Answered(id string, result agentloop.Block, answers []ask.Answer) error {
	return j.s.append(record{Type: recAnswered, ToolUseID: id, Result: &result, Answers: answers, Parent: j.parent})
}

// Child is the journal of the sub-agent this conversation's call
// toolUseID started.
func (j *journalAt) Child(toolUseID string) agentloop.Journal {
	if j.parent == "" {
		return &journalAt{s: j.s, parent: toolUseID}
	}
	return &journalAt{s: j.s, parent: j.parent + "/" + toolUseID}
}

// SetStatus records how a run ended.
func (s *Session) SetStatus(status, detail string, turns int, usage agentloop.Usage) error {
	s.Status, s.Detail = status, detail
	return s.append(record{Type: recStatus, Status: status, Detail: detail, Turns: turns, Usage: &usage})
}

// Close releases the journal.
func (s *Session) Close() error {
	if s.f == nil {
		return nil
	}
	s.unlock()
	err := s.f.Close()
	s.f = nil
	return err
}

// append writes one record durably: one write, then a sync.
func (s *Session) append(r record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f == nil {
		return fmt.Errorf("session %s is closed", s.Meta.ID)
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode session record: %w", err)
	}
	line = append(line, '\n')
	if s.size+int64(len(line)) > MaxJournalBytes {
		// Written, the journal could not be loaded again: it stays
		// as it is, and resumable.
		return fmt.Errorf("session %s: %w (%s); it cannot grow further, so the run stops here: start a new session",
			s.Meta.ID, ErrJournalFull, statefile.Size(MaxJournalBytes))
	}
	n, err := s.f.Write(line)
	s.size += int64(n)
	if err != nil {
		return fmt.Errorf("write session %s: %w", s.path, err)
	}
	if err := syncData(s.f); err != nil {
		return fmt.Errorf("sync session %s: %w", s.path, err)
	}
	s.Updated = r.At
	return nil
}

// ErrNotFound is returned for a session id that matches no session.
var ErrNotFound = errors.New("no such session")

// Store is a directory of sessions.
type Store struct {
	Dir string
	Now func() time.Time
}

func (st *Store) sessionsDir() string { return filepath.Join(st.Dir, "sessions") }

// journal is the path of session id's journal.
func (st *Store) journal(id ID) string { return filepath.Join(st.sessionsDir(), string(id)+".jsonl") }

func (st *Store) now() time.Time {
	if st.Now != nil {
		return st.Now()
	}
	return time.Now()
}

// Create starts a new session journal.
func (st *Store) Create(meta Meta) (*Session, error) {
	dir := st.sessionsDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory: %w (set --state-dir or ASKUSER_STATE_DIR to a writable directory)", err)
	}
	if meta.ID == "" {
		meta.ID = NewID()
	} else if _, err := ParseID(string(meta.ID)); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	if meta.Created.IsZero() {
		meta.Created = st.now()
	}
	if meta.Title == "" {
		meta.Title = Title(meta.FirstPrompt)
	}
	path := st.journal(meta.ID)
	f, err := statefile.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	unlock, err := lock(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	s := &Session{Meta: meta, State: agentloop.NewState(), path: path, f: f, unlock: unlock, now: st.now}
	if err := s.append(record{Type: recSession, At: meta.Created, Version: FormatVersion, Meta: &meta}); err != nil {
		s.Close()
		return nil, err
	}
	syncDir(dir)
	return s, nil
}
