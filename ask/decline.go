package ask

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxDeclineReasonChars bounds the reason a person gives for declining to
// answer (askuser cancel --reason): it is read by a model, not stored as a
// document.
const MaxDeclineReasonChars = 500

// Declined records that a person declined to answer a question: the
// session that asked was cancelled (askuser cancel) instead of answered.
type Declined struct {
	// Reason is the person's reason, cleaned and bounded; "" when none
	// was given.
	Reason string `json:"reason,omitempty"`
}

// Decline builds the answer to q that says the person declined to answer
// it, with their reason (cleaned as free text and cut at
// MaxDeclineReasonChars). It selects nothing and is not Skipped: a skip is
// an answer, a declination is a refusal to give one.
func Decline(q Question, reason string, at time.Time) Answer {
	return Answer{Question: q.Question, Header: q.Header, Selected: []string{}, Source: SourcePerson,
		AnsweredAt: at, Declined: &Declined{Reason: CleanDeclineReason(reason)}}
}

// CleanDeclineReason prepares a declination's reason for the model and
// the journal: CleanFreeText, on one line, at most MaxDeclineReasonChars.
func CleanDeclineReason(s string) string {
	s = strings.Join(strings.Fields(CleanFreeText(s)), " ")
	if utf8.RuneCountInString(s) > MaxDeclineReasonChars {
		s = strings.TrimSpace(string([]rune(s)[:MaxDeclineReasonChars-1])) + "…"
	}
	return s
}

// PartialError is a deferral that carries the answers a frontend could
// give now to some of a set's questions (an answers file that answers
// only some, with unanswered: suspend): the run keeps them and asks only
// the others later. Answers has one entry per question of the set, and
// Given[i] says whether Answers[i] is an answer. It wraps Err, which
// wraps ErrDeferred.
type PartialError struct {
	Answers []Answer
	Given   []bool
	Err     error
}

func (e *PartialError) Error() string { return e.Err.Error() }
func (e *PartialError) Unwrap() error { return e.Err }

// AsPartial returns the partial answers err carries, if it is a deferral
// that carries any.
func AsPartial(err error) (*PartialError, bool) {
	var pe *PartialError
	if !errors.As(err, &pe) || !errors.Is(err, ErrDeferred) || len(pe.Given) != len(pe.Answers) {
		return nil, false
	}
	for _, g := range pe.Given {
		if g {
			return pe, true
		}
	}
	return nil, false
}
