package resume

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// Bounds of the context shown before a resumed question: enough to
// recall the task, never a screenful of a long model message.
const (
	contextRequestChars = 300
	contextSaidChars    = 400
	contextSaidLines    = 6
)

// showContext tells the person at the terminal what they are about to
// answer, hours after it was asked: the original request, and for each
// question set waiting, when it was asked, by which agent, and what that
// agent last said. Every text in it was written by a model or typed long
// ago, so all of it is sanitised and cut.
func showContext(w io.Writer, sess *session.Session, now time.Time) {
	var b strings.Builder
	fmt.Fprintf(&b, "Resuming session %s", sess.Meta.ID)
	if sess.Meta.Cwd != "" {
		fmt.Fprintf(&b, " (started in %s)", ask.Display(sess.Meta.Cwd))
	}
	b.WriteString("\n")
	if req := firstRequest(sess); req != "" {
		fmt.Fprintf(&b, "  Request: %s\n", cmdutil.Clip(strings.Join(strings.Fields(ask.Display(req)), " "), contextRequestChars))
	}
	said := map[string]bool{}
	for _, wt := range sess.Waiting() {
		who := "the agent"
		if wt.Agent != "" {
			who = fmt.Sprintf("sub-agent %q", cmdutil.Clip(ask.Display(wt.Agent), 60))
		}
		fmt.Fprintf(&b, "  Asked %s by %s: %s\n", askedWhen(wt.AskedAt, now), who, cmdutil.Clip(ask.Display(strings.Join(wt.Headers, ", ")), 80))
		if text := strings.TrimSpace(wt.LastText); text != "" && !said[wt.Agent] {
			said[wt.Agent] = true
			fmt.Fprintf(&b, "  It last said:\n%s\n", cmdutil.Indent(tail(ask.DisplayBlock(text), contextSaidChars, contextSaidLines), "    "))
		}
	}
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

// firstRequest is the session's first prompt.
func firstRequest(sess *session.Session) string {
	if sess.Meta.FirstPrompt != "" {
		return sess.Meta.FirstPrompt
	}
	for _, m := range sess.State.Messages {
		if m.Role == agentloop.RoleUser && m.Text() != "" {
			return m.Text()
		}
	}
	return ""
}

// askedWhen words when a set was asked: "2h13m ago (Mar 14 09:30)".
func askedWhen(at, now time.Time) string {
	if at.IsZero() {
		return "earlier"
	}
	stamp := at.Local().Format("15:04")
	if y, m, d := at.Local().Date(); y != now.Local().Year() || m != now.Local().Month() || d != now.Local().Day() {
		stamp = at.Local().Format("Jan 2 15:04")
	}
	return fmt.Sprintf("%s ago (%s)", ask.HumanDuration(now.Sub(at)), stamp)
}

// tail keeps the end of text, the part that leads to the question: at
// most chars characters and lines lines, marked with "…" where cut.
func tail(text string, chars, lines int) string {
	cut := false
	if r := []rune(text); len(r) > chars {
		text, cut = string(r[len(r)-chars:]), true
	}
	ls := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(ls) > lines {
		ls, cut = ls[len(ls)-lines:], true
	}
	text = strings.Join(ls, "\n")
	if cut {
		text = "…" + strings.TrimLeft(text, " ")
	}
	return text
}
