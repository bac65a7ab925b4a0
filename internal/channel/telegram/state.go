package telegram

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// ref names the message that shows a set: what Send returns, and what
// Update and Reply are given. Head is the line an outcome is shown under.
type ref struct {
	Chat int64  `json:"chat"`
	Msg  int    `json:"msg"`
	Head string `json:"head,omitempty"`
}

func (r ref) msg() ref { return ref{Chat: r.Chat, Msg: r.Msg} }

func parseRef(r channel.Ref) (ref, error) {
	var out ref
	if err := json.Unmarshal(r, &out); err != nil || out.Chat == 0 || out.Msg == 0 {
		return ref{}, fmt.Errorf("telegram: not a Telegram message ref: %s", ask.Excerpt(string(r)))
	}
	return out, nil
}

// state is how far the answering of a set has gone, kept by the Host
// (Save) so a restarted process goes on from there.
type state struct {
	// Rev is the rendering the state belongs to; a state of another
	// revision is dropped.
	Rev int `json:"rev"`
	// Who answers the set.
	Who *channel.Who `json:"who,omitempty"`
	// Msg is the message that shows the set.
	Msg ref `json:"msg"`
	// Q is the question asked now; len(Picks) once every question is
	// answered (Complete).
	Q     int    `json:"q"`
	Picks []pick `json:"picks"`
	// Prompt is the Other prompt of question Q, when one was sent.
	Prompt   int  `json:"prompt,omitempty"`
	Complete bool `json:"complete,omitempty"`
	// Empty says Done was pressed on multi-select question Q with
	// nothing ticked: the keyboard offers noneLabel until a tick.
	Empty bool `json:"empty,omitempty"`
	// Seen are the last updates (presses, replies) that changed the
	// state, so one delivered again changes nothing.
	Seen []string `json:"seen,omitempty"`
}

// pick is the answer to one question: option indexes and typed text.
type pick struct {
	Options []int     `json:"options,omitempty"`
	Other   string    `json:"other,omitempty"`
	At      time.Time `json:"at,omitzero"`
}

// maxSeen is how many update ids a state remembers.
const maxSeen = 20

// loadState reads the state the Host kept for a set of rev with n
// questions: a fresh one when there is none, or it is of another revision
// or does not fit.
func loadState(raw json.RawMessage, rev, n int) *state {
	var st state
	if len(raw) == 0 || json.Unmarshal(raw, &st) != nil || st.Rev != rev || len(st.Picks) != n || st.Q < 0 || st.Q > n {
		return &state{Rev: rev, Picks: make([]pick, n)}
	}
	return &st
}

func (st *state) seen(id string) bool { return slices.Contains(st.Seen, id) }

func (st *state) see(id string) { st.Seen = channel.Remember(st.Seen, id, maxSeen) }

// restart gives the set to who, from its first question.
func (st *state) restart(who channel.Who) {
	*st = state{Rev: st.Rev, Who: &who, Msg: st.Msg, Picks: make([]pick, len(st.Picks)), Seen: st.Seen}
}

// confirming reports whether question Q waits for a second press to be
// answered with nothing ticked.
func (st *state) confirming() bool {
	return st.Empty && st.Q < len(st.Picks) && len(st.Picks[st.Q].Options) == 0
}

// toggle ticks option o of the question asked now, or unticks it.
func (st *state) toggle(o int) {
	st.Empty = false
	p := &st.Picks[st.Q]
	if i := slices.Index(p.Options, o); i >= 0 {
		p.Options = slices.Delete(p.Options, i, i+1)
		return
	}
	p.Options = append(p.Options, o)
	slices.Sort(p.Options)
}

// answers builds the set's answers from the picks, with the options the
// Host holds: a person's, naming who.
func (st *state) answers(req ask.Request, who channel.Who) ([]ask.Answer, error) {
	out := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		p := st.Picks[i]
		var labels []string
		for _, o := range p.Options {
			if o < 0 || o >= len(q.Options) {
				return nil, fmt.Errorf("option %d is not on question %q", o+1, ask.Display(q.Header))
			}
			labels = append(labels, q.Options[o].Label)
		}
		a, err := ask.Selection(q, labels, p.Other, ask.SourcePerson)
		if err != nil {
			return nil, err
		}
		a.Via, a.AnsweredAt = who.Via(), p.At
		out[i] = a
	}
	return out, nil
}

func (st *state) marshal() json.RawMessage {
	b, _ := json.Marshal(st)
	return b
}
