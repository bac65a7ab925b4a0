package ask

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Problem is one violation of the schema: where it is and what to do.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// ValidationError lists the problems found in one input, so a model can fix
// them all in one retry. At most MaxListedProblems are listed; Omitted
// counts the rest, so that input built to fail in a million ways gets an
// answer of a few kilobytes.
type ValidationError struct {
	Problems []Problem
	// Omitted is the number of problems found but not listed.
	Omitted int
}

// MaxListedProblems is the most problems a ValidationError lists.
const MaxListedProblems = 20

// maxFoundProblems bounds the problems one pass of decoding or validation
// keeps while it runs; the rest are only counted.
const maxFoundProblems = 200

// invalid makes the error for probs, dropped more having been counted but
// not kept.
func invalid(probs []Problem, dropped int) *ValidationError {
	e := &ValidationError{Problems: probs, Omitted: dropped}
	if len(probs) > MaxListedProblems {
		e.Problems, e.Omitted = probs[:MaxListedProblems:MaxListedProblems], dropped+len(probs)-MaxListedProblems
	}
	return e
}

// More words the problems not listed, or is "" when all are.
func (e *ValidationError) More() string {
	switch e.Omitted {
	case 0:
		return ""
	case 1:
		return "and 1 more problem, not listed; fix these and it will be reported"
	}
	return fmt.Sprintf("and %d more problems, not listed; fix these and they will be reported", e.Omitted)
}

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems), len(e.Problems)+1)
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	if more := e.More(); more != "" {
		lines = append(lines, more)
	}
	return "invalid " + ToolName + " input: " + strings.Join(lines, "; ")
}

// ToolResult words the problems for a model, as the error tool result.
func (e *ValidationError) ToolResult() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Invalid %s input; nothing was asked. Fix these and call %s again:\n", ToolName, ToolName)
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	if more := e.More(); more != "" {
		fmt.Fprintf(&b, "- %s\n", more)
	}
	return strings.TrimRight(b.String(), "\n")
}

// Validate checks the limits of the schema and reports every violation.
func (in Input) Validate() error {
	if probs, dropped := in.problems(nil); len(probs) > 0 {
		return invalid(probs, dropped)
	}
	return nil
}

// problems checks in. decoded is the decoding pass that made in, or nil:
// what it reported is not reported again.
func (in Input) problems(decoded *decoder) ([]Problem, int) {
	d := decoder{decoded: decoded}
	n := len(in.Questions)
	switch {
	case n < MinQuestions:
		d.add("questions", "no questions given; ask 1 to %d", MaxQuestions)
	case n > MaxQuestions:
		d.add("questions", "%d questions given, at most %d allowed; drop some or ask them in a second call", n, MaxQuestions)
	}
	seen := map[string]int{}
	for i, q := range in.Questions {
		if decoded != nil && decoded.droppedIn[i] {
			continue // its problems were counted, not kept: nothing to check against
		}
		path := fmt.Sprintf("questions[%d]", i)
		if q.Question != "" {
			k := FoldKey(q.Question)
			if j, dup := seen[k]; dup {
				d.add(path+".question", "repeats questions[%d].question; each question text must be unique", j)
			} else {
				seen[k] = i
			}
		}
		d.checkQuestion(path, q)
	}
	return d.probs, d.dropped
}

func (d *decoder) checkQuestion(path string, q Question) {
	if strings.TrimSpace(Display(q.Question)) == "" {
		d.add(path+".question", "is required: give the complete question, ending with a question mark")
	}
	if strings.TrimSpace(Display(q.Header)) == "" {
		d.add(path+".header", "is required: give a short label of at most %d characters, such as \"Database\"", MaxHeaderChars)
	}
	d.tooLong(path+".question", q.Question, MaxQuestionChars, "shorten it to the question and what the person needs to answer it")
	if utf8.RuneCountInString(q.Header) > MaxHeaderChars {
		d.tooLong(path+".header", q.Header, MaxHeaderChars, fmt.Sprintf("shorten it to a chip-sized label such as %q", shortHeader(q.Header)))
	}
	n := len(q.Options)
	switch {
	case n == 0:
		d.add(path+".options", "no options given; give %d to %d, each {\"label\": \"...\", \"description\": \"...\"}", MinOptions, MaxOptions)
	case n < MinOptions:
		d.add(path+".options", "%d option given, at least %d required; add another choice (\"Other\" is added automatically)", n, MinOptions)
	case n > MaxOptions:
		d.add(path+".options", "%d options given, at most %d allowed; merge or drop some", n, MaxOptions)
	}
	seen := map[string]int{}
	for j, o := range q.Options {
		p := fmt.Sprintf("%s.options[%d].label", path, j)
		d.tooLong(p, o.Label, MaxLabelChars, "shorten it to 1 to 5 words and put the detail in the description")
		d.tooLong(fmt.Sprintf("%s.options[%d].description", path, j), o.Description, MaxDescriptionChars,
			"shorten it to a sentence or two on what the option means or trades off")
		k := FoldKey(o.Label)
		switch {
		case k == "":
			d.add(p, "is empty; give a short label of 1 to 5 words")
		case k == strings.ToLower(OtherLabel) && hasLookalike(Display(o.Label)):
			d.add(p, "%s looks like \"Other\" (letters of another script drawn like Latin ones), which is added automatically for free text; remove this option", Excerpt(o.Label))
		case k == strings.ToLower(OtherLabel):
			d.add(p, "%s is added automatically for free text; remove this option", Excerpt(o.Label))
		default:
			if first, dup := seen[k]; dup {
				d.add(p, "%s repeats options[%d]; labels must be unique within a question", Excerpt(o.Label), first)
			} else {
				seen[k] = j
			}
		}
	}
}

// tooLong reports text at path longer than limit characters: quoted in
// part (Excerpt), with its length and the limit, then what to do.
func (d *decoder) tooLong(path, text string, limit int, fix string) {
	n := utf8.RuneCountInString(text)
	if n <= limit {
		return
	}
	sized := Excerpt(text) // names the length when it cuts
	if n <= ExcerptChars {
		sized += fmt.Sprintf(" is %d characters", n)
	}
	d.add(path, "%s, at most %d allowed; %s", sized, limit, fix)
}

// shortHeader suggests a header within the limit.
func shortHeader(h string) string {
	words := strings.Fields(h)
	out := ""
	for _, w := range words {
		next := strings.TrimSpace(out + " " + w)
		if utf8.RuneCountInString(next) > MaxHeaderChars {
			break
		}
		out = next
	}
	if out == "" {
		out = string([]rune(h)[:MaxHeaderChars])
	}
	return out
}
