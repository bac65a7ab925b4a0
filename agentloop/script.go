package agentloop

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fileread"
)

// Script is a scripted model read from a YAML file: a list of assistant
// turns, each text and/or tool calls. It serves tests, demos and the
// reproduction of a session offline, with no API key.
//
// The turn a call gets is the number of assistant messages already in the
// conversation, so a resumed session continues the script where it
// stopped. In a turn's text, {{tool_results}} is replaced with the content
// of the tool results the model was just sent.
type Script struct {
	path      string
	model     string
	turns     []scriptTurn
	subagents map[string][]scriptTurn
}

type scriptFile struct {
	Model string       `yaml:"model"`
	Turns []scriptTurn `yaml:"turns"`
	// Subagents script the conversations of sub-agents (the Task tool),
	// by the prompt the parent gave them.
	Subagents map[string]scriptConversation `yaml:"subagents"`
}

type scriptConversation struct {
	Turns []scriptTurn `yaml:"turns"`
}

type scriptTurn struct {
	Text      string           `yaml:"text"`
	ToolCalls []scriptToolCall `yaml:"tool_calls"`
}

type scriptToolCall struct {
	ID    string `yaml:"id"`
	Name  string `yaml:"name"`
	Input any    `yaml:"input"`
}

// maxScriptBytes bounds a model script. A turn is a few hundred bytes, so
// thousands fit; the bound stops a path such as /dev/zero, or a file
// given by mistake, from exhausting memory.
const maxScriptBytes = 8 << 20

// LoadScript reads a scripted model. The file may be a pipe (<(…)), read
// within fileread.PipeTimeout.
func LoadScript(path string) (*Script, error) {
	return LoadScriptContext(context.Background(), path)
}

// LoadScriptContext is LoadScript, which gives up a pipe's read when ctx
// ends (a signal).
func LoadScriptContext(ctx context.Context, path string) (*Script, error) {
	data, _, err := fileread.ReadContext(ctx, path, maxScriptBytes, fileread.PipeTimeout)
	if err != nil {
		return nil, fmt.Errorf("read model script: %w", err)
	}
	if len(data) > maxScriptBytes {
		return nil, fmt.Errorf("model script %s passes %d MiB: is this the right file?", ask.Display(path), maxScriptBytes>>20)
	}
	var f scriptFile
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("model script %s: %s", path, yaml.FormatError(err, false, true))
	}
	if len(f.Turns) == 0 {
		return nil, fmt.Errorf("model script %s: no turns; write turns: [{text: ..., tool_calls: [...]}, ...]", path)
	}
	s := &Script{path: path, model: f.Model, turns: f.Turns, subagents: map[string][]scriptTurn{}}
	if err := checkTurns(path, "turns", f.Turns); err != nil {
		return nil, err
	}
	for prompt, c := range f.Subagents {
		if err := checkTurns(path, fmt.Sprintf("subagents[%q].turns", prompt), c.Turns); err != nil {
			return nil, err
		}
		s.subagents[prompt] = c.Turns
	}
	if s.model == "" {
		s.model = "script"
	}
	return s, nil
}

func checkTurns(path, where string, turns []scriptTurn) error {
	if len(turns) == 0 {
		return fmt.Errorf("model script %s: %s is empty", path, where)
	}
	for i, t := range turns {
		if t.Text == "" && len(t.ToolCalls) == 0 {
			return fmt.Errorf("model script %s: %s[%d] has neither text nor tool_calls", path, where, i)
		}
		for j, c := range t.ToolCalls {
			if c.Name == "" {
				return fmt.Errorf("model script %s: %s[%d].tool_calls[%d] has no name", path, where, i, j)
			}
		}
	}
	return nil
}

// Name is "script".
func (s *Script) Name() string { return "script" }

// Model is the script's model: line, or "script".
func (s *Script) Model() string { return s.model }

// Path is the script file.
func (s *Script) Path() string { return s.path }

// Complete returns the next scripted turn.
func (s *Script) Complete(ctx context.Context, req Request, onText func(string)) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	n := 0
	for _, m := range req.Messages {
		if m.Role == RoleAssistant {
			n++
		}
	}
	turns, where, idPart := s.turns, "turns", ""
	if len(req.Messages) > 0 {
		if sub, ok := s.subagents[req.Messages[0].Text()]; ok {
			turns, where = sub, "the sub-agent's turns"
			h := fnv.New32a()
			h.Write([]byte(req.Messages[0].Text()))
			idPart = fmt.Sprintf("%08x_", h.Sum32())
		}
	}
	if n >= len(turns) {
		return Response{}, &ProviderError{Provider: "script", Message: fmt.Sprintf("%s has %d %s and the conversation asks for turn %d", s.path, len(turns), where, n+1),
			Hint: "add a turn to the script, or end the last turn with text only so the model stops"}
	}
	t := turns[n]
	resp := Response{ID: fmt.Sprintf("msg_script_%d", n+1), StopReason: "end_turn", Message: Message{Role: RoleAssistant}}
	if t.Text != "" {
		text := strings.ReplaceAll(t.Text, "{{tool_results}}", lastToolResults(req.Messages))
		for _, chunk := range wordChunks(text) {
			if onText != nil {
				onText(chunk)
			}
		}
		resp.Message.Content = append(resp.Message.Content, Block{Type: BlockText, Text: text})
	}
	for i, c := range t.ToolCalls {
		input, err := json.Marshal(expand(jsonable(c.Input), lastToolResults(req.Messages)))
		if err != nil {
			return Response{}, fmt.Errorf("model script %s: turns[%d].tool_calls[%d].input: %w", s.path, n, i, err)
		}
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("toolu_script_%s%d_%d", idPart, n+1, i+1)
		}
		resp.Message.Content = append(resp.Message.Content, Block{Type: BlockToolUse, ID: id, Name: c.Name, Input: input})
		resp.StopReason = "tool_use"
	}
	return resp, nil
}

// lastToolResults joins the tool results of the last user message.
func lastToolResults(ms []Message) string {
	if len(ms) == 0 || ms[len(ms)-1].Role != RoleUser {
		return ""
	}
	var parts []string
	for _, b := range ms[len(ms)-1].Content {
		if b.Type == BlockToolResult {
			parts = append(parts, b.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// wordChunks splits text into word-sized pieces, as a streaming model sends it.
func wordChunks(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text[1:], " \n")
		if i < 0 {
			return append(out, text)
		}
		out = append(out, text[:i+1])
		text = text[i+1:]
	}
	return out
}

// jsonable converts YAML-decoded maps with non-string keys for encoding/json.
// expand returns a copy of v with {{tool_results}} in its strings replaced,
// so a scripted tool call can carry what the model was just sent (the demo
// writes the person's answers into a file).
func expand(v any, results string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "{{tool_results}}", results)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = expand(e, results)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = expand(e, results)
		}
		return out
	}
	return v
}

func jsonable(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = jsonable(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = jsonable(e)
		}
		return x
	}
	return v
}
