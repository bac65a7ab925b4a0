package agentloop

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// State is a conversation as far as it has gone: its messages, and what the
// tool calls of the last assistant message have done so far (results
// ready, question sets asked and answered, in whole or in part, steps
// recorded). A run, a
// resumed run and a journal replay all build the same State, through the
// methods named after the Journal's.
//
// Everything about the calls of one assistant message is dropped when the
// user message carrying their results is appended, so a State holds the
// conversation plus the work of one message, however long the session.
type State struct {
	Messages []Message
	// Results holds tool results ready for the tool uses of the last
	// assistant message, by tool_use id, until all are ready and become
	// the next user message.
	Results map[string]Block
	// AskedAt records when each open question set (by request id) was
	// first put to a frontend.
	AskedAt map[string]time.Time
	// Questions records the question sets of AskedAt, for listing what a
	// waiting session waits on.
	Questions map[string]ask.Request
	// AskedBy records which tool call (tool_use id) asked each set.
	AskedBy map[string]string
	// Replies holds the answers given to question sets, by request id.
	Replies map[string][]ask.Answer
	// Partial holds the answers given to some questions of an open set,
	// by request id and question index, until the rest are answered: only
	// those are asked again.
	Partial map[string]map[int]ask.Answer
	// Steps holds what each call recorded (Call.Record), by tool_use id
	// and key.
	Steps map[string]map[string]json.RawMessage
	// Session holds values that outlive their call (Call.SetSessionValue);
	// a sub-agent's conversation shares its parent's.
	Session *Values
	// Children holds the conversations of sub-agents started by calls of
	// the last assistant message (the Task tool), by tool_use id.
	Children map[string]*State
	// order lists the question sets of AskedAt in the order they were asked.
	order []string
}

// NewState returns an empty conversation.
func NewState() *State {
	s := &State{Session: &Values{}}
	s.resetCalls()
	return s
}

func (s *State) resetCalls() {
	s.Results = map[string]Block{}
	s.AskedAt = map[string]time.Time{}
	s.Questions = map[string]ask.Request{}
	s.AskedBy = map[string]string{}
	s.Replies = map[string][]ask.Answer{}
	s.Partial = map[string]map[int]ask.Answer{}
	s.Steps = map[string]map[string]json.RawMessage{}
	s.Children = map[string]*State{}
	s.order = nil
}

// Child returns the conversation of the sub-agent started by call
// toolUseID, creating it empty.
func (s *State) Child(toolUseID string) *State {
	c, ok := s.Children[toolUseID]
	if !ok {
		c = NewState()
		c.Session = s.Session
		s.Children[toolUseID] = c
	}
	return c
}

// Descendant returns the conversation at path, the tool_use ids of the
// Task calls that lead to it from s, creating what is missing.
func (s *State) Descendant(path []string) *State {
	for _, id := range path {
		s = s.Child(id)
	}
	return s
}

// last returns the last message, or nil.
func (s *State) last() *Message {
	if len(s.Messages) == 0 {
		return nil
	}
	return &s.Messages[len(s.Messages)-1]
}

// Pending returns the tool uses of the last assistant message that have no
// result yet, in order.
func (s *State) Pending() []Block {
	m := s.last()
	if m == nil || m.Role != RoleAssistant {
		return nil
	}
	var out []Block
	for _, b := range m.ToolUses() {
		if _, done := s.Results[b.ID]; !done {
			out = append(out, b)
		}
	}
	return out
}

// PendingQuestions returns the question sets a waiting session waits on:
// those asked by a call still pending and not yet answered, in the order
// they were asked, then its sub-agents'. A set answered in part holds only
// the questions still unanswered.
func (s *State) PendingQuestions() []ask.Request {
	var out []ask.Request
	for _, req := range s.PendingSets() {
		rest, _ := s.Remaining(req)
		out = append(out, rest)
	}
	for _, b := range s.Pending() {
		if c, ok := s.Children[b.ID]; ok {
			out = append(out, c.PendingQuestions()...)
		}
	}
	return out
}

// PendingSets returns the question sets of this conversation (not its
// sub-agents') asked by a call still pending and not yet answered, whole,
// in the order they were asked.
func (s *State) PendingSets() []ask.Request {
	pending := map[string]bool{}
	for _, b := range s.Pending() {
		pending[b.ID] = true
	}
	var out []ask.Request
	for _, id := range s.order {
		if _, answered := s.Replies[id]; !answered && pending[s.AskedBy[id]] {
			out = append(out, s.Questions[id])
		}
	}
	return out
}

// Remaining returns req with only the questions that have no answer yet
// (NotePartial), and their indexes in req; req itself when none has.
func (s *State) Remaining(req ask.Request) (ask.Request, []int) {
	have := s.Partial[req.ID]
	rest := req
	rest.Questions = nil
	var idx []int
	for i, q := range req.Questions {
		if _, ok := have[i]; !ok {
			rest.Questions = append(rest.Questions, q)
			idx = append(idx, i)
		}
	}
	return rest, idx
}

