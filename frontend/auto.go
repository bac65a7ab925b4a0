package frontend

import (
	"context"
	"strings"
	"time"

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
		answers[i] = Recommended(q, a.Reason)
	}
	return answers, nil
}

// Recommended builds the policy's answer to one question: for a
// single-select question the first option labelled "(Recommended)", failing
// that the first option; for a multi-select question every option labelled
// "(Recommended)", failing that the first option. It never chooses "Other"
// and never gives free text: a policy has nothing to say in words. Labels
// are bare, Source is ask.SourcePolicy and Reason is reason.
func Recommended(q ask.Question, reason string) ask.Answer {
	var labels []string
	for _, i := range q.Recommended() {
		if isOtherLabel(q.Options[i].Label) {
			continue
		}
		labels = append(labels, q.Options[i].Label)
		if !q.MultiSelect {
			break
		}
	}
	if len(labels) == 0 {
		for _, o := range q.Options {
			if !isOtherLabel(o.Label) {
				labels = []string{o.Label}
				break
			}
		}
	}
	// Selection cannot fail here: every label is one of q's own options and a
	// single-select question gets exactly one.
	a, _ := ask.Selection(q, labels, "", ask.SourcePolicy)
	a.Reason = reason
	a.AnsweredAt = time.Now()
	return a
}

// isOtherLabel reports whether an option is labelled "Other". Validation
// rejects such options, but Auto may be handed unvalidated questions and
// must still never pick the free-text choice.
func isOtherLabel(label string) bool {
	return ask.FoldKey(label) == strings.ToLower(ask.OtherLabel)
}
