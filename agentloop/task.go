package agentloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// TaskName is the name of the sub-agent tool, as Claude Code's models know
// it.
const TaskName = "Task"

// TaskTool runs a sub-agent: a child loop with a fresh conversation, on
// the same provider (or SubProvider), with the parent's tools but Task
// (unless Depth allows it again), whose final text is the call's result.
//
// The child asks through the parent's frontend: its AskUserQuestion and
// its approvals reach the person with the child's description as Agent,
// one set at a time at a terminal (the parent's ask lock is shared),
// several at once on JSON lines. The child's conversation is journaled in
// the parent's session (ChildJournal), so a run can stop while a child
// waits and resume continues the child from where it stopped, then the
// parent. The result tells the parent what the user was asked and
// answered, so it does not ask again.
type TaskTool struct {
	// Depth is how many levels of sub-agents may still start below this
	// one: 1 (and 0) means a child cannot start its own.
	Depth int
	// SubProvider, when set, is the model children run on
	// (--subagent-model); nil is the parent's provider.
	SubProvider Provider
}

var (
	_ Tool       = TaskTool{}
	_ Concurrent = TaskTool{}
)

// ChildJournal is implemented by journals that can hold a sub-agent's
// conversation (the session does); without it a child is not journaled.
type ChildJournal interface {
	Child(toolUseID string) Journal
}

const taskSchema = `{"type":"object","properties":{` +
	`"description":{"type":"string","description":"A short (3-5 word) description of the task"},` +
	`"prompt":{"type":"string","description":"The task for the agent to perform"},` +
	`"subagent_type":{"type":"string","description":"The type of agent to use (only general-purpose is available)"}},` +
	`"required":["description","prompt"],"additionalProperties":false}`

const taskDescription = `Launch a sub-agent to handle a multi-step task on its own, with a fresh context. ` +
	`It has the same tools as you (except Task) and can ask the user questions itself; its final message is returned to you, ` +
	`with what it asked the user and what was answered. Launch several in one message to run them concurrently. ` +
	`Give it a complete, self-contained prompt: it does not see this conversation.`

// subagentNote tells a child what it is.
const subagentNote = `You are a sub-agent: another agent gave you the task below and will read your final message. ` +
	`Do the task, then end with a final message that reports what you did and found. ` +
	`When you need the user's decision, call AskUserQuestion: your question reaches the user.`

// Spec is Claude Code's Task tool.
func (TaskTool) Spec() ToolSpec {
	return ToolSpec{Name: TaskName, Description: taskDescription, InputSchema: json.RawMessage(taskSchema)}
}

// Concurrency: several sub-agents of one message run at once.
func (TaskTool) Concurrency() Concurrency { return RunConcurrent }

type taskInput struct {
	Description  string `json:"description"`
	Prompt       string `json:"prompt"`
	SubagentType string `json:"subagent_type"`
}

// Run runs (or continues) the call's sub-agent to its end.
func (t TaskTool) Run(ctx context.Context, call *Call) (Result, error) {
	var in taskInput
	dec := json.NewDecoder(strings.NewReader(string(call.Input)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil || strings.TrimSpace(in.Prompt) == "" || strings.TrimSpace(in.Description) == "" {
		why := "description and prompt are required strings"
		if err != nil {
			why = ask.Excerpt(err.Error())
		}
		return ErrorResult(`Invalid Task input: %s. Send {"description": "3-5 words", "prompt": "the complete task"}.`, why), nil
	}
	parent := call.loop
	child := &Loop{
		Provider: parent.Provider, Tools: t.childTools(parent.tools()), Frontend: parent.Frontend,
		System: subagentNote, MaxTokens: parent.MaxTokens, MaxTurns: parent.MaxTurns,
		AskTimeout: parent.AskTimeout, OnTimeout: parent.OnTimeout, TimeoutFallback: parent.TimeoutFallback,
		Agent: agentName(parent.Agent, in.Description), Now: parent.Now, askMu: parent.askMu,
		idPrefix: parent.idPrefix + call.ID + "/",
	}
	if t.SubProvider != nil {
		child.Provider = t.SubProvider
	}
	if parent.System != "" {
		child.System = parent.System + "\n\n" + subagentNote
	}
	if cj, ok := parent.Journal.(ChildJournal); ok {
		child.Journal = cj.Child(call.ID)
	}
	if parent.Observe != nil {
		child.Observe = func(e Event) {
			if e.ParentToolUseID == "" {
				e.ParentToolUseID = call.ID
			}
			parent.emit(e)
		}
	}
	parent.mu.Lock()
	st := call.st.Child(call.ID)
	parent.mu.Unlock()
	var prompt *Message
	if len(st.Messages) == 0 {
		prompt = &Message{Role: RoleUser, Content: []Block{{Type: BlockText, Text: in.Prompt}}}
	}
	out := child.Run(ctx, st, prompt)
	parent.mu.Lock()
	parent.subUsage.Add(out.Usage)
	parent.mu.Unlock()
	who := fmt.Sprintf("sub-agent %q", ask.Display(in.Description))
	switch out.Status {
	case StatusSuccess:
		return Result{Content: taskResult(st, out.Result)}, nil
	case StatusMaxTurns:
		return ErrorResult("The %s stopped: %s. Its last message:\n%s", who, out.Reason, out.Result), nil
	case StatusWaiting:
		return Result{}, fmt.Errorf("%w: the %s waits: %s", ask.ErrDeferred, who, out.Reason)
	}
	if out.Err == nil {
		out.Err = errors.New(string(out.Status))
	}
	return Result{}, fmt.Errorf("%s: %w", who, out.Err)
}

// childTools is the parent's registry without Task, with Task again when
// the depth allows.
func (t TaskTool) childTools(parent *Registry) *Registry {
	r := &Registry{byName: map[string]Tool{}}
	for _, tool := range parent.tools {
		if tool.Spec().Name == TaskName {
			if t.Depth > 1 {
				_ = r.Add(TaskTool{Depth: t.Depth - 1, SubProvider: t.SubProvider})
			}
			continue
		}
		_ = r.Add(tool) // names are unique in the parent
	}
	return r
}

// agentName is how a person sees who asks: the description, under its
// parent's for a sub-agent's sub-agent.
func agentName(parent, description string) string {
	d := truncate(strings.TrimSpace(ask.Display(description)), 60)
	if parent != "" {
		return parent + " › " + d
	}
	return d
}

// taskResult is the child's final text, followed by what it asked the user
// and the answers, so the parent knows what was decided.
func taskResult(st *State, final string) string {
	var asked []string
	asks := map[string]bool{}
	for _, m := range st.Messages {
		for _, b := range m.Content {
			switch {
			case b.Type == BlockToolUse && b.Name == ask.ToolName:
				asks[b.ID] = true
			case b.Type == BlockToolResult && asks[b.ToolUseID] && !b.IsError:
				asked = append(asked, b.Content)
			}
		}
	}
	if final == "" {
		final = "(The sub-agent ended without a final message.)"
	}
	if len(asked) == 0 {
		return final
	}
	return final + "\n\n---\nWhile working, the sub-agent asked the user; these are decided, do not ask them again:\n\n" + strings.Join(asked, "\n\n")
}
