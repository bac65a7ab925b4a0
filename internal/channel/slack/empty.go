package slack

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// An empty multi-select is never sent by a single stray press: a Submit
// that leaves a multi-select question with nothing ticked and nothing
// typed is refused once, saying so, and taken when the same person
// presses Submit again on the same rendering with the same questions
// left empty, within confirmWithin (the terminal asks "Submit with
// nothing selected? y/N").

// confirmWithin is how long a refused empty Submit waits for its second.
const confirmWithin = 10 * time.Minute

// maxConfirming bounds the empty Submits remembered.
const maxConfirming = 1024

// empties remembers, in this process, the empty Submits refused once.
type empties struct {
	mu sync.Mutex
	m  map[string]emptied
}

type emptied struct {
	qs []int
	at time.Time
}

// emptyQuestions are the multi-select questions answered with nothing.
func emptyQuestions(s channel.Set, answers []ask.Answer) []int {
	var out []int
	for i, q := range s.Request.Questions {
		if q.MultiSelect && i < len(answers) && len(answers[i].Selected) == 0 && answers[i].Custom == "" {
			out = append(out, i)
		}
	}
	return out
}

// confirmed reports whether a Submit by user on tok's rendering leaving
// qs empty is the second within confirmWithin; a first is remembered.
func (e *empties) confirmed(user string, tok channel.Token, qs []int, now time.Time) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[string]emptied{}
	}
	k := tok.Key + "." + strconv.Itoa(tok.Rev) + "." + user
	if first, ok := e.m[k]; ok && slices.Equal(first.qs, qs) && now.Sub(first.at) <= confirmWithin {
		delete(e.m, k)
		return true
	}
	if len(e.m) >= maxConfirming {
		for old, x := range e.m {
			if now.Sub(x.at) > confirmWithin || len(e.m) >= maxConfirming {
				delete(e.m, old)
			}
		}
	}
	e.m[k] = emptied{qs: qs, at: now}
	return false
}

// nothingTicked says which questions were left empty, and how to send
// them so.
func nothingTicked(s channel.Set, qs []int) string {
	var hs []string
	for _, i := range qs {
		hs = append(hs, fmt.Sprintf("%q", ask.Display(s.Request.Questions[i].Header)))
	}
	return strings.Join(hs, ", ") + ": nothing is ticked. Tick what applies, or press Submit again to send it with nothing selected."
}
