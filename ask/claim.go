package ask

import "context"

// A question set offered to several frontends at once (askuser --frontend
// web,survey) is answered by the first of them to claim it. A frontend
// that shows an answer as accepted — the terminal's "✔ Database:
// MongoDB", the web card's "Answer sent" — claims the set before it does,
// and one that finds it claimed says what won instead. The race that
// offers the set (package frontend's Race) decides under a lock and puts
// its Claimer in the context each frontend is asked with; outside a race
// every claim wins.

// Claimer decides which of the frontends a set was offered to answers it.
type Claimer interface {
	// Claim reports whether answers, given through the frontend that
	// calls it, are the set's answers: true for the first frontend to
	// claim the set, false for every later one, whose answers are then
	// not used and must not be shown as accepted.
	Claim(answers []Answer) bool
	// Winner reports, once another frontend won the set with answers,
	// where they were given ("at the terminal", "in the browser") and what
	// they are; ok is false while nobody has, or when the caller itself
	// won.
	Winner() (where string, answers []Answer, ok bool)
}

type claimerKey struct{}

// WithClaimer returns ctx carrying c, for a frontend offered a set in a
// race.
func WithClaimer(ctx context.Context, c Claimer) context.Context {
	return context.WithValue(ctx, claimerKey{}, c)
}

// ClaimerOf returns the Claimer ctx carries, or, outside a race, one whose
// every claim wins.
func ClaimerOf(ctx context.Context) Claimer {
	if c, ok := ctx.Value(claimerKey{}).(Claimer); ok {
		return c
	}
	return sole{}
}

// sole is the Claimer of a set offered to one frontend alone.
type sole struct{}

func (sole) Claim([]Answer) bool              { return true }
func (sole) Winner() (string, []Answer, bool) { return "", nil, false }
