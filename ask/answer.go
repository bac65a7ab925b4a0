package ask

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Source says who or what chose an answer.
type Source string

// The sources of an answer. Only SourcePerson may be reported to a model as
// the user's own choice.
const (
	// SourcePerson: a person chose it at a terminal, or a program relaying a
	// person's choice said so explicitly ("source":"person" on JSON lines).
	SourcePerson Source = "person"
	// SourceProgram: a program answered over JSON lines and did not say a
	// person chose it.
	SourceProgram Source = "program"
	// SourceFile: an answers file written before the question was asked.
	SourceFile Source = "file"
	// SourcePolicy: the recommended-option policy; no person was asked.
	SourcePolicy Source = "policy"
)

// Describe names the source for a person or a model.
func (s Source) Describe() string {
	switch s {
	case SourcePerson:
		return "a person"
	case SourceProgram:
		return "a program over JSON lines (not confirmed to be a person)"
	case SourceFile:
		return "an answers file (set in advance, not by a person at the time)"
	case SourcePolicy:
		return "the recommended-option policy (no person chose it)"
	case "":
		return "an unknown source (not confirmed to be a person)"
	}
	// Not one of ours: name it, made safe to print.
	return "an unknown source (" + Display(string(s)) + ")"
}

// Answer is the answer to one question.
type Answer struct {
	Question string `json:"question"`
	Header   string `json:"header"`
	// Selected holds the chosen labels, bare (without "(Recommended)"), in
	// the order the options were given.
	Selected []string `json:"selectedOptions"`
	// Custom is the free text given through "Other", cleaned.
	Custom string `json:"customInput,omitempty"`
	// Skipped is true when no option was chosen and no text given.
	Skipped bool   `json:"skipped,omitempty"`
	Source  Source `json:"source"`
	// Via names the particular file or program, when known.
	Via string `json:"via,omitempty"`
	// Reason says why a machine answered instead of a person, e.g. "no
	// person answered within 5m0s".
	Reason string `json:"reason,omitempty"`
	// AnsweredAt is when the answer was given.
	AnsweredAt time.Time `json:"answeredAt,omitzero"`
	// Late is set when the answer came after the run that asked had stopped
	// waiting (askuser resume).
	Late *Late `json:"late,omitempty"`
	// Declined is set when the person declined to answer (askuser
	// cancel): nothing is selected, and the result says so.
	Declined *Declined `json:"declined,omitempty"`
}

// Late records an answer given after the asking run stopped.
type Late struct {
	AskedAt time.Time `json:"askedAt"`
}

// Frontend puts a question set to someone (or something) and returns one
// Answer per question, in order. Ask honours ctx: when it is cancelled or
// its deadline passes, Ask returns promptly with an error wrapping
// ErrCancelled or ErrTimeout and leaves the terminal as it found it.
type Frontend interface {
	Ask(ctx context.Context, req Request) ([]Answer, error)
}

// Concurrent is implemented by frontends that can hold several question
// sets open at once (JSON lines). Others are asked one set at a time.
type Concurrent interface {
	Concurrent() bool
}

// Sentinel errors. Frontends wrap them with what happened.
var (
	// ErrCancelled: the person cancelled (Ctrl+C) or the run was stopped.
	ErrCancelled = errors.New("cancelled")
	// ErrTimeout: nobody answered within the time allowed.
	ErrTimeout = errors.New("no answer within the time allowed")
	// ErrNoAnswer: this frontend cannot answer the question (stdin ended,
	// the answers file has no entry, there is no terminal).
	ErrNoAnswer = errors.New("no answer")
	// ErrDeferred: the question is to be answered later (askuser resume);
	// a run records it and stops waiting.
	ErrDeferred = errors.New("answer deferred")
)

// CtxErr maps a context's error to ErrCancelled or ErrTimeout, keeping the
// original for errors.Is. It returns nil when ctx is not done.
func CtxErr(ctx context.Context) error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	// The cause, when one was given, says why in words (a signal, a
	// timeout); the context's own error stays wrapped for errors.Is.
	why := err
	if c := context.Cause(ctx); c != nil && c != err && !errors.Is(c, ErrTimeout) {
		why = causeErr{cause: c, ctxErr: err}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(context.Cause(ctx), ErrTimeout) {
		return fmt.Errorf("%w (%w)", ErrTimeout, why)
	}
	return fmt.Errorf("%w (%w)", ErrCancelled, why)
}

// causeErr reads as the cause of a cancellation and still is the
// context's error for errors.Is.
type causeErr struct{ cause, ctxErr error }

func (e causeErr) Error() string   { return e.cause.Error() }
func (e causeErr) Unwrap() []error { return []error{e.cause, e.ctxErr} }

// Selection builds a validated answer from labels (matched
// case-insensitively, "(Recommended)" optional) and free text. It is the
// one place the rules live: a single-select question takes at most one of
// either; unknown labels are named with the labels that exist.
func Selection(q Question, labels []string, custom string, src Source) (Answer, error) {
	a := Answer{Question: q.Question, Header: q.Header, Selected: []string{}, Source: src}
	chosen := make([]bool, len(q.Options))
	for _, l := range labels {
		i := q.LabelIndex(l)
		if i < 0 {
			if FoldKey(l) == "other" {
				return a, fmt.Errorf("%s is not a label of question %q; to give free text, set customInput (JSON) or other: (answers file)", Excerpt(l), q.Header)
			}
			return a, fmt.Errorf("%s is not a label of question %q; choose from: %s", Excerpt(Display(l)), q.Header, q.LabelList())
		}
		chosen[i] = true
	}
	for i, c := range chosen {
		if c {
			a.Selected = append(a.Selected, BareLabel(Display(q.Options[i].Label)))
		}
	}
	a.Custom = CleanFreeText(custom)
	if !q.MultiSelect && len(a.Selected)+boolInt(a.Custom != "") > 1 {
		return a, fmt.Errorf("question %q takes one answer, got %d; give one label or free text", q.Header, len(a.Selected)+boolInt(a.Custom != ""))
	}
	a.Skipped = len(a.Selected) == 0 && a.Custom == ""
	return a, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// viaOn joins a person and the place they answered in (ViaOn).
const viaOn = " on "

// ViaOn is the Via of an answer a person gave somewhere other than
// askuser's own prompt, naming them and the place: "@alice on Slack".
// FormatResult shows such a Via on a line of its own; a Via that names a
// medium rather than a person ("stdin", "web page") stays out of the
// result.
func ViaOn(person, place string) string { return person + viaOn + place }
