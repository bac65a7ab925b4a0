package inbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// Bounds of what a transcript shows of one entry: a page is for reading,
// and the journal keeps everything.
const (
	maxEntryChars = 4000
	maxInputChars = 600
)

// entryView is one step of a conversation, read-only.
type entryView struct {
	// Class styles it: user, assistant, tool, result, error.
	Class, Who, Text string
}

// transcript shows a conversation: what the person and the agent said,
// each tool call and each result, all made safe to show.
func transcript(msgs []agentloop.Message) []entryView {
	var out []entryView
	for _, m := range msgs {
		for _, b := range m.Content {
			switch b.Type {
			case agentloop.BlockText:
				if strings.TrimSpace(b.Text) == "" {
					continue
				}
				who, class := "Agent", "assistant"
				if m.Role == agentloop.RoleUser {
					who, class = "Prompt", "user"
				}
				out = append(out, entryView{Class: class, Who: who, Text: clipText(ask.DisplayBlock(b.Text), maxEntryChars)})
			case agentloop.BlockToolUse:
				out = append(out, entryView{Class: "tool", Who: "Tool call: " + ask.Display(b.Name), Text: toolInput(b)})
			case agentloop.BlockToolResult:
				e := entryView{Class: "result", Who: "Tool result", Text: clipText(ask.DisplayBlock(b.Content), maxEntryChars)}
				if b.IsError {
					e.Class, e.Who = "error", "Tool result (error)"
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// toolInput shows a call's input: the questions of an AskUserQuestion,
// else the JSON, indented and cut.
func toolInput(b agentloop.Block) string {
	if b.Name == ask.ToolName {
		if in, err := ask.Parse(b.Input); err == nil {
			var lines []string
			for _, q := range in.Questions {
				lines = append(lines, fmt.Sprintf("[%s] %s (%s)", ask.Display(q.Header), ask.Display(q.Question), q.LabelList()))
			}
			return strings.Join(lines, "\n")
		}
	}
	var buf bytes.Buffer
	if json.Indent(&buf, b.Input, "", "  ") != nil {
		buf.Reset()
		buf.Write(b.Input)
	}
	return clipText(ask.DisplayBlock(buf.String()), maxInputChars)
}

// clipText cuts s to n characters, saying how much was left out.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + fmt.Sprintf("… (%d more characters; the session's journal has them all)", len(r)-n)
}

// lastText is the agent's last words: the result of a finished run.
func lastText(msgs []agentloop.Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == agentloop.RoleAssistant {
			if t := strings.TrimSpace(msgs[i].Text()); t != "" {
				return clipText(ask.DisplayBlock(t), maxEntryChars)
			}
		}
	}
	return ""
}
