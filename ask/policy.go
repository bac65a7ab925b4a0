package ask

import (
	"fmt"
	"strings"
	"time"
)

// Policy says what to do when no person can answer a question: when an
// answers file has no entry for it, or when nobody answered in time.
type Policy string

// The policies.
const (
	// PolicyError fails with an error that says how to supply the answer.
	PolicyError Policy = "error"
	// PolicyAuto answers with the recommended option, marked as such.
	PolicyAuto Policy = "auto"
	// PolicySuspend keeps the question pending for askuser resume.
	PolicySuspend Policy = "suspend"
)

// ParsePolicy reads a policy name; flag names the flag or key for the error.
func ParsePolicy(flag, s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyError, PolicyAuto, PolicySuspend:
		return p, nil
	}
	return "", fmt.Errorf("%s: %s is not a policy; use error, auto or suspend", flag, Excerpt(s))
}

// Recommended builds the policy's answer to one question: for a
// single-select question the first option labelled "(Recommended)", failing
// that the first option; for a multi-select question every option labelled
// "(Recommended)", failing that the first option. It never chooses "Other"
// and never gives free text: a policy has nothing to say in words. Labels
// are bare, Source is SourcePolicy and Reason is reason.
func Recommended(q Question, reason string) Answer {
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
	a, _ := Selection(q, labels, "", SourcePolicy)
	a.Reason = reason
	a.AnsweredAt = time.Now()
	return a
}

// isOtherLabel reports whether an option is labelled "Other". Validation
// rejects such options, but Auto may be handed unvalidated questions and
// must still never pick the free-text choice.
func isOtherLabel(label string) bool {
	return FoldKey(label) == strings.ToLower(OtherLabel)
}
