package ask

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The opening and closing lines of the tool result. The standard pair is
// used only when a person gave every answer.
const (
	headAllPerson  = "User answered the following questions:"
	headSomePerson = "User answered some of the following questions; the others were answered as marked:"
	headNoPerson   = "No person answered the following questions; they were answered as marked:"
	tailAllPerson  = "Proceeding with user selections."
	tailMachine    = `Proceeding with these selections. Treat the answers marked "Answered by" as defaults the user has not confirmed.`

	// A question the person declined to answer (askuser cancel) is not
	// answered: the lines say so, whoever answered the others.
	headAllDeclined    = "The user declined to answer the following questions:"
	headSomeDeclined   = "The user declined to answer some of the following questions; the others were answered as marked:"
	headPersonDeclined = "User answered some of the following questions and declined to answer the others:"
	tailPersonDeclined = "Proceeding with the user's selections."
	tailDeclined       = "The user chose not to answer these. Do not assume answers to them: continue without them, or end your turn and say what is still undecided."
	tailSomeDeclined   = "Do not assume answers to the declined questions: continue without them, or end your turn and say what is still undecided."
	declinedNoReason   = "the user chose not to answer (no reason given)"
	declinedWithReason = "the user chose not to answer; their reason: "
)

// FormatResult renders answers as the tool result a model reads:
//
//	User answered the following questions:
//
//	1. Database (Which database should we use for this project?)
//	   Selected: PostgreSQL
//
//	Proceeding with user selections.
//
// Free text given through "Other" is an "Other: <text>" line; a question
// with neither is "Skipped: no option chosen and no text given". An answer
// that did not come from a person gets an "Answered by:" line naming its
// source, and the opening and closing lines say so; an answer given after
// the run stopped waiting gets an "Answered later:" line. A person's answer
// given in a chat channel names them on a "Via:" line ("Via: @alice on
// Slack"), under the standard opening and closing. A question the
// person declined to answer (askuser cancel) gets a "Declined:" line with
// their reason, and nothing else.
func FormatResult(answers []Answer) string {
	var b strings.Builder
	persons, declined := 0, 0
	for _, a := range answers {
		switch {
		case a.Declined != nil:
			declined++
		case a.Source == SourcePerson:
			persons++
		}
	}
	head, tail := framing(len(answers), persons, declined)
	b.WriteString(head)
	b.WriteString("\n\n")
	for i, a := range answers {
		fmt.Fprintf(&b, "%d. %s (%s)\n", i+1, Display(a.Header), Display(a.Question))
		if a.Declined != nil {
			b.WriteString("   Declined: " + a.Declined.note() + "\n\n")
			continue
		}
		if len(a.Selected) > 0 {
			sel := make([]string, len(a.Selected))
			for j, l := range a.Selected {
				sel[j] = Display(BareLabel(l))
			}
			fmt.Fprintf(&b, "   Selected: %s\n", strings.Join(sel, ", "))
		}
		if a.Custom != "" {
			fmt.Fprintf(&b, "   Other: %s\n", CleanFreeText(a.Custom))
		}
		if len(a.Selected) == 0 && a.Custom == "" {
			b.WriteString("   Skipped: no option chosen and no text given\n")
		}
		if v, ok := a.PersonVia(); ok {
			fmt.Fprintf(&b, "   Via: %s\n", v)
		}
		if a.Source != SourcePerson {
			fmt.Fprintf(&b, "   Answered by: %s\n", a.answeredBy())
		}
		if a.Late != nil {
			fmt.Fprintf(&b, "   Answered later: %s\n", a.lateNote())
		}
		b.WriteString("\n")
	}
	b.WriteString(tail)
	return b.String()
}

// framing chooses the opening and closing lines: the standard pair only
// when a person gave every answer; a declined question is never counted as
// answered.
func framing(n, persons, declined int) (head, tail string) {
	switch {
	case declined == 0 && persons == n:
		return headAllPerson, tailAllPerson
	case declined == 0 && persons > 0:
		return headSomePerson, tailMachine
	case declined == 0:
		return headNoPerson, tailMachine
	case declined == n:
		return headAllDeclined, tailDeclined
	case persons+declined == n:
		return headPersonDeclined, tailPersonDeclined + " " + tailSomeDeclined
	}
	return headSomeDeclined, tailMachine + " " + tailSomeDeclined
}

// note is the text of a "Declined:" line.
func (d *Declined) note() string {
	if r := CleanDeclineReason(d.Reason); r != "" {
		return declinedWithReason + r
	}
	return declinedNoReason
}

// PersonVia is the Via line of a person's answer that names them and
// where they answered (ViaOn), made safe to show.
func (a Answer) PersonVia() (string, bool) {
	if a.Source != SourcePerson || !strings.Contains(a.Via, viaOn) {
		return "", false
	}
	return Display(a.Via), true
}

func (a Answer) answeredBy() string {
	var s string
	switch a.Source {
	case SourceFile:
		s = "an answers file"
		if a.Via != "" {
			s += " (" + Display(a.Via) + ")"
		}
		s += ", set in advance, not chosen by a person at the time"
	case SourcePolicy:
		s = "the recommended-option policy, not a person"
	case SourceProgram:
		s = "a program over JSON lines"
		if a.Via != "" {
			s += " (" + Display(a.Via) + ")"
		}
		s += ", not confirmed to be a person"
	default:
		s = a.Source.Describe()
	}
	if a.Reason != "" {
		s += "; " + Display(a.Reason)
	}
	return s
}

func (a Answer) lateNote() string {
	// The source is named once: here for a person (who has no "Answered
	// by" line), on the "Answered by" line otherwise.
	var parts []string
	if a.Source == SourcePerson {
		parts = append(parts, "by a person")
	}
	if !a.Late.AskedAt.IsZero() && !a.AnsweredAt.IsZero() {
		parts = append(parts, HumanDuration(a.AnsweredAt.Sub(a.Late.AskedAt))+" after it was asked")
	}
	note := strings.Join(parts, ", ")
	if note != "" {
		note += "; "
	}
	return note + "the run had stopped to wait for it and was resumed"
}

// HumanDuration rounds d for a sentence: "45s", "12m", "2h13m", "3d4h".
func HumanDuration(d time.Duration) string {
	// Round first so 59.6s reads "1m", not "1m0s".
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return d.Round(time.Second).String()
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		h := int(d.Hours())
		return fmt.Sprintf("%dh%dm", h, int(d.Minutes())-60*h)
	}
	days := int(d.Hours()) / 24
	return fmt.Sprintf("%dd%dh", days, int(d.Hours())-24*days)
}

// MarshalJSON writes "selectedOptions" as [] when nothing was selected, so
// a reader can always treat it as a list: an Answer built without
// Selection has a nil Selected, which encoding/json would write as null.
func (a Answer) MarshalJSON() ([]byte, error) {
	type plain Answer // without this method, so Marshal does not recurse
	if a.Selected == nil {
		a.Selected = []string{}
	}
	return json.Marshal(plain(a))
}
