package runflow

import (
	"fmt"
	"io"
	"strings"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/cmdutil"
)

// toolLineChars bounds each line shown for a tool call.
const toolLineChars = 100

// showToolResult tells a person at a terminal what a tool call did, in two
// short lines: the call and its input, then the first line of its result.
// The text is the model's and the tool's: it is cut and made safe to show.
func showToolResult(w io.Writer, use, result *agentloop.Block) {
	in := strings.ReplaceAll(approval.Request{Tool: use.Name, Input: use.Input}.Summary(), "\n", ", ")
	fmt.Fprintf(w, "● %s(%s)\n", ask.Display(use.Name), cmdutil.Clip(in, toolLineChars))
	text := strings.TrimSpace(ask.DisplayBlock(result.Content))
	first, rest, _ := strings.Cut(text, "\n")
	more := ""
	if n := strings.Count(rest, "\n") + 1; rest != "" {
		more = fmt.Sprintf(" (+%d lines)", n)
	}
	if result.IsError {
		first = "Error: " + first
	}
	if first == "" {
		first = "(no output)"
	}
	fmt.Fprintf(w, "  ⎿  %s%s\n", cmdutil.Clip(first, toolLineChars), more)
}
