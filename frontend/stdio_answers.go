package frontend

import (
	"fmt"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

// Matching an answer line to an open question set and turning it into
// answers. Labels are matched only by ask.Selection and questions found
// only by ask.FindQuestion, so the rules are those of every other frontend.

// routeLocked picks the open set l answers: the one it names, else the
// only one open, else the only one all of whose answers name its questions.
func (s *Stdio) routeLocked(l *inLine) (*openSet, *lineErr) {
	if l.id != "" {
		if set := s.findSetLocked(l.id); set != nil {
			return set, nil
		}
		return nil, &lineErr{id: echoID(l.id), msg: fmt.Sprintf(`%s: no open question set has id %s; open: %s; set "id" to one of them`,
			l.where(), ask.Excerpt(l.id), openList(s.sets))}
	}
	if len(s.sets) == 1 {
		return s.sets[0], nil
	}
	var fits []*openSet
	for _, set := range s.sets {
		if l.fits(set.req.Questions) {
			fits = append(fits, set)
		}
	}
	if len(fits) == 1 {
		return fits[0], nil
	}
	what := "its answers name questions of none of them"
	if len(fits) > 1 {
		what = "its answers fit " + openList(fits)
	}
	return nil, &lineErr{msg: fmt.Sprintf(`%s: several question sets are open (%s) and the line has no "id"; %s; add "id" naming the set it answers`,
		l.where(), openList(s.sets), what)}
}

// fits reports whether every answer in l names a question of qs.
func (l *inLine) fits(qs []ask.Question) bool {
	for i := range l.entries {
		for _, ref := range l.entries[i].refs() {
			if ref == "" {
				continue
			}
			if _, ok, ambiguous := ask.FindQuestion(qs, ref); !ok && !ambiguous {
				return false
			}
		}
	}
	return true
}

// openList describes sets for a message: "q1" (Database, Features), "q2" (Region).
func openList(sets []*openSet) string {
	parts := make([]string, len(sets))
	for i, set := range sets {
		headers := make([]string, len(set.req.Questions))
		for j, q := range set.req.Questions {
			headers[j] = ask.Display(q.Header)
		}
		parts[i] = fmt.Sprintf("%q (%s)", set.req.ID, strings.Join(headers, ", "))
	}
	return strings.Join(parts, ", ")
}

// buildAnswers answers every question of req from l, or says what is
// wrong; nothing is applied unless the whole line is right.
func buildAnswers(req ask.Request, l *inLine) ([]ask.Answer, *lineErr) {
	fail := func(format string, args ...any) ([]ask.Answer, *lineErr) {
		return nil, &lineErr{id: req.ID, msg: fmt.Sprintf("%s, question set %s: ", l.where(), req.ID) + fmt.Sprintf(format, args...)}
	}
	answers := make([]ask.Answer, len(req.Questions))
	given := make([]bool, len(req.Questions))
	for i := range l.entries {
		e := &l.entries[i]
		qi, msg := findEntryQuestion(req.Questions, e, !l.mapForm)
		if msg != "" {
			return fail("%s", msg)
		}
		q := req.Questions[qi]
		if given[qi] {
			return fail("%s answers question %q a second time; answer each question once", e.path(), ask.Display(q.Header))
		}
		given[qi] = true
		a, msg := entryAnswer(q, e, l.mapForm, l.source)
		if msg != "" {
			return fail("%s", msg)
		}
		answers[qi] = a
	}
	var missing []string
	var add []string
	for i, q := range req.Questions {
		if !given[i] {
			missing = append(missing, fmt.Sprintf("%q (%s)", ask.Display(q.Header), ask.Display(q.Question)))
			add = append(add, entryExample(req.Questions, i, !l.mapForm))
		}
	}
	if len(missing) > 0 {
		return fail("not answered: %s; every question of the set must be answered in the same line: add %s to \"answers\" (or skip a question with %s); a complete line looks like %s",
			strings.Join(missing, ", "), strings.Join(add, " and "), skipExample(req.Questions, firstFalse(given), !l.mapForm), exampleLine(req, !l.mapForm))
	}
	return answers, nil
}

// findEntryQuestion finds the question an entry names. byLabel selects the
// wording of the fix.
func findEntryQuestion(qs []ask.Question, e *inEntry, byLabel bool) (int, string) {
	idx := -1
	for _, ref := range e.refs() {
		if ref == "" {
			continue
		}
		i, ok, ambiguous := ask.FindQuestion(qs, ref)
		switch {
		case ambiguous:
			var texts []string
			for _, q := range qs {
				if ask.FoldKey(q.Header) == ask.FoldKey(ref) {
					texts = append(texts, fmt.Sprintf("%q", ask.Display(q.Question)))
				}
			}
			field := "the key"
			if byLabel {
				field = `"question"`
			}
			return -1, fmt.Sprintf("%s: header %s is shared by the questions %s; use the full question text as %s instead",
				e.path(), ask.Excerpt(ask.Display(ref)), strings.Join(texts, " and "), field)
		case !ok:
			return -1, fmt.Sprintf("%s: no question of this set is called %s; its questions are %s",
				e.path(), ask.Excerpt(ask.Display(ref)), questionList(qs))
		case idx >= 0 && i != idx:
			return -1, fmt.Sprintf(`%s: "header" and "question" name different questions; give just one`, e.path())
		}
		idx = i
	}
	if idx < 0 {
		return -1, fmt.Sprintf("%s names no question; name it by its header or its full text", e.path())
	}
	return idx, ""
}

// entryAnswer turns one entry into an answer through ask.Selection.
func entryAnswer(q ask.Question, e *inEntry, mapForm bool, src ask.Source) (ask.Answer, string) {
	labels, custom := e.labels, e.custom
	if mapForm {
		var msg string
		if labels, custom, msg = mapValue(q, e.value); msg != "" {
			return ask.Answer{}, e.path() + ": " + msg
		}
	} else if e.skipped && (len(labels) > 0 || strings.TrimSpace(custom) != "") {
		return ask.Answer{}, fmt.Sprintf(`%s says "skipped":true but also gives selectedOptions or customInput; send one or the other`, e.path())
	}
	a, err := ask.Selection(q, labels, custom, src)
	if err != nil {
		msg := e.path() + ": " + err.Error()
		for _, l := range labels {
			if q.LabelIndex(l) < 0 && ask.FoldKey(l) != "other" {
				msg += `; for free text, set "customInput"`
				break
			}
		}
		return a, msg
	}
	if a.Skipped && !mapForm && !e.skipped {
		return a, fmt.Sprintf(`%s gives no selectedOptions and no customInput for question %q; choose from %s, give "customInput", or send "skipped":true to skip it`,
			e.path(), ask.Display(q.Header), q.LabelList())
	}
	return a, ""
}

// mapValue reads a value of the map form ({"<question>":"<value>"}). The
// rule never drops text: "" skips; a value that is one label selects it;
// for a multi-select question a comma-separated list whose every part is a
// label selects those labels; anything else is the whole value as free
// text.
func mapValue(q ask.Question, v string) (labels []string, custom, msg string) {
	t := strings.TrimSpace(v)
	switch {
	case t == "":
		return nil, "", ""
	case q.LabelIndex(t) >= 0:
		return []string{t}, "", ""
	case ask.FoldKey(t) == "other":
		return nil, "", fmt.Sprintf(`%s is not an answer; for free text, give the text itself as the value`, ask.Excerpt(t))
	}
	if q.MultiSelect {
		for part := range strings.SplitSeq(t, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			if q.LabelIndex(part) < 0 {
				return nil, t, ""
			}
			labels = append(labels, part)
		}
		if len(labels) > 0 {
			return labels, "", ""
		}
	}
	return nil, t, ""
}

func questionList(qs []ask.Question) string {
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = fmt.Sprintf("%q (%s)", ask.Display(q.Header), ask.Display(q.Question))
	}
	return strings.Join(parts, ", ")
}

