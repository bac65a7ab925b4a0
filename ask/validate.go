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

// ValidationError lists every problem found in one input, so a model can fix
// them all in one retry.
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
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
	return strings.TrimRight(b.String(), "\n")
}

// Validate checks the limits of the schema and reports every violation.
func (in Input) Validate() error {
	if probs := in.problems(); len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

func (in Input) problems() []Problem {
	var d decoder
	n := len(in.Questions)
	switch {
	case n < MinQuestions:
		d.add("questions", "no questions given; ask 1 to %d", MaxQuestions)
	case n > MaxQuestions:
		d.add("questions", "%d questions given, at most %d allowed; drop some or ask them in a second call", n, MaxQuestions)
	}
	seen := map[string]int{}
	for i, q := range in.Questions {
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
	return d.probs
}

func (d *decoder) checkQuestion(path string, q Question) {
	if strings.TrimSpace(Display(q.Question)) == "" {
		d.add(path+".question", "is required: give the complete question, ending with a question mark")
	}
	if strings.TrimSpace(Display(q.Header)) == "" {
		d.add(path+".header", "is required: give a short label of at most %d characters, such as \"Database\"", MaxHeaderChars)
	}
	if h := utf8.RuneCountInString(q.Header); h > MaxHeaderChars {
		d.add(path+".header", "%q is %d characters, at most %d allowed; shorten it to a chip-sized label such as %q", q.Header, h, MaxHeaderChars, shortHeader(q.Header))
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
		k := FoldKey(o.Label)
		switch {
		case k == "":
			d.add(p, "is empty; give a short label of 1 to 5 words")
		case k == strings.ToLower(OtherLabel):
			d.add(p, "%q is added automatically for free text; remove this option", o.Label)
		default:
			if first, dup := seen[k]; dup {
				d.add(p, "%q repeats options[%d]; labels must be unique within a question", o.Label, first)
			} else {
				seen[k] = j
			}
		}
	}
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
