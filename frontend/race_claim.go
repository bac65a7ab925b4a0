package frontend

import (
	"context"
	"fmt"
	"sync"

	"github.com/askuser/askuser/ask"
)

// raceState is who won a Race's set, decided once, under a lock: the
// first frontend to claim it. A frontend that shows its own answer as
// given (the terminal's "✔ Database: MongoDB", the web card) claims
// before showing it (ask.ClaimerOf(ctx).Claim); the others claim by
// returning. So whichever frontend the person used a moment too late
// never shows an answer that did not count, and can show the one that did
// (Winner).
type raceState struct {
	mu      sync.Mutex
	names   []string
	winner  int          // index into names; -1 until decided
	answers []ask.Answer // the winner's, once it claimed with them or returned them
	cancel  context.CancelCauseFunc
}

// decide makes racer i the winner if there is none yet, withdrawing the
// others with cause, and reports whether i is the winner. answers, when
// given, are recorded as the winner's.
func (st *raceState) decide(i int, answers []ask.Answer, cause error) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.winner < 0 {
		st.winner = i
		// Under the lock, so a loser that finds the set decided also
		// finds its context cancelled.
		st.cancel(cause)
	}
	if st.winner != i {
		return false
	}
	if answers != nil {
		st.answers = answers
	}
	return true
}

// raceSeat is one frontend's place in a race: its ask.Claimer, carried by
// the context it is asked with.
type raceSeat struct {
	st *raceState
	i  int
}

var _ ask.Claimer = raceSeat{}

func withSeat(ctx context.Context, st *raceState, i int) context.Context {
	return ask.WithClaimer(ctx, raceSeat{st, i})
}

// Claim is called by a frontend that has answers, before it shows them
// as given: it reports whether they are the set's answers, and records
// them as the winner's when they are, so a frontend that lost can show
// them at once.
func (seat raceSeat) Claim(answers []ask.Answer) bool {
	return seat.st.decide(seat.i, answers, fmt.Errorf("answered through %s", seat.st.names[seat.i]))
}

// Winner reports, to a frontend of a race that another frontend won with
// answers, where they were given ("in the browser") and what they are.
func (seat raceSeat) Winner() (where string, answers []ask.Answer, ok bool) {
	st := seat.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.winner < 0 || st.winner == seat.i || st.answers == nil {
		return "", nil, false
	}
	return answeredWhere(st.names[st.winner]), st.answers, true
}

// answeredWhere says where a frontend of --frontend's list takes its
// answers from, for a person at another one.
func answeredWhere(name string) string {
	switch name {
	case "web":
		return "in the browser"
	case "stdio":
		return "by the program on standard input"
	case "file":
		return "from the answers file"
	case "survey":
		return "at the terminal"
	}
	return "through " + name
}
