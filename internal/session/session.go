// Package session keeps askuser runs so they can be listed, continued and
// resumed after the process is gone.
//
// A session is one append-only journal of JSON records, one per line. The
// Store encodes and replays the records itself, and keeps them through its
// Backend (backend.go): by default the state directory's files,
// <dir>/sessions/<id>.jsonl (files.go); with a team store, a database many
// machines share (internal/store/postgres). The records are the same bytes
// either way (internal/store/storetest's golden journal, written by the
// files store of askuser's main branch, pins that), and one table of
// contract cases runs against both.
//
// Every record is written durably before the run acts on it: in files, a
// single write and an fdatasync, so a kill -9 at any instant leaves a
// journal whose every complete line is a record; at most the last line is
// torn, and loading drops it (and says so). A damaged line anywhere else
// is reported with the journal, the line and how many records before it
// are intact, never a panic. Loading decodes the call records (asked,
// replied, answered, partial) that a later user message settles only as
// far as checking they are JSON: what they record is dropped at that
// message anyway (replay.go). A session is held while a process appends
// to it (a file lock, or a lease in the team store, released when the
// process dies), and a held session is never deleted (Remove refuses
// it).
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
// directory, the machine and a title. Formats 1 and 2 load unchanged.
//
// Beside the journals the store keeps what answers from elsewhere need:
// the answer mailbox (the first answer to a set, whoever gave it; in
// files, mailbox.go: a file created once), the registry of sets waiting in
// the inbox or a chat channel (registry.go), and a lock per chat channel,
// held by the one process that serves it (chanlock.go). Each is used
// through an interface its consumer (internal/relay) declares. What the
// state directory keeps in any case belongs to the machine: a session's
// side directory (tool logs, serve.log) and askuser serve's address and
// token.
package session

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/statefile"
)

// FormatVersion is the newest journal format this askuser reads: 3 for
// its own sessions, 4 for host sessions (host.go).
const FormatVersion = HostFormat

// Meta describes a session: what it runs against and how it began.
type Meta struct {
	// ID is checked where it is read: a journal's header must hold the
	// id it is stored under (load).
	ID       ID        `json:"id"`
	Created  time.Time `json:"created"`
	Provider string    `json:"provider"`
	Model    string    `json:"model"`
	BaseURL  string    `json:"base_url,omitempty"`
	Script   string    `json:"script,omitempty"`
	System   string    `json:"system,omitempty"`
	Cwd      string    `json:"cwd,omitempty"`
	// Machine names the machine the session runs on (its hostname, or
	// ASKUSER_MACHINE where hostnames are not stable): with Cwd, where a
	// late answer may resume it.
	Machine     string `json:"machine,omitempty"`
	FirstPrompt string `json:"first_prompt,omitempty"`
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
	// Host names the agent program a host session runs (claude, codex,
	// gemini, opencode); "" for askuser's own agent (host.go).
	Host string `json:"host,omitempty"`
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

	// Host is a host record's (host.go).
	Host *HostRecord `json:"host,omitempty"`
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
	recHost     = "host"
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
	// Host is the last host record of a host session (host.go), or nil.
	Host *HostRecord

	// where names the journal (Backend.Where); j appends to it while the
	// session is open.
	where string
	j     Appender
	// readAs is the id the journal was read under: its header must hold
	// it (ownID).
	readAs ID
	// size is the journal's length, kept below MaxJournalBytes.
	size int64
	now  func() time.Time
	// mu serialises appends: sub-agents' loops journal concurrently.
	mu sync.Mutex
}

// Path names the journal: its file, or where the store keeps it.
func (s *Session) Path() string { return s.where }

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
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.j == nil {
		return nil
	}
	err := s.j.Close()
	s.j = nil
	return err
}

// append writes one record durably: one Append of the backend (a write
// and a sync of the file, or a row of the team store).
func (s *Session) append(r record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.j == nil {
		return fmt.Errorf("session %s is closed", s.Meta.ID)
	}
	if r.At.IsZero() {
		r.At = s.now()
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode session record: %w", err)
	}
	if s.size+int64(len(line))+1 > MaxJournalBytes {
		// Written, the journal could not be loaded again: it stays
		// as it is, and resumable.
		return fmt.Errorf("session %s: %w (%s); it cannot grow further, so the run stops here: start a new session",
			s.Meta.ID, ErrJournalFull, statefile.Size(MaxJournalBytes))
	}
	if err := s.j.Append(Line{Data: line, Type: r.Type, At: r.At, Status: r.Status}); err != nil {
		return err
	}
	s.size += int64(len(line)) + 1
	s.Updated = r.At
	return nil
}
