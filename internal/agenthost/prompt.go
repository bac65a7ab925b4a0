package agenthost

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
)

// Prompt is the continuation prompt for a host without defer, in seed
// 001's words. One question a person answered reads
//
//	You previously asked: Which database should we use?
//	The user answered: SQLite (via @alice on Slack).
//	Continue.
//
// Anything else (several questions, an answer a file or a policy gave, a
// declined question) lists the questions, then the answers exactly as
// askuser's own tool result gives them (ask.FormatResult), so every answer
// that was not a person's says who gave it: a machine's answer is never
// passed off as the user's.
func Prompt(in ask.Input, answers []ask.Answer) string {
	if len(in.Questions) == 1 && len(answers) == 1 && personal(answers[0]) {
		return "You previously asked: " + ask.Display(in.Questions[0].Question) + "\n" +
			"The user answered: " + answerText(answers[0]) + ".\n" +
			"Continue."
	}
	var b strings.Builder
	b.WriteString("You previously asked:\n")
	for i, q := range in.Questions {
		fmt.Fprintf(&b, "%d. %s: %s\n", i+1, ask.Display(q.Header), ask.Display(q.Question))
	}
	b.WriteString("\n")
	b.WriteString(ask.FormatResult(answers))
	b.WriteString("\n\nContinue.")
	return b.String()
}

// personal reports whether a is a person's answer to show in one line.
func personal(a ask.Answer) bool {
	return a.Source == ask.SourcePerson && a.Declined == nil && !a.Skipped && (len(a.Selected) > 0 || a.Custom != "")
}

// answerText is a person's answer in one line: the labels chosen, the text
// given, where they gave it and how late.
func answerText(a ask.Answer) string {
	var parts []string
	for _, l := range a.Selected {
		parts = append(parts, ask.Display(ask.BareLabel(l)))
	}
	if a.Custom != "" {
		parts = append(parts, ask.CleanFreeText(a.Custom))
	}
	s := strings.Join(parts, ", ")
	var notes []string
	if via, ok := a.PersonVia(); ok {
		notes = append(notes, "via "+via)
	}
	if a.Late != nil && !a.Late.AskedAt.IsZero() && !a.AnsweredAt.IsZero() {
		notes = append(notes, ask.HumanDuration(a.AnsweredAt.Sub(a.Late.AskedAt))+" after you asked")
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// questionsOf decodes the questions of a pending AskUserQuestion call.
func questionsOf(c *Call) (ask.Input, error) {
	if c == nil || len(c.Input) == 0 {
		return ask.Input{}, fmt.Errorf("%w: the session records no pending question", ErrNoSession)
	}
	in, err := ask.Decode(c.Input)
	if err != nil {
		return ask.Input{}, fmt.Errorf("read the pending call %s: %w", c.ID, err)
	}
	return in, nil
}

// continuationPrompt builds the prompt of c for s.
func continuationPrompt(s Session, c Continuation) (string, error) {
	var in ask.Input
	if c.Question != nil {
		in = *c.Question
	} else {
		var err error
		if in, err = questionsOf(s.Pending); err != nil {
			return "", err
		}
	}
	if len(c.Answers) == 0 {
		return "", fmt.Errorf("continue %s session %s: no answers to give it", s.Host, s.ID)
	}
	if len(c.Answers) != len(in.Questions) {
		return "", fmt.Errorf("continue %s session %s: %d answers for %d questions", s.Host, s.ID, len(c.Answers), len(in.Questions))
	}
	return Prompt(in, c.Answers), nil
}

// jsonString quotes s as a JSON (and TOML basic) string.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
