package agentloop

import (
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
)

// DeclinePending records, through j (st's journal), that the person
// declined to answer every question set st waits on, its sub-agents'
// included (askuser cancel). The questions of each set still unanswered
// get ask.Decline answers with reason; those answered before keep their
// answers. An AskUserQuestion call not yet asked (its set queued behind
// another at a terminal) is recorded as asked and declined too. When the
// session is resumed, each call gets its recorded answers, so the model
// is told the person declined, and the run continues. It returns the
// sets declined, with the questions that were declined.
func DeclinePending(st *State, j Journal, reason string, at time.Time) ([]ask.Request, error) {
	return declinePending(st, j, "", reason, at)
}

// declinePending is DeclinePending for a conversation whose sets are named
// under prefix (a sub-agent's: its Task calls' ids, each followed by "/").
func declinePending(st *State, j Journal, prefix, reason string, at time.Time) ([]ask.Request, error) {
	sets := st.PendingSets()
	unasked, err := noteUnasked(st, j, prefix, at)
	if err != nil {
		return nil, err
	}
	var out []ask.Request
	for _, req := range append(sets, unasked...) {
		rest, idx := st.Remaining(req)
		declines := make([]ask.Answer, len(rest.Questions))
		for k, q := range rest.Questions {
			declines[k] = ask.Decline(q, reason, at)
		}
		merged := st.Merged(req, declines, idx)
		if err := j.Replied(req.ID, merged); err != nil {
			return out, fmt.Errorf("record the declination: %w", err)
		}
		st.NoteReplied(req.ID, merged)
		out = append(out, rest)
	}
	for _, b := range st.Pending() {
		c, ok := st.Children[b.ID]
		cj, journals := j.(ChildJournal)
		if !ok || !journals {
			continue
		}
		more, err := declinePending(c, cj.Child(b.ID), prefix+b.ID+"/", reason, at)
		out = append(out, more...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// noteUnasked records as asked the pending AskUserQuestion calls of st
// whose set was never put to anyone, and returns their sets.
func noteUnasked(st *State, j Journal, prefix string, at time.Time) ([]ask.Request, error) {
	var out []ask.Request
	for _, b := range st.Pending() {
		id := prefix + b.ID
		if b.Name != ask.ToolName {
			continue
		}
		if _, asked := st.AskedAt[id]; asked {
			continue
		}
		req, ok := AskTool{}.Preview(b)
		if !ok {
			continue // the model is told its input was invalid, not asked
		}
		req.ID = id
		if err := j.Asked(req, b.ID, at); err != nil {
			return nil, fmt.Errorf("record question: %w", err)
		}
		st.NoteAsked(req, b.ID, at)
		out = append(out, req)
	}
	return out, nil
}
