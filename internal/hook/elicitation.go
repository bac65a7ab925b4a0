package hook

import (
	"context"
	"fmt"
	"maps"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/elicit"
)

// elicitation answers an Elicitation event: the server's form is asked as
// a question set and accepted with the exact values its schema allows.
// Claude Code passes the content to the server unchecked, so the mapping
// back (elicit.Form.Content) is what keeps it valid.
//
// What the server is told, truthfully: accept, with answers a person gave
// or wrote in advance; cancel when nobody answered (no frontend, a
// timeout, a person cancelling) or only the recommended-option policy did;
// decline when the form cannot be asked or the answers never fit it.
func elicitation(ctx context.Context, ev event, cfg Config) Reply {
	server := ask.Display(ev.Server)
	if ev.Mode != "" && ev.Mode != "form" {
		return formAction("decline", nil, fmt.Sprintf("askuser hook: declined %s's %s elicitation; askuser answers forms only", server, ask.Excerpt(ev.Mode)))
	}
	f, err := elicit.Parse(ev.Message, ev.Schema)
	if err != nil {
		return formAction("decline", nil, fmt.Sprintf("askuser hook: declined %s's form, which cannot be asked: %v", server, err))
	}
	id := ask.NewID("elicitation")
	content := map[string]any{}
	for attempt := 1; ; attempt++ {
		answers, err := cfg.Ask(ctx, f.Questions(id, ""))
		if err != nil {
			return formAction("cancel", nil, fmt.Sprintf("askuser hook: nobody answered %s's form: %v", server, err))
		}
		for _, a := range answers {
			if a.Source == ask.SourcePolicy {
				return formAction("cancel", nil, fmt.Sprintf("askuser hook: cancelled %s's form: only the recommended-option policy answered it (%s), and a guess is not sent to a server as the user's input", server, approval.WhoAnswered(a)))
			}
		}
		got, probs := f.Content(answers)
		maps.Copy(content, got)
		if len(probs) == 0 {
			return formAction("accept", content, "")
		}
		if probs.Final() || !approval.AllPerson(answers) || attempt == elicit.MaxAsks {
			return formAction("decline", nil, fmt.Sprintf("askuser hook: declined %s's form: the answers do not fit it: %s", server, probs))
		}
		f = f.Retry(probs) // asks again only what did not fit, saying why
	}
}

// formAction prints an Elicitation decision.
func formAction(action string, content map[string]any, stderr string) Reply {
	out := map[string]any{"hookEventName": EventElicitation, "action": action}
	if action == "accept" {
		out["content"] = content
	}
	r := decisionReply(map[string]any{"hookSpecificOutput": out}, "")
	if stderr != "" {
		r.Stderr = ask.Display(stderr)
	}
	return r
}
