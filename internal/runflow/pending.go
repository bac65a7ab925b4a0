package runflow

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// describePending tells a person what the session waits on and the exact
// commands that answer it. An approval is said to be one, of its tool,
// and answered in an answers file by a rule (approvals:), never by its
// option under answers:, which the file does not read for approvals; the
// recommended-option policy is offered only for questions, since it
// approves no tool call.
func describePending(r runResult) string {
	var b strings.Builder
	var questions []ask.Question // of the model's question sets
	var all []ask.Question       // of every set, approvals included
	var sets []session.Waiting
	var tools []string
	approvals := false
	for _, req := range r.PendingQuestions {
		sets = append(sets, session.Waiting{Kind: req.Kind, Tool: req.Tool})
		all = append(all, req.Questions...)
		if req.Kind != ask.KindApproval {
			questions = append(questions, req.Questions...)
			continue
		}
		approvals = true
		if req.Tool != "" {
			tools = append(tools, ask.Display(req.Tool))
		}
	}
	what := session.WaitingWhat(sets, func(int) string {
		n := 0
		for _, req := range r.PendingQuestions {
			if req.Kind == "" {
				n += len(req.Questions)
			}
		}
		return fmt.Sprintf("%d question%s", n, cmdutil.Plural(n))
	})
	fmt.Fprintf(&b, "Session %s is waiting on %s", r.SessionID, what)
	if r.Reason != "" {
		fmt.Fprintf(&b, " (%s)", ask.Display(r.Reason))
	}
	b.WriteString(":\n")
	for _, q := range all {
		kind := ""
		if q.MultiSelect {
			kind = ", several allowed"
		}
		fmt.Fprintf(&b, "  %s: %s\n    options: %s%s\n", ask.Display(q.Header), ask.Display(q.Question), ask.Display(q.LabelList()), kind)
	}
	fmt.Fprintf(&b, "Answer at a terminal:         %s\n", r.ResumeCommand)
	fmt.Fprintf(&b, "Answer from an answers file:  %s --answers answers.yaml\n", r.ResumeCommand)
	if len(questions) > 0 {
		note := ""
		if approvals {
			note = " (it approves no tool call)"
		}
		fmt.Fprintf(&b, "Take the recommended options: %s --frontend auto%s\n", r.ResumeCommand, note)
	}
	var file string
	if len(questions) > 0 {
		file = frontend.SuggestAnswers(questions)
	}
	if len(tools) > 0 {
		file += "approvals:  # a rule allows every call of its tool; deny: [...] refuses them\n  allow: [" + strings.Join(quoteRules(tools), ", ") + "]\n"
	}
	if file != "" {
		fmt.Fprintf(&b, "An answers.yaml to start from (the recommended options filled in):\n%s", cmdutil.Indent(file, "  "))
	}
	return b.String()
}

// quoteRules writes tool names as YAML list items: quoted when they hold
// anything but letters, digits, _, - and . (a model names tools).
func quoteRules(tools []string) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t
		if strings.IndexFunc(t, func(r rune) bool {
			return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) >= 0 || t == "" {
			out[i] = fmt.Sprintf("%q", t)
		}
	}
	return out
}
