package agentloop

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/askuser/askuser/ask"
)

// ToolSpec is what a model is told about a tool: its name, what it does,
// and the JSON Schema of its input.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Tool is something the model can call. Run turns one call into a Result
// (an error Result, IsError set, when the input is wrong: the model is told
// what to fix) or a Go error:
//   - one wrapping ask.ErrDeferred: the call cannot finish now; the run
//     stops to wait and askuser resume runs the call again later, with
//     everything the call recorded (Call.Ask answers, Call.Record steps)
//     still there;
//   - one wrapping ask.ErrTimeout or ask.ErrCancelled: nobody answered in
//     time, or the run was stopped; the call stays pending;
//   - anything else: infrastructure failed (I/O, a journal write), and the
//     run ends with an error. The call stays pending.
//
// Run must honour ctx. A tool is added to a Registry; the loop names no
// tool itself.
type Tool interface {
	Spec() ToolSpec
	Run(ctx context.Context, call *Call) (Result, error)
}

// Result is what a call gave back to the model.
type Result struct {
	// Content is the text the model reads.
	Content string
	// IsError marks a failed call: the model is told to correct itself.
	IsError bool
	// Answers are the answers the result was made from, when a person (or
	// a file, or a policy) was asked; they are journaled with the result.
	Answers []ask.Answer
}

// ErrorResult is a failed call's result with the message for the model.
func ErrorResult(format string, args ...any) Result {
	return Result{Content: fmt.Sprintf(format, args...), IsError: true}
}

// Concurrency says whether a tool's calls may run beside the other calls of
// the same assistant message. Tools that do not implement Concurrent run
// RunSequential.
type Concurrency int

const (
	// RunSequential calls run one at a time, in the order the model made them.
	RunSequential Concurrency = iota
	// RunConcurrentAsking calls run concurrently when the frontend can hold
	// several question sets open at once (JSON lines), else in order.
	RunConcurrentAsking
	// RunConcurrent calls always run concurrently; their questions queue at a
	// frontend that asks one set at a time.
	RunConcurrent
)

// Concurrent is implemented by tools that need not run in sequence.
type Concurrent interface {
	Concurrency() Concurrency
}

// Previewer is implemented by tools that can tell, without running a call,
// the question set it will ask, so that a run stopped before the call ran
// can still say what it waits on.
type Previewer interface {
	Preview(call Block) (ask.Request, bool)
}

// Registry is the set of tools offered to a model, in the order they were
// added, with unique names.
type Registry struct {
	tools  []Tool
	byName map[string]Tool
}

// NewRegistry returns a registry holding tools; it fails on a name given
// twice.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{byName: map[string]Tool{}}
	for _, t := range tools {
		if err := r.Add(t); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// DefaultTools returns a registry with the tools every run has:
// AskUserQuestion.
func DefaultTools() *Registry {
	r, _ := NewRegistry(AskTool{}) // one tool: no name can clash
	return r
}

// Add adds a tool. Its name must be new and non-empty.
func (r *Registry) Add(t Tool) error {
	name := t.Spec().Name
	if name == "" {
		return fmt.Errorf("a tool needs a name")
	}
	if _, dup := r.byName[name]; dup {
		return fmt.Errorf("tool %q is registered twice", name)
	}
	r.tools = append(r.tools, t)
	r.byName[name] = t
	return nil
}

// Lookup returns the tool called name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	t, ok := r.byName[name]
	return t, ok
}

// Specs returns what the model is told about every tool, in order.
func (r *Registry) Specs() []ToolSpec {
	out := make([]ToolSpec, len(r.tools))
	for i, t := range r.tools {
		out[i] = t.Spec()
	}
	return out
}

// Names returns the tools' names, in order.
func (r *Registry) Names() []string {
	out := make([]string, len(r.tools))
	for i, t := range r.tools {
		out[i] = t.Spec().Name
	}
	return out
}

// unknown words, for the model, a call to a tool that does not exist.
func (r *Registry) unknown(name string) Result {
	names := r.Names()
	if len(names) == 1 {
		return ErrorResult("Unknown tool %q: the only tool available here is %s. Call %s, or answer without tools.",
			truncate(name, 80), names[0], names[0])
	}
	sort.Strings(names)
	return ErrorResult("Unknown tool %q: the tools available here are %s. Call one of them, or answer without tools.",
		truncate(name, 80), strings.Join(names, ", "))
}
