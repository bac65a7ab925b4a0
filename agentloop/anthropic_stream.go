package agentloop

import (
	"encoding/json"
	"fmt"
	"strings"
)

// anthropicEvent is the data of one Messages stream event, the fields of
// every type in one struct: message_start (Message), content_block_start
// (Index, ContentBlock), content_block_delta (Index, Delta),
// content_block_stop (Index), message_delta (Delta, Usage), message_stop.
type anthropicEvent struct {
	Type         string                 `json:"type"`
	Message      *anthropicStartMessage `json:"message"`
	Index        int64                  `json:"index"`
	ContentBlock *anthropicBlock        `json:"content_block"`
	Delta        struct {
		Type        string  `json:"type"`
		Text        string  `json:"text"`
		PartialJSON string  `json:"partial_json"`
		StopReason  *string `json:"stop_reason"`
	} `json:"delta"`
	Usage anthropicUsage `json:"usage"`
}

type anthropicStartMessage struct {
	ID         string           `json:"id"`
	Content    []anthropicBlock `json:"content"`
	StopReason *string          `json:"stop_reason"`
	Usage      anthropicUsage   `json:"usage"`
}

// anthropicBlock is a content block as a stream starts it. Blocks of
// types the loop has no use for (thinking, server tools, their results)
// are kept in place, since the events address blocks by index, and left
// out of the reply.
type anthropicBlock struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
	// partial is the tool input streamed in input_json_delta pieces.
	partial strings.Builder
}

// anthropicUsage is a usage report. Each count is a whole-message total;
// a count left out or null (nil) leaves the one known before.
type anthropicUsage struct {
	InputTokens              *int64 `json:"input_tokens"`
	OutputTokens             *int64 `json:"output_tokens"`
	CacheCreationInputTokens *int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int64 `json:"cache_read_input_tokens"`
}

// anthropicAccumulator builds the reply from the stream's events, as the
// SDK's Message.Accumulate did: message_start sets the message (a second
// one starts it again), blocks start in index order without gaps, deltas
// and stops address a started block by index, message_delta overwrites
// the stop reason and the usage totals it carries (output_tokens always),
// and message_stop completes it. Unknown event and delta types are
// skipped, as the API may add them.
type anthropicAccumulator struct {
	id       string
	blocks   []*anthropicBlock
	stop     string
	usage    Usage
	complete bool
}

// add takes in the data of one event and returns the text it carried, to
// show. An event that cannot be decoded, or that addresses a block not
// started, makes the stream malformed.
func (a *anthropicAccumulator) add(data []byte) (string, error) {
	var ev anthropicEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return "", asMalformed(err)
	}
	switch ev.Type {
	case "message_start":
		*a = anthropicAccumulator{}
		if m := ev.Message; m != nil {
			a.id, a.stop = m.ID, deref(m.StopReason)
			for i := range m.Content {
				a.blocks = append(a.blocks, &m.Content[i])
			}
			a.usage.update(m.Usage)
		}
	case "content_block_start":
		if ev.Index != int64(len(a.blocks)) {
			return "", &malformedError{fmt.Errorf("received event of type %s for content block at index %d, expected index %d", ev.Type, ev.Index, len(a.blocks))}
		}
		if ev.ContentBlock == nil {
			return "", &malformedError{fmt.Errorf("received event of type %s without a content_block", ev.Type)}
		}
		a.blocks = append(a.blocks, ev.ContentBlock)
	case "content_block_delta":
		b, err := a.block(ev)
		if err != nil {
			return "", err
		}
		switch ev.Delta.Type {
		case "text_delta":
			b.Text += ev.Delta.Text
			return ev.Delta.Text, nil
		case "input_json_delta":
			b.partial.WriteString(ev.Delta.PartialJSON)
		}
	case "content_block_stop":
		if _, err := a.block(ev); err != nil {
			return "", err
		}
	case "message_delta":
		a.stop = deref(ev.Delta.StopReason)
		a.usage.OutputTokens = deref(ev.Usage.OutputTokens)
		ev.Usage.OutputTokens = nil
		a.usage.update(ev.Usage)
	case "message_stop":
		a.complete = true
	}
	return "", nil
}

// block is the started block ev addresses.
func (a *anthropicAccumulator) block(ev anthropicEvent) (*anthropicBlock, error) {
	if ev.Index < 0 || ev.Index >= int64(len(a.blocks)) {
		return nil, &malformedError{fmt.Errorf("received event of type %s for content block at index %d but there are only %d content blocks", ev.Type, ev.Index, len(a.blocks))}
	}
	return a.blocks[ev.Index], nil
}

// update overwrites the counts u carries.
func (u *Usage) update(r anthropicUsage) {
	for _, c := range []struct {
		dst *int64
		src *int64
	}{{&u.InputTokens, r.InputTokens}, {&u.OutputTokens, r.OutputTokens},
		{&u.CacheCreationInputTokens, r.CacheCreationInputTokens}, {&u.CacheReadInputTokens, r.CacheReadInputTokens}} {
		if c.src != nil {
			*c.dst = *c.src
		}
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// response is the accumulated reply: its text and tool_use blocks, in
// order. A tool_use's input is the JSON streamed for it (see toolInput),
// so input that is not valid JSON reaches the loop verbatim, as a JSON
// string, where the SDK made it {} and the model would have been told its
// input lacked every field; without streamed input, the input the block
// started with, else {}.
func (a *anthropicAccumulator) response() Response {
	resp := Response{
		ID:         a.id,
		Message:    Message{Role: RoleAssistant, Content: []Block{}},
		StopReason: a.stop,
		Usage:      a.usage,
	}
	for _, b := range a.blocks {
		switch b.Type {
		case BlockText:
			resp.Message.Content = append(resp.Message.Content, Block{Type: BlockText, Text: b.Text})
		case BlockToolUse:
			input := b.Input
			if b.partial.Len() > 0 {
				input = toolInput(b.partial.String())
			} else if len(input) == 0 || string(input) == "null" {
				input = json.RawMessage(`{}`)
			}
			resp.Message.Content = append(resp.Message.Content, Block{Type: BlockToolUse, ID: b.ID, Name: b.Name, Input: input})
		}
	}
	return resp
}