// Merged returns the answers to every question of req: those given
// before (NotePartial), and answers[j] for question idx[j].
func (s *State) Merged(req ask.Request, answers []ask.Answer, idx []int) []ask.Answer {
	out := make([]ask.Answer, len(req.Questions))
	for i, a := range s.Partial[req.ID] {
		if i < len(out) {
			out[i] = a
		}
	}
	for j, a := range answers {
		if j < len(idx) && idx[j] < len(out) {
			out[idx[j]] = a
		}
	}
	return out
}

// Unfinished reports whether the conversation stopped before the model had
// its turn, so that resuming it continues a run: calls are pending; or
// their results are all recorded but were never sent; or the last message
// is the user's and the model never replied (a run killed, cancelled or
// failed during a model call).
func (s *State) Unfinished() bool {
	if len(s.Pending()) > 0 || s.UnsentResults() {
		return true
	}
	m := s.last()
	return m != nil && m.Role == RoleUser
}

// UnsentResults reports whether every tool call of the last assistant
// message has its result recorded, but the results were never sent to the
// model. A new prompt must not follow such a message: the calls would be
// left without results.
func (s *State) UnsentResults() bool {
	m := s.last()
	return m != nil && m.Role == RoleAssistant && len(m.ToolUses()) > 0 && len(s.Pending()) == 0
}

// Append adds a message. A user message following an assistant message
// settles that message's calls: what they did is dropped.
func (s *State) Append(m Message) {
	if m.Role == RoleUser {
		s.resetCalls()
	}
	s.Messages = append(s.Messages, m)
}

// NoteAsked records a question set asked by call toolUseID at the time.
func (s *State) NoteAsked(req ask.Request, toolUseID string, at time.Time) {
	if toolUseID == "" {
		toolUseID = req.ID // journals before tool calls named their asker
	}
	if _, again := s.AskedAt[req.ID]; !again {
		s.order = append(s.order, req.ID)
	}
	s.AskedAt[req.ID] = at
	s.Questions[req.ID] = req
	s.AskedBy[req.ID] = toolUseID
}

// NoteReplied records the answers to a question set.
func (s *State) NoteReplied(requestID string, answers []ask.Answer) {
	s.Replies[requestID] = answers
}

// NotePartial records answers to some questions of an open set: answers[j]
// answers question indexes[j]. They add to those recorded before.
func (s *State) NotePartial(requestID string, answers []ask.Answer, indexes []int) {
	have := s.Partial[requestID]
	if have == nil {
		have = map[int]ask.Answer{}
		s.Partial[requestID] = have
	}
	for j, a := range answers {
		if j < len(indexes) && indexes[j] >= 0 {
			have[indexes[j]] = a
		}
	}
}

// SetStep records a call's step; toolUseID "" is a session value.
func (s *State) SetStep(toolUseID, key string, value json.RawMessage) {
	if toolUseID == "" {
		s.Session.Set(key, value)
		return
	}
	if s.Steps[toolUseID] == nil {
		s.Steps[toolUseID] = map[string]json.RawMessage{}
	}
	s.Steps[toolUseID][key] = value
}

// resultsMessage returns the user message carrying the results for every
// tool use of the last assistant message, in tool-use order, and true when
// all are ready.
func (s *State) resultsMessage() (Message, bool) {
	m := s.last()
	if m == nil || m.Role != RoleAssistant {
		return Message{}, false
	}
	uses := m.ToolUses()
	if len(uses) == 0 {
		return Message{}, false
	}
	out := Message{Role: RoleUser}
	for _, u := range uses {
		r, ok := s.Results[u.ID]
		if !ok {
			return Message{}, false
		}
		out.Content = append(out.Content, r)
	}
	return out, true
}

// FinalText returns the text of the last assistant message.
func (s *State) FinalText() string {
	for i := len(s.Messages) - 1; i >= 0; i-- {
		if s.Messages[i].Role == RoleAssistant {
			return s.Messages[i].Text()
		}
	}
	return ""
}

// Values are a session's values that outlive their call, safe for the
// concurrent use of sub-agents' loops.
type Values struct {
	mu sync.Mutex
	m  map[string]json.RawMessage
}

// Get returns the value under key.
func (v *Values) Get(key string) (json.RawMessage, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	x, ok := v.m[key]
	return x, ok
}

// Set records value under key.
func (v *Values) Set(key string, value json.RawMessage) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = map[string]json.RawMessage{}
	}
	v.m[key] = value
}

// uniqueToolUseIDs gives every tool use of an assistant message its own
// id. A model (or a server) that repeats an id within one message, or
// leaves it empty, would otherwise have one call's question, approval or
// result taken for another's; the renamed ids are what is journaled and
// sent back, so the conversation stays consistent.
func uniqueToolUseIDs(m *Message) {
	seen := map[string]bool{}
	for i := range m.Content {
		b := &m.Content[i]
		if b.Type != BlockToolUse {
			continue
		}
		base := b.ID
		if base == "" {
			base = "toolu_askuser"
		}
		id := base
		for n := 2; seen[id] || id == ""; n++ {
			id = fmt.Sprintf("%s_%d", base, n)
		}
		b.ID = id
		seen[id] = true
	}
}
