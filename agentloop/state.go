package agentloop

import (
	"time"

	"github.com/askuser/askuser/ask"
)

// State is a conversation as far as it has gone: its messages, the tool
// results already given for the last assistant message, and when its
// pending question sets were first asked. A run, a resumed run and a
// journal replay all build the same State.
type State struct {
	Messages []Message
	// Results holds tool results ready for the tool uses of the last
	// assistant message, by tool_use id, until all are ready and become
	// the next user message.
	Results map[string]Block
	// AskedAt records when each question set (by tool_use id) was first
	// put to a frontend.
	AskedAt map[string]time.Time
	// Questions records the question sets of AskedAt, for listing what a
	// waiting session waits on.
	Questions map[string]ask.Request
}

// NewState returns an empty conversation.
func NewState() *State {
	return &State{Results: map[string]Block{}, AskedAt: map[string]time.Time{}, Questions: map[string]ask.Request{}}
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

// PendingQuestions returns the question sets a waiting session waits on.
func (s *State) PendingQuestions() []ask.Request {
	var out []ask.Request
	for _, b := range s.Pending() {
		if req, ok := s.Questions[b.ID]; ok {
			out = append(out, req)
		} else if b.Name == ask.ToolName {
			if in, err := ask.Parse(b.Input); err == nil {
				out = append(out, ask.Request{ID: b.ID, Questions: in.Questions})
			}
		}
	}
	return out
}

// Append adds a message. A user message following an assistant message
// settles that message's tool results.
func (s *State) Append(m Message) {
	if m.Role == RoleUser {
		s.Results = map[string]Block{}
	}
	s.Messages = append(s.Messages, m)
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
