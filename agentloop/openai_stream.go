package agentloop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// openaiChunk is one chat.completion.chunk of the stream: the fields the
// reply is made of, and an error a server may send in its place.
type openaiChunk struct {
	ID      string `json:"id"`
	Choices []struct {
		Index        int64  `json:"index"`
		FinishReason string `json:"finish_reason"`
		Delta        struct {
			Content   string                `json:"content"`
			Refusal   string                `json:"refusal"`
			ToolCalls []openaiToolCallDelta `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
	Usage *openaiUsage    `json:"usage"`
	Error json.RawMessage `json:"error"`
}

// openaiToolCallDelta is a piece of a tool call. Arguments is raw: a JSON
// string as the API sends it, or an object as some servers send it.
type openaiToolCallDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type openaiUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	TotalTokens         int64 `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// openaiAccumulator builds the reply from chat.completion.chunk deltas,
// as compatible servers send them too: chunk ids that change from chunk
// to chunk, calls that reuse one tool-call index, usage reported
// cumulatively in every chunk (the SDK's own accumulator mishandled all
// three).
type openaiAccumulator struct {
	id      string
	text    strings.Builder
	refusal strings.Builder
	calls   []*openaiCall
	byIndex map[int64]*openaiCall
	finish  string
	usage   openaiUsage
}

type openaiCall struct {
	id, name string
	args     strings.Builder
}

// add takes in one chunk and returns the text it carried, to show.
func (a *openaiAccumulator) add(chunk openaiChunk) string {
	if a.id == "" {
		a.id = chunk.ID
	}
	if u := chunk.Usage; u != nil && u.TotalTokens+u.PromptTokens+u.CompletionTokens > 0 {
		a.usage = *u // the last report wins: totals, not increments
	}
	var shown strings.Builder
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue // one choice is asked for
		}
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
		}
		d := choice.Delta
		a.text.WriteString(d.Content)
		a.refusal.WriteString(d.Refusal)
		shown.WriteString(d.Content)
		shown.WriteString(d.Refusal)
		for _, tc := range d.ToolCalls {
			a.addToolCall(tc)
		}
	}
	return shown.String()
}

func (a *openaiAccumulator) addToolCall(tc openaiToolCallDelta) {
	cur := a.byIndex[tc.Index]
	// A new id at a known index is a new call: some servers send every
	// call whole, all at index 0.
	if cur == nil || (tc.ID != "" && cur.id != "" && tc.ID != cur.id) {
		cur = &openaiCall{}
		a.calls = append(a.calls, cur)
		if a.byIndex == nil {
			a.byIndex = map[int64]*openaiCall{}
		}
		a.byIndex[tc.Index] = cur
	}
	if tc.ID != "" {
		cur.id = tc.ID
	}
	// Names come whole in the first delta; some servers repeat them.
	if n := tc.Function.Name; n != "" && n != cur.name {
		cur.name += n
	}
	var args string
	if raw := bytes.TrimSpace(tc.Function.Arguments); json.Unmarshal(raw, &args) == nil {
		cur.args.WriteString(args)
	} else if bytes.HasPrefix(raw, []byte("{")) {
		cur.args.Write(raw) // arguments sent as an object, not a string
	}
}

// response is the accumulated reply. ids names calls the server sent
// without an id.
func (a *openaiAccumulator) response(ids *callIDs) Response {
	resp := Response{ID: a.id, Message: Message{Role: RoleAssistant, Content: []Block{}}}
	text := a.text.String() + a.refusal.String()
	if text != "" {
		resp.Message.Content = append(resp.Message.Content, Block{Type: BlockText, Text: text})
	}
	for _, c := range a.calls {
		id := c.id
		if id == "" {
			id = ids.next()
		}
		resp.Message.Content = append(resp.Message.Content, Block{Type: BlockToolUse, ID: id, Name: c.name, Input: toolInput(c.args.String())})
	}
	resp.StopReason = openaiStopReason(a.finish, len(a.calls) > 0, a.refusal.Len() > 0)
	cached := a.usage.PromptTokensDetails.CachedTokens
	resp.Usage = Usage{
		InputTokens:          a.usage.PromptTokens - cached, // Anthropic counts cache reads apart
		OutputTokens:         a.usage.CompletionTokens,
		CacheReadInputTokens: cached,
	}
	return resp
}

// openaiStopReason maps finish_reason to Anthropic's vocabulary. Calls
// mean tool_use even under "stop", as some local servers finish a tool
// call that way; only "length" wins over them, since the arguments may be
// cut off.
func openaiStopReason(finish string, calls, refusal bool) string {
	switch {
	case finish == "length":
		return "max_tokens"
	case calls:
		return "tool_use"
	case finish == "content_filter" || refusal:
		return "refusal"
	case finish == "tool_calls" || finish == "function_call":
		return "tool_use" // announced, but no call arrived
	}
	return "end_turn"
}

// callIDs invents ids for tool calls that came without one: call_1,
// call_2, …, skipping any id the conversation already holds.
type callIDs struct {
	used map[string]bool
	n    int
}

func newCallIDs(req Request) *callIDs {
	ids := &callIDs{used: map[string]bool{}}
	for _, m := range req.Messages {
		for _, b := range m.Content {
			ids.used[b.ID] = true
			ids.used[b.ToolUseID] = true
		}
	}
	return ids
}

func (c *callIDs) next() string {
	for {
		c.n++
		id := fmt.Sprintf("call_%d", c.n)
		if !c.used[id] {
			c.used[id] = true
			return id
		}
	}
}
