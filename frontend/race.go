package frontend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// Racer is one frontend of a Race, with the name it is chosen by.
type Racer struct {
	Name string
	FE   ask.Frontend
}

// Race offers every question set to several frontends at once (askuser
// --frontend web,survey): the first answer wins, and the others are
// withdrawn by cancelling their context with a cause that names the
// winner ("answered through web"), so a web card can say why it closed.
// Ask returns only after every frontend has returned, so a terminal prompt
// that lost has restored the terminal before anything else is printed.
//
// A frontend that cannot answer (its error wraps ask.ErrNoAnswer: no
// terminal, the answers file lacks the question) drops out and the others
// go on; any other outcome decides the set, an error too: Ctrl+C at the
// terminal cancels, a deferral defers. When every frontend drops out, the
// error wraps ask.ErrNoAnswer and says why each could not.
//
// The first answer is the first one claimed: a frontend that shows its
// answer as given (the terminal's confirmation line, the web card) claims
// the set before it does (ask.ClaimerOf(ctx).Claim), and one that finds
// it claimed shows what won instead, and where (Winner; see raceState).
//
// A Race is Concurrent when any of its frontends is: sets are offered to
// the concurrent ones as they come, and queue, one at a time, for each of
// the others, so a web page shows every open set while the terminal asks
// them in turn, and a set answered on the page while it queued is never
// asked at the terminal.
type Race struct {
	racers []racer
	conc   bool
}

type racer struct {
	Racer
	// turn, for a frontend that asks one set at a time, holds a token
	// while a set is put to it; nil for a concurrent one.
	turn chan struct{}
}

var (
	_ ask.Frontend   = (*Race)(nil)
	_ ask.Concurrent = (*Race)(nil)
)

// NewRace returns a Race of the frontends, in the order given (the order
// names them in messages; it gives none an advantage).
func NewRace(racers ...Racer) *Race {
	r := &Race{}
	for _, x := range racers {
		rc := racer{Racer: x}
		if c, ok := x.FE.(ask.Concurrent); ok && c.Concurrent() {
			r.conc = true
		} else {
			rc.turn = make(chan struct{}, 1)
		}
		r.racers = append(r.racers, rc)
	}
	return r
}

// Concurrent reports whether any frontend of the race holds several sets
// open at once.
func (r *Race) Concurrent() bool { return r.conc }

type raceResult struct {
	i       int
	answers []ask.Answer
	err     error
}

// Ask puts req to every frontend and returns the first answer (or the
// first error that decides the set, see Race).
func (r *Race) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if len(r.racers) == 0 {
		return nil, fmt.Errorf("%w: no frontend to ask", ask.ErrNoAnswer)
	}
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	st := &raceState{winner: -1, cancel: cancel}
	for _, x := range r.racers {
		st.names = append(st.names, x.Name)
	}
	results := make(chan raceResult, len(r.racers))
	for i := range r.racers {
		go func() {
			a, err := r.racers[i].ask(withSeat(rctx, st, i), req)
			results <- raceResult{i: i, answers: a, err: err}
		}()
	}
	var won *raceResult
	dropped := make([]string, len(r.racers))
	for range r.racers {
		res := <-results // every frontend is waited for, winner or not
		if won != nil {
			continue
		}
		name := r.racers[res.i].Name
		switch {
		case res.err == nil:
			// A frontend that claimed the set first wins it, even if
			// another's answers reach this loop before its own.
			if st.decide(res.i, res.answers, fmt.Errorf("answered through %s", name)) {
				won = &res
			}
		case errors.Is(res.err, ask.ErrNoAnswer) && ctx.Err() == nil:
			dropped[res.i] = name + ": " + strings.TrimPrefix(res.err.Error(), ask.ErrNoAnswer.Error()+": ")
		default:
			if st.decide(res.i, nil, fmt.Errorf("given up through %s: %w", name, res.err)) {
				won = &res
			}
		}
	}
	switch {
	case ctx.Err() != nil && (won == nil || won.err != nil):
		return nil, ask.CtxErr(ctx)
	case won == nil:
		// In the order the frontends were given, whatever order they
		// dropped out in, so the message is the same every time.
		return nil, fmt.Errorf("%w: none of the frontends could answer (%s)", ask.ErrNoAnswer, strings.Join(dropped, "; "))
	}
	return won.answers, won.err
}

// ask puts req to one frontend, first waiting for its turn if it asks one
// set at a time.
func (x *racer) ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if x.turn != nil {
		select {
		case x.turn <- struct{}{}:
			defer func() { <-x.turn }()
		case <-ctx.Done():
			return nil, ask.CtxErr(ctx)
		}
		if err := ask.CtxErr(ctx); err != nil {
			return nil, err // answered elsewhere while it queued
		}
	}
	return x.FE.Ask(ctx, req)
}