func firstFalse(b []bool) int {
	for i, v := range b {
		if !v {
			return i
		}
	}
	return 0
}

// exampleLine is a line that answers every question of req with its first
// option, for messages a person or program can copy.
func exampleLine(req ask.Request, byLabel bool) string {
	parts := make([]string, len(req.Questions))
	for i := range req.Questions {
		parts[i] = entryExample(req.Questions, i, byLabel)
	}
	if byLabel {
		return fmt.Sprintf(`{"id":%s,"answers":[%s]}`, jsonString(req.ID), strings.Join(parts, ","))
	}
	return fmt.Sprintf(`{"id":%s,"answers":{%s}}`, jsonString(req.ID), strings.Join(parts, ","))
}

// entryExample answers question i with its first option.
func entryExample(qs []ask.Question, i int, byLabel bool) string {
	label := ""
	if len(qs[i].Options) > 0 {
		label = ask.BareLabel(qs[i].Options[0].Label)
	}
	field, name := questionName(qs, i)
	if byLabel {
		return fmt.Sprintf(`{%q:%s,"selectedOptions":[%s]}`, field, jsonString(name), jsonString(label))
	}
	return jsonString(name) + ":" + jsonString(label)
}

func skipExample(qs []ask.Question, i int, byLabel bool) string {
	field, name := questionName(qs, i)
	if byLabel {
		return fmt.Sprintf(`{%q:%s,"skipped":true}`, field, jsonString(name))
	}
	return jsonString(name) + `:""`
}

// questionName is how a line should name question i: by header, or by its
// text when another question has the same header.
func questionName(qs []ask.Question, i int) (field, name string) {
	if _, _, ambiguous := ask.FindQuestion(qs, qs[i].Header); ambiguous {
		return "question", qs[i].Question
	}
	return "header", qs[i].Header
}

// jsonString is s as a JSON string, for an example line in a message.
func jsonString(s string) string {
	return strings.TrimSuffix(string(wire.Encode(s)), "\n")
}
