package agentloop

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
)

// openaiAccumulator builds the reply from chat.completion.chunk deltas. It
// replaces the SDK's ChatCompletionAccumulator, which mishandles what
// compatible servers send: it drops every chunk whose id differs from the
// first, merges calls that reuse one tool-call index into a single call,
// and adds up usage that some servers report cumulatively in every chunk.
type openaiAccumulator struct {
	id      string
	text    strings.Builder
	refusal strings.Builder
	calls   []*openaiCall
	byIndex map[int64]*openaiCall
	finish  string
	usage   openai.CompletionUsage
}

type openaiCall struct {
	id, name string
	args     strings.Builder
}

// add takes in one chunk and returns the text it carried, to show.
func (a *openaiAccumulator) add(chunk openai.ChatCompletionChunk) string {
	if a.id == "" {
		a.id = chunk.ID
	}
	if chunk.JSON.Usage.Valid() && chunk.Usage.TotalTokens+chunk.Usage.PromptTokens+chunk.Usage.CompletionTokens > 0 {
		a.usage = chunk.Usage // the last report wins: totals, not increments
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

func (a *openaiAccumulator) addToolCall(tc openai.ChatCompletionChunkChoiceDeltaToolCall) {
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
	if tc.Function.JSON.Arguments.Valid() {
		cur.args.WriteString(tc.Function.Arguments)
	} else if raw := strings.TrimSpace(tc.Function.JSON.Arguments.Raw()); strings.HasPrefix(raw, "{") {
		cur.args.WriteString(raw) // arguments sent as an object, not a string
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

// openaiStreamError tells apart the failures found inside a started
// stream. The SDK reports a `data: {"error": …}` line only as text, so the
// error object is parsed back out of it.
func openaiStreamError(err error) error {
	const prefix = "received error while streaming: "
	if rest, ok := strings.CutPrefix(err.Error(), prefix); ok {
		var e struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		}
		if json.Unmarshal([]byte(rest), &e) != nil {
			e.Message = rest // {"error": "text"}
		}
		if e.Type == "" {
			e.Type = "server_error"
		}
		return &streamEventError{Type: bounded(e.Type), Message: bounded(e.Message)}
	}
	return asMalformed(err)
}
