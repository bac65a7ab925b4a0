package inbox

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
)

// Via is what answers given on a page carry as ask.Answer.Via.
const Via = "web page"

// otherValue is the form value of the "Other" choice.
const otherValue = "other"

// FormError says why a posted form does not answer its question set; the
// card shows it and stays open.
type FormError struct{ Msg string }

func (e *FormError) Error() string { return e.Msg }

func formErrorf(format string, args ...any) error {
	return &FormError{Msg: fmt.Sprintf(format, args...)}
}

// answersFromForm answers every question of req from a posted form. The
// browser sends option indexes, never labels: the labels are req's own, so
// a changed page cannot answer with a label the model did not offer. Free
// text counts when "Other" is chosen, or when nothing is chosen and text
// was typed (a page without script cannot tick Other for the person).
// A multi-select with nothing ticked and no text is taken only when the
// form confirms it (page.NoneField): a stray Submit is not an answer.
// Every answer is a person's, given now on the page.
func answersFromForm(req ask.Request, form url.Values, now time.Time) ([]ask.Answer, error) {
	answers := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		header := ask.Display(q.Header)
		var labels []string
		other := false
		for _, v := range form[page.ChoiceField(i)] {
			if v == otherValue {
				other = true
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n >= len(q.Options) || strconv.Itoa(n) != v {
				return nil, formErrorf("question %q: %s is not one of its options; reload the page", header, ask.Excerpt(v))
			}
			labels = append(labels, q.Options[n].Label)
		}
		text := ask.CleanFreeText(form.Get(page.OtherField(i)))
		if !other && len(labels) == 0 && text != "" {
			other = true
		}
		if !other {
			text = ""
		}
		if other && text == "" {
			return nil, formErrorf("question %q: Other is chosen but no text was typed; type your answer, or choose an option", header)
		}
		if !q.MultiSelect && len(labels) == 0 && !other {
			return nil, formErrorf("question %q needs an answer: choose an option, or choose Other and type one", header)
		}
		if q.MultiSelect && len(labels) == 0 && !other && form.Get(page.NoneField(i)) != "1" {
			return nil, formErrorf("question %q: nothing is ticked, and submitting it so was not confirmed; tick what applies, "+
				"or confirm \"Submit with nothing selected\" to answer it with none", header)
		}
		a, err := ask.Selection(q, labels, text, ask.SourcePerson)
		if err != nil {
			return nil, &FormError{Msg: err.Error()}
		}
		a.Via, a.AnsweredAt = Via, now
		answers[i] = a
	}
	return answers, nil
}
