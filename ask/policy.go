package ask

import "fmt"

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
	return "", fmt.Errorf("%s: %q is not a policy; use error, auto or suspend", flag, s)
}
