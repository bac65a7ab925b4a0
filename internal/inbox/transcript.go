package inbox

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
)

// Bounds of what a transcript shows of one entry: a page is for reading,
// and the journal keeps everything.
const (
	maxEntryChars = 4000
	maxInputChars = 2000
)

// transcript shows a conversation: what the person and the agent said,
// each tool call and each result, all made safe to show.
func transcript(msgs []agentloop.Message) []page.EntryView {
	var out []page.EntryView
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
				out = append(out, page.EntryView{Class: class, Who: who, Text: clipText(ask.DisplayBlock(b.Text), maxEntryChars)})
			case agentloop.BlockToolUse:
				e := page.EntryView{Class: "tool", Who: "Tool call: " + ask.Display(b.Name)}
				e.Text, e.Input = toolInput(b)
				out = append(out, e)
			case agentloop.BlockToolResult:
				e := page.EntryView{Class: "result", Who: "Tool result", Text: clipText(ask.DisplayBlock(b.Content), maxEntryChars)}
				if b.IsError {
					e.Class, e.Who = "error", "Tool result (error)"
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// toolInput shows a call's input: the questions of an AskUserQuestion as
// text, else the JSON as a person reads it (a file's content as its
// lines), within maxInputChars; input that is not JSON as its text, cut.
func toolInput(b agentloop.Block) (string, *ask.JSONNode) {
	if b.Name == ask.ToolName {
		if in, err := ask.Parse(b.Input); err == nil {
			var lines []string
			for _, q := range in.Questions {
				lines = append(lines, fmt.Sprintf("[%s] %s (%s)", ask.Display(q.Header), ask.Display(q.Question), q.LabelList()))
			}
			return strings.Join(lines, "\n"), nil
		}
	}
	if root, _, ok := ask.ReadJSON(b.Input, maxInputChars); ok {
		return "", &root
	}
	return clipText(ask.DisplayBlock(string(b.Input)), maxInputChars), nil
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
