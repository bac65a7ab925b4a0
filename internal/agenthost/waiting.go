package agenthost

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// Suspension is how an askuser call of a host without defer (Codex CLI,
// Gemini CLI, OpenCode) ends when nobody answered in time and the
// question is to wait for a late answer: askuser mcp gives the model
// WaitingResult instead of an answer. It wraps ask.ErrDeferred.
type Suspension struct {
	// Session is the askuser session the question waits in ("" if none).
	Session string
	// Continues says askuser knows the host's session and will continue
	// it with the answer; otherwise the answer waits in askuser, and the
	// agent must be started again by hand.
	Continues bool
	// Busy says this call was not asked at all: another question of the
	// session already waits (only one can), named by Waiting.
	Busy    bool
	Waiting string
	// Why says why nobody answered ("nobody answered within 10m").
	Why string
}

func (s *Suspension) Error() string {
	switch {
	case s.Busy:
		return "not asked: another question of this session waits for an answer (" + s.Waiting + ")"
	case s.Continues:
		return "waiting for a late answer (" + s.Why + "); askuser continues the session with it"
	}
	return "waiting for a late answer (" + s.Why + "); the agent cannot be continued automatically"
}

// Unwrap makes a Suspension an ask.ErrDeferred.
func (s *Suspension) Unwrap() error { return ask.ErrDeferred }

// WaitingResult is what the model of a host without defer reads in place
// of an answer when the question is to wait (Suspension). It must never
// pass for an answer: it opens with "NOT ANSWERED YET", says no option
// was chosen, and tells the model to end its turn now, so the run stops
// and the late answer arrives as the next message (a continuation prompt,
// Prompt) rather than after the model has gone on by guessing.
func WaitingResult(req ask.Request, s *Suspension) string {
	var b strings.Builder
	if s.Busy {
		fmt.Fprintf(&b, "NOT ASKED. This question was not put to the person: your earlier question (%s) is still waiting for "+
			"their answer, and only one question can wait at a time. No option was chosen.\n\n", ask.Display(s.Waiting))
	} else {
		fmt.Fprintf(&b, "NOT ANSWERED YET. The person was asked and has not answered: %s. No option was chosen and "+
			"nothing was decided; this result is not an answer.\n\n", ask.Display(strings.TrimSuffix(s.Why, ".")))
	}
	b.WriteString("What was asked:\n")
	for i, q := range req.Questions {
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, ask.Display(q.Header), ask.Display(q.Question))
	}
	b.WriteString("\n")
	where := ""
	if s.Session != "" {
		where = " (askuser session " + s.Session + ")"
	}
	if s.Continues {
		fmt.Fprintf(&b, "The question stays open for them%s. When they answer, this session will be continued with their "+
			"answer as a new message.", where)
	} else {
		fmt.Fprintf(&b, "Their answer will wait in askuser%s, but this session cannot be continued with it automatically.", where)
	}
	b.WriteString(" Do not guess the answer, do not pick an option yourself, and do not ask again now. End your turn now: " +
		"say in one sentence that you are waiting for the person's answer to this question, and stop.")
	return b.String()
}
