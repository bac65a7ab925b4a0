package frontend

import "github.com/askuser/askuser/ask"

// keepGiven is the deferral of a set the answers file answers only in
// part (unanswered: suspend): it carries the answers the file does give,
// as an ask.PartialError, so a run keeps them and later asks only for the
// questions in missing. With nothing answered it is err itself.
func keepGiven(answers []ask.Answer, missing []int, err error) error {
	if len(missing) >= len(answers) {
		return err
	}
	given := make([]bool, len(answers))
	for i := range given {
		given[i] = true
	}
	for _, i := range missing {
		given[i] = false
	}
	return &ask.PartialError{Answers: answers, Given: given, Err: err}
}
