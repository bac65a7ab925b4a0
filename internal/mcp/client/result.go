package client

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/askuser/askuser/agentloop"
)

// Texts a result may be made of when the server gave no text.
const (
	noOutput      = "The tool returned no output."
	noOutputError = "The tool failed and gave no reason."
)

// toResult maps a tools/call result to what the model reads:
//   - text content as it is, blocks joined by a newline;
//   - structuredContent only when there is no text (the server's own text
//     is what it meant a reader to see), as its JSON;
//   - an image or audio as a line naming its type and size: the providers
//     here take only text in a tool result;
//   - a resource link as a line; an embedded text resource as a line and
//     its text; a binary one as a line;
//   - isError as an error result;
//   - nothing at all as a sentence saying so, never an empty result;
//   - at most max bytes, with a note of the full size.
func toResult(res *mcp.CallToolResult, max int) agentloop.Result {
	if res == nil {
		return agentloop.Result{Content: noOutput}
	}
	var parts []string
	hasText := false
	for _, c := range res.Content {
		s, isText := contentText(c)
		if isText {
			hasText = true
		}
		if s != "" || isText {
			parts = append(parts, s)
		}
	}
	if !hasText && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append([]string{string(b)}, parts...)
		}
	}
	text := strings.Join(parts, "\n")
	if strings.TrimSpace(text) == "" {
		text = noOutput
		if res.IsError {
			text = noOutputError
		}
	}
	return agentloop.Result{Content: capText(text, max), IsError: res.IsError}
}

// contentText is one content block as text; isText is true for a text
// block (which may be empty).
func contentText(c mcp.Content) (s string, isText bool) {
	switch c := c.(type) {
	case *mcp.TextContent:
		return c.Text, true
	case *mcp.ImageContent:
		return fmt.Sprintf("[image: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)), false
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)), false
	case *mcp.ResourceLink:
		line := "[resource link: " + c.URI
		if c.Name != "" && c.Name != c.URI {
			line += " (" + c.Name + ")"
		}
		if c.MIMEType != "" {
			line += ", " + c.MIMEType
		}
		if c.Description != "" {
			line += ": " + cutText(c.Description, 200)
		}
		return line + "]", false
	case *mcp.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return "", false
		}
		if r.Text != "" {
			return "[resource: " + r.URI + "]\n" + r.Text, false
		}
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", r.URI, orUnknown(r.MIMEType), len(r.Blob)), false
	}
	return "", false
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// capText bounds text to max bytes, cut at a character boundary, with a
// note of how much there was.
func capText(text string, max int) string {
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("\n\n[askuser: the output was cut to %d of its %d bytes]", cut, len(text))
}

// cutText shortens s to n characters, marking the cut.
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// withNotes adds askuser's notes (what happened to the server's questions
// during the call) after the result.
func withNotes(content string, notes []string) string {
	if len(notes) == 0 {
		return content
	}
	return content + "\n\n" + strings.Join(notes, "\n")
}
