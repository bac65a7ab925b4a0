package agentloop

import "github.com/askuser/askuser/ask"

// EventType names what happened.
type EventType int

// The events a Loop reports to its observer.
const (
	// EventText: a piece of assistant text arrived (Text).
	EventText EventType = iota
	// EventAssistant: an assistant message is complete (Message, Response).
	EventAssistant
	// EventUser: a user message of tool results was sent (Message).
	EventUser
	// EventQuestion: a question set is being put to the frontend (Request).
	EventQuestion
	// EventAnswers: a question set was answered (Request, Answers).
	EventAnswers
	// EventDeferred: a question set was left for later (Request, Note).
	EventDeferred
	// EventToolResult: a tool call has its result (Use, Result).
	EventToolResult
)

// Event is something that happened in a run, for output.
type Event struct {
	Type     EventType
	Text     string
	Message  *Message
	Response *Response
	Request  *ask.Request
	// Use and Result are the call and its result, for EventToolResult.
	Use     *Block
	Result  *Block
	Answers []ask.Answer
	// Late is set on EventQuestion when the question was first asked by an
	// earlier run (askuser resume).
	Late bool
	Note string
	// ParentToolUseID is set on the events of a sub-agent: the id of the
	// Task call that runs it (as Claude Code's stream-json has it).
	ParentToolUseID string
}
