package relay

import (
	"errors"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Who answered, as the mailbox records it for answers given outside a
// chat channel.
const (
	ByTerminal  = "a person at the terminal"
	ByInboxPage = "a person on the inbox page"
	ByWebPage   = "a person on the web page"
)

// By names who gave answers, for a person to read on a widget or in "already
// answered by …".
func By(answers []ask.Answer) string {
	if len(answers) == 0 {
		return "nobody"
	}
	a := answers[0]
	switch {
	case a.Declined != nil:
		return "askuser cancel"
	}
	if via, ok := a.PersonVia(); ok {
		return via
	}
	switch {
	case a.Source == ask.SourcePerson && a.Via == "web page":
		return ByWebPage
	case a.Source == ask.SourcePerson && a.Via != "":
		return "a person, over JSON lines"
	case a.Source == ask.SourcePerson:
		return ByTerminal
	case a.Source == ask.SourceFile:
		return "the answers file"
	case a.Source == ask.SourcePolicy:
		return "the recommended-option policy"
	}
	return "a program over JSON lines"
}

// delivery is what the mailbox records for answers given now.
func delivery(answers []ask.Answer, now time.Time) session.Delivery {
	return session.Delivery{Answers: answers, By: By(answers), At: now}
}

// outcomeOf is what a set's widget shows once d answered it.
func outcomeOf(d session.Delivery) session.Outcome {
	if len(d.Answers) > 0 && d.Answers[0].Declined != nil {
		why := "the person declined to answer"
		if r := ask.CleanDeclineReason(d.Answers[0].Declined.Reason); r != "" {
			why += ": " + r
		}
		return session.Outcome{State: channel.Cancelled, By: d.By, Why: why, At: d.At,
			Text: "Cancelled: " + why + " (" + d.At.Local().Format("15:04") + ")"}
	}
	return session.Outcome{State: channel.Answered, By: d.By, At: d.At, Text: channel.OutcomeText(d.Answers, ask.Display(d.By), d.At)}
}

// withdrawn is the outcome of a set nobody will answer now.
func withdrawn(why string, at time.Time) session.Outcome {
	return session.Outcome{State: channel.Withdrawn, Why: why, At: at, Text: "Withdrawn: " + why + "."}
}

// refusal is what a tap on a set that no longer waits is told.
func refusal(o session.Outcome) string {
	switch o.State {
	case channel.Answered:
		return "Already answered by " + ask.Display(o.By) + " at " + o.At.Local().Format("15:04") + "."
	case channel.Cancelled:
		return "This question was cancelled: " + o.Why + "."
	}
	return "This question is no longer waiting: " + o.Why + "."
}

// whyEnded says why a set was given up without an answer, for its widget.
func whyEnded(err error) string {
	switch {
	case errors.Is(err, ask.ErrTimeout):
		return "nobody answered in time"
	case errors.Is(err, ask.ErrDeferred):
		return "the asker stopped waiting"
	case errors.Is(err, ask.ErrCancelled):
		return "the asker was stopped"
	}
	return "the asker gave up: " + ask.Excerpt(ask.Display(err.Error()))
}
