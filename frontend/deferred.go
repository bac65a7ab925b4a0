package frontend

import (
	"context"
	"fmt"

	"github.com/askuser/askuser/ask"
)

// Deferred is the frontend of a run that has no way to ask now: every
// question set is kept for askuser resume. Its error wraps ask.ErrDeferred
// and says why.
type Deferred struct {
	// Reason says why nothing can answer now, and what would.
	Reason string
}

var _ ask.Frontend = Deferred{}

// Ask defers req, unless ctx is already done.
func (d Deferred) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: %s", ask.ErrDeferred, d.Reason)
}
