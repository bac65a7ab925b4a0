package frontend

import (
	"context"

	"github.com/askuser/askuser/ask"
)

// Auto answers with the recommended option; no person is asked. Every answer
// it gives carries ask.SourcePolicy, so a model is never told a person chose.
type Auto struct {
	// Reason says why a policy answers, copied to ask.Answer.Reason (e.g.
	// "no person answered within 5m0s"); it may be empty.
	Reason string
}

var _ ask.Frontend = Auto{}

// Ask answers every question with Recommended. It returns an error only when
// ctx is already done, so a cancelled run does not record answers.
func (a Auto) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	answers := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		answers[i] = ask.Recommended(q, a.Reason)
	}
	return answers, nil
}
