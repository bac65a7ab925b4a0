package session

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// Host sessions: an agent program askuser runs but does not drive itself
// (Claude Code, Codex CLI, Gemini CLI, OpenCode; internal/agenthost). Its
// askuser session is a journal like any other, so listing, the inbox, the
// channels, cancel and the answer mailbox treat it as they treat
// askuser's own:
//   - the header's Meta.Host names the program, Meta.Cwd its folder and
//     Meta.Machine the machine;
//   - a call of the agent that asks a person is an assistant message
//     holding its tool_use, preceded by the set's "asked" record (so a
//     crash between the two leaves nothing listed); its answer is a
//     "replied" record, and a user message holding a tool_result settles
//     the call once the agent has the answer (HostCall, HostAnswered,
//     HostSettled);
//   - "host" records (HostRecord) say what happened to the agent: it runs,
//     a call was told to wait, it stopped with the call waiting, a
//     continue began or took, or failed. The last one is Session.Host.
//
// A host session's journal is format 4 (a host record is new there); an
// own session's stays format 3, so an older askuser still reads it.

// HostFormat is the journal format of a host session.
const HostFormat = 4

// ownFormat is the journal format of askuser's own sessions.
const ownFormat = 3

// HostState is what happened to a host session's agent.
type HostState string

// The states of a host session's agent.
const (
	// HostRunning: the agent runs under askuser (askuser run --agent, or
	// a resume continuing it).
	HostRunning HostState = "running"
	// HostSuspending: askuser told the agent that call Call waits for a
	// person (Claude Code: deferred; the others: "not answered yet"); the
	// agent is stopping.
	HostSuspending HostState = "suspending"
	// HostWaiting: the agent stopped; its call Call waits for the answer,
	// and Session says how to continue it.
	HostWaiting HostState = "waiting"
	// HostContinuing: a continue began with the answers recorded (for a
	// host without defer, Prompt is what it sent).
	HostContinuing HostState = "continuing"
	// HostContinued: the agent has the answer to Call and went on.
	HostContinued HostState = "continued"
	// HostFinished: the agent ended with no call waiting.
	HostFinished HostState = "finished"
	// HostFailed: the run or a continue failed; Detail says why. Call, if
	// set, still waits (a continue can be tried again) unless Lost.
	HostFailed HostState = "failed"
)

// HostRecord says what happened to a host session's agent.
type HostRecord struct {
	State HostState `json:"state"`
	// ID is the host's own session id, once known.
	ID string `json:"id,omitempty"`
	// Session is what the host room keeps of the host's session
	// (agenthost.Session, JSON), once known; never an environment.
	Session json.RawMessage `json:"session,omitempty"`
	// Call is the tool_use id of the call the record is about.
	Call string `json:"call,omitempty"`
	// Prompt is the continuation prompt a continue sent to a host without
	// defer, so a continue cut short can tell whether the host took it.
	Prompt string `json:"prompt,omitempty"`
	// Lost says the host dropped Call: it can no longer be continued.
	Lost bool `json:"lost,omitempty"`
	// Started is when the agent was started, for a running record: where
	// it stopped is looked for in what it wrote since.
	Started time.Time `json:"started,omitzero"`
	Detail  string    `json:"detail,omitempty"`
}

// HostSessionID is the askuser session of a host's session id when askuser
// did not start the host itself (askuser hook, askuser mcp in the person's
// own configuration): the same host session always lands in the same
// askuser session, with no index to keep. It is the third maker of an ID
// beside NewID and ParseID, and makes the same form (version 4).
func HostSessionID(kind, hostID string) ID {
	sum := sha256.Sum256([]byte("askuser host session\x00" + kind + "\x00" + hostID))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return ID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// IsHost reports whether the session runs an agent program askuser does
// not drive itself.
func (s *Session) IsHost() bool { return s.Meta.Host != "" }

// SetHost records what happened to the agent. Fields left empty keep
// their last value (ID, Session).
func (s *Session) SetHost(h HostRecord) error {
	if err := s.append(record{Type: recHost, Host: &h}); err != nil {
		return err
	}
	s.noteHost(h)
	return nil
}

// noteHost makes h the session's last host record.
func (s *Session) noteHost(h HostRecord) {
	if s.Host != nil {
		if h.ID == "" {
			h.ID = s.Host.ID
		}
		if h.Session == nil {
			h.Session = s.Host.Session
		}
	}
	s.Host = &h
}

// The Host methods record and apply at once: a host session has no agent
// loop keeping its State, so the session keeps it as replaying its journal
// would.

// HostCall records that the agent's call asks req, at at: the set first
// (on its own it lists nothing), then the call.
func (s *Session) HostCall(call agentloop.Block, req ask.Request, at time.Time) error {
	call.Type = agentloop.BlockToolUse
	if err := s.Asked(req, call.ID, at); err != nil {
		return err
	}
	s.State.NoteAsked(req, call.ID, at)
	return s.HostMessage(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{call}})
}

// HostReplied records the answers to set requestID.
func (s *Session) HostReplied(requestID string, answers []ask.Answer) error {
	if err := s.Replied(requestID, answers); err != nil {
		return err
	}
	s.State.NoteReplied(requestID, answers)
	return nil
}

// HostAnswered records the answers to the set of call callID, then the
// call settled with result (what the agent was given, for the record).
func (s *Session) HostAnswered(requestID, callID string, answers []ask.Answer, result string) error {
	if err := s.HostReplied(requestID, answers); err != nil {
		return err
	}
	return s.HostSettled(callID, result, false)
}

// HostSettled records that call callID is settled, with result as what
// the agent was told: it no longer waits.
func (s *Session) HostSettled(callID, result string, isError bool) error {
	return s.HostMessage(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{
		Type: agentloop.BlockToolResult, ToolUseID: callID, Content: result, IsError: isError}}})
}

// HostMessage records a message of the host session (the agent's last
// words, a call, its result).
func (s *Session) HostMessage(m agentloop.Message) error {
	if err := s.Message(m); err != nil {
		return err
	}
	s.State.Append(m)
	return nil
}

// HostPending returns the agent's call that waits (the tool_use of the
// last assistant message with no result), and the answers recorded for
// its set so far (nil when none are).
func (s *Session) HostPending() (call *agentloop.Block, req *ask.Request, answers []ask.Answer) {
	pending := s.State.Pending()
	if len(pending) == 0 {
		return nil, nil, nil
	}
	c := pending[0]
	for id, by := range s.State.AskedBy {
		if by != c.ID {
			continue
		}
		r := s.State.Questions[id]
		return &c, &r, s.State.Replies[id]
	}
	return &c, nil, nil
}

// AnswersFor returns the answers recorded for the set call callID asked,
// if it was answered.
func (s *Session) AnswersFor(callID string) ([]ask.Answer, bool) {
	for id, by := range s.State.AskedBy {
		if by == callID {
			a, ok := s.State.Replies[id]
			return a, ok
		}
	}
	return nil, false
}
