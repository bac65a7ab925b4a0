package whatsappfake

import (
	"strconv"
	"strings"
)

// Render draws m as the person's phone shows it, in text: the quoted
// message it replies to, the header, the body, the footer, and the
// buttons (or the list's button and rows).
func Render(m Sent) string {
	var b strings.Builder
	line := func(t string) {
		for _, l := range strings.Split(t, "\n") {
			b.WriteString("│ " + l + "\n")
		}
	}
	b.WriteString("┌─ " + m.ID + "\n")
	if m.ReplyTo != "" {
		line("↪ replying to " + m.ReplyTo)
	}
	ix := m.Interactive()
	if ix != nil && ix.Header != nil {
		line("**" + ix.Header.Text + "**")
	}
	line(m.Text())
	if ix != nil {
		if ix.Footer != nil {
			line("(" + ix.Footer.Text + ")")
		}
		if ix.Type == "list" {
			line("[≡ " + ix.Action.Button + "]")
			for _, c := range m.Choices() {
				r := "   ○ " + c.Title
				if c.Description != "" {
					r += " — " + c.Description
				}
				line(r)
			}
		} else {
			var bs []string
			for _, c := range m.Choices() {
				bs = append(bs, "[ "+c.Title+" ]")
			}
			line(strings.Join(bs, " "))
		}
	}
	if m.Failed != 0 {
		line("✗ not delivered (code " + strconv.Itoa(m.Failed) + ")")
	}
	b.WriteString("└─\n")
	return b.String()
}
