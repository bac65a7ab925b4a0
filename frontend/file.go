package frontend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-yaml"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/textdist"
)

// ErrBadAnswers marks an answers file that is broken rather than
// incomplete: malformed YAML, an unknown key, a value of the wrong type, a
// label that matches no option, two labels for a single-select question, a
// key that matches two questions. The CLI maps it to the "invalid input" exit
// code. A question the file simply does not answer is not ErrBadAnswers; it
// is handled by the unanswered policy (ask.ErrNoAnswer, ask.ErrDeferred or a
// recommended answer).
var ErrBadAnswers = errors.New("invalid answers file")

// FileProblem is one thing wrong in an answers file, at the line and column
// (both from 1) where it was written.
type FileProblem struct {
	Path    string
	Line    int
	Column  int
	Message string
}

// String renders the problem as path:line:col: message, the form editors
// and CI logs link to the place in the file.
func (p FileProblem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", ask.Display(p.Path), p.Line, p.Column, p.Message)
}

// FileError lists every problem found in an answers file at once, so a
// person can fix them all in one edit. It wraps ErrBadAnswers.
type FileError struct {
	Problems []FileProblem
}

// Error renders one problem per line.
func (e *FileError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Unwrap makes errors.Is(err, ErrBadAnswers) true.
func (e *FileError) Unwrap() error { return ErrBadAnswers }

// File answers from a YAML answers file, written by hand for CI:
//
//	unanswered: error   # optional: error | auto | suspend
//	answers:
//	  Database: PostgreSQL                          # a label
//	  Which features should we enable?: [TypeScript, Tailwind CSS]
//	  Package Mgr: {other: bun}                     # free text ("Other")
//	  Features: {select: [TypeScript], other: "also Storybook"}
//	  Region: {skip: true}                          # no answer, on purpose
//
// Keys name a question by its header or its full text, case-insensitively
// (ask.FindQuestion). A plain string must be a label; free text is written
// {other: ...} so a misspelt label is an error rather than silent free text.
// The file is read once and reused for every question set of a run; it is
// not changed by Ask, so the same key answers the same question each time,
// and Ask is safe to call from several goroutines.
type File struct {
	path     string
	policy   ask.Policy // the file's unanswered: key; "" when absent
	override ask.Policy // SetUnanswered; "" when not set
	entries  []entry
	// approvals are the file's approval rules (file_approvals.go).
	approvals FileApprovals
}

var _ ask.Frontend = (*File)(nil)

// LoadFile reads and checks an answers file. Errors name the file and line
// (path:line:col: message) and the fix; a file that is read but broken gives
// a *FileError (ErrBadAnswers), and so does one past the limits
// (MaxFileBytes, MaxFileDepth, MaxFileItems, MaxFileScalarBytes), which are
// checked before the YAML is parsed so that no file can make loading slow.
// A pipe (/dev/stdin, <(…), a FIFO) is read with the same bound and a
// deadline (fileread.PipeTimeout). A path that is not a readable regular
// file or pipe is an error that is not ErrBadAnswers; a device is never
// opened.
func LoadFile(path string) (*File, error) {
	return LoadFileContext(context.Background(), path)
}

// LoadFileContext is LoadFile, which gives up a pipe's read when ctx ends
// (a signal), with ctx's error (ask.CtxErr).
func LoadFileContext(ctx context.Context, path string) (*File, error) {
	data, size, err := readAnswers(ctx, path)
	if err != nil {
		return nil, err
	}
	return parseFile(path, data, size)
}

// ParseFile is LoadFile on bytes already read; name is used in messages and
// as Answer.Via.
func ParseFile(name string, data []byte) (*File, error) {
	return parseFile(name, data, int64(len(data)))
}

// Unanswered is the policy for a question the file does not answer: the
// file's own "unanswered:" key, which SetUnanswered (from a flag) overrides.
// Default ask.PolicyError.
func (f *File) Unanswered() ask.Policy {
	switch {
	case f.override != "":
		return f.override
	case f.policy != "":
		return f.policy
	}
	return ask.PolicyError
}

// SetUnanswered overrides the file's "unanswered:" key. Call it before the
// first Ask; an empty policy restores the file's own. A value other than
// auto or suspend behaves as error.
func (f *File) SetUnanswered(p ask.Policy) { f.override = p }

// Path is the file's name as given to LoadFile or ParseFile.
func (f *File) Path() string { return f.path }

// Ask answers each question from the file. A broken entry for an asked
// question (unknown label, several labels for a single-select question, a
// key matching two questions) is a *FileError. Questions the file does not
// answer follow Unanswered: error gives an error wrapping ask.ErrNoAnswer
// that shows the YAML to add; auto answers just those with Recommended;
// suspend gives the same message wrapping ask.ErrDeferred, carrying the
// answers the file does give (ask.PartialError).
func (f *File) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if req.Kind == ask.KindApproval {
		// Approvals come from the file's rules, applied before asking;
		// one they left open is never approved by an answer the file
		// happens to give a question of the same header.
		if f.Unanswered() == ask.PolicySuspend {
			return nil, fmt.Errorf("%w: the answers file %s has no approval rule for this call (unanswered: suspend)", ask.ErrDeferred, f.path)
		}
		return f.approvalAnswers(req), nil
	}
	matched, probs := f.match(req.Questions)
	answers := make([]ask.Answer, len(req.Questions))
	var missing []int
	now := time.Now()
	for i, q := range req.Questions {
		e := matched[i]
		if e == nil {
			missing = append(missing, i)
			continue
		}
		a, p := f.answer(q, e)
		probs = append(probs, p...)
		a.Via, a.AnsweredAt = f.path, now
		answers[i] = a
	}
	if len(probs) > 0 {
		return nil, &FileError{Problems: probs}
	}
	if len(missing) == 0 {
		return answers, nil
	}
	switch f.Unanswered() {
	case ask.PolicyAuto:
		reason := "the answers file " + f.path + " has no entry for this question"
		for _, i := range missing {
			answers[i] = ask.Recommended(req.Questions[i], reason)
		}
		return answers, nil
	case ask.PolicySuspend:
		return nil, keepGiven(answers, missing, &missingError{msg: f.missingMessage(req.Questions, missing, matched), sentinel: ask.ErrDeferred})
	}
	return nil, &missingError{msg: f.missingMessage(req.Questions, missing, matched), sentinel: ask.ErrNoAnswer}
}

// match assigns the file's entries to the asked questions. Entries that
// match none are kept for other question sets of the run.
func (f *File) match(qs []ask.Question) ([]*entry, []FileProblem) {
	matched := make([]*entry, len(qs))
	var probs []FileProblem
	for k := range f.entries {
		e := &f.entries[k]
		i, ok, ambiguous := ask.FindQuestion(qs, e.key)
		switch {
		case ambiguous:
			same := withHeader(qs, e.key)
			texts := make([]string, len(same))
			for j, q := range same {
				texts[j] = fmt.Sprintf("%q", ask.Display(q.Question))
			}
			probs = append(probs, f.problem(e.keyPos, "key %q is the header of %d questions asked together (%s); key each by its full question text instead, e.g. %s: ...",
				ask.Display(e.key), len(same), strings.Join(texts, ", "), yamlScalar(ask.Display(same[0].Question), false)))
		case !ok:
		case matched[i] != nil:
			prev := matched[i]
			probs = append(probs, f.problem(e.keyPos, "keys %q (line %d) and %q (line %d) both answer question %q (%s); keep one",
				ask.Display(prev.key), prev.keyPos.line, ask.Display(e.key), e.keyPos.line, ask.Display(qs[i].Header), ask.Display(qs[i].Question)))
		default:
			matched[i] = e
		}
	}
	return matched, probs
}

// answer builds the answer an entry gives to q, or the problems that stop it.
func (f *File) answer(q ask.Question, e *entry) (ask.Answer, []FileProblem) {
	var probs []FileProblem
	if len(q.Options) == 0 && len(e.labels) == 1 && e.other == "" {
		// A question with no options (a form's free field) takes text:
		// a plain string is that text, not a label.
		a, _ := ask.Selection(q, nil, e.labels[0].text, ask.SourceFile)
		return a, nil
	}
	texts := make([]string, len(e.labels))
	for i, l := range e.labels {
		texts[i] = l.text
		if q.LabelIndex(l.text) < 0 {
			probs = append(probs, f.problem(l.pos, "%s", unknownLabel(q, e.key, l.text)))
		}
	}
	if len(probs) > 0 {
		return ask.Answer{}, probs
	}
	a, err := ask.Selection(q, texts, e.other, ask.SourceFile)
	if err != nil {
		return a, []FileProblem{f.problem(e.valPos, "%v; choose from: %s", err, ask.Display(q.LabelList()))}
	}
	return a, nil
}

func (f *File) problem(pos position, format string, args ...any) FileProblem {
	return FileProblem{Path: f.path, Line: pos.line, Column: pos.col, Message: fmt.Sprintf(format, args...)}
}

// unknownLabel explains a label that matches no option and shows the
// free-text form, since that is what the writer may have meant.
func unknownLabel(q ask.Question, key, label string) string {
	other := `"..."`
	if ask.FoldKey(label) != strings.ToLower(ask.OtherLabel) {
		other = strconv.Quote(ask.Display(label)) // always valid as a YAML double-quoted string
	}
	return fmt.Sprintf("%q is not a label of question %q; choose from: %s; for free text write %s: {other: %s}",
		ask.Display(label), ask.Display(q.Header), ask.Display(q.LabelList()), yamlScalar(ask.Display(key), false), other)
}

// withHeader returns the asked questions whose header is key.
func withHeader(qs []ask.Question, key string) []ask.Question {
	var out []ask.Question
	for _, q := range qs {
		if ask.FoldKey(q.Header) == ask.FoldKey(key) {
			out = append(out, q)
		}
	}
	return out
}

// missingError is returned for questions the file does not answer; it wraps
// ask.ErrNoAnswer (policy error) or ask.ErrDeferred (policy suspend).
type missingError struct {
	msg      string
	sentinel error
}

func (e *missingError) Error() string { return e.msg }
func (e *missingError) Unwrap() error { return e.sentinel }

// missingMessage names every question the file does not answer and shows
// the YAML to add, valid and ready to paste under answers:, with the
// recommended option filled in and the others listed in a comment.
func (f *File) missingMessage(qs []ask.Question, missing []int, matched []*entry) string {
	var b strings.Builder
	names := make([]string, len(missing))
	for j, i := range missing {
		names[j] = fmt.Sprintf("%q (%s)", ask.Display(qs[i].Header), ask.Display(qs[i].Question))
	}
	if len(missing) == 1 {
		fmt.Fprintf(&b, "answers file %s has no answer for question %s; add under answers:\n", ask.Display(f.path), names[0])
	} else {
		fmt.Fprintf(&b, "answers file %s has no answer for %d questions: %s; add under answers:\n",
			ask.Display(f.path), len(missing), strings.Join(names, ", "))
	}
	lines := make([]string, len(missing))
	comments := make([]string, len(missing))
	width := 0
	for j, i := range missing {
		lines[j], comments[j] = suggestion(qs, i)
		width = max(width, utf8.RuneCountInString(lines[j]))
	}
	for j := range lines {
		pad := strings.Repeat(" ", width-utf8.RuneCountInString(lines[j]))
		fmt.Fprintf(&b, "  %s%s  # %s\n", lines[j], pad, comments[j])
	}
	for _, i := range missing {
		if e := nearMiss(f.entries, matched, qs[i]); e != nil {
			fmt.Fprintf(&b, "(line %d has the key %q, which matches no question asked here; did you mean %q?)\n",
				e.keyPos.line, ask.Display(e.key), ask.Display(qs[i].Header))
		}
	}
	b.WriteString(`or set "unanswered: auto" in the file to answer such questions with the recommended option`)
	return b.String()
}

// suggestion is the answers-file line for question i, keyed by its header
// when that names it alone among qs (by its full text otherwise), with the
// recommended answer as the value, and a comment listing the choices.
func suggestion(qs []ask.Question, i int) (line, comment string) {
	q := qs[i]
	key := ask.Display(q.Header)
	if j, ok, _ := ask.FindQuestion(qs, key); strings.TrimSpace(key) == "" || !ok || j != i {
		key = ask.Display(q.Question)
	}
	rec := ask.Recommended(q, "")
	var value string
	switch {
	case len(rec.Selected) == 0:
		value = `{other: "..."}`
	case q.MultiSelect:
		items := make([]string, len(rec.Selected))
		for k, l := range rec.Selected {
			items[k] = yamlScalar(ask.Display(l), true)
		}
		value = "[" + strings.Join(items, ", ") + "]"
	default:
		value = yamlScalar(ask.Display(rec.Selected[0]), false)
	}
	choices := "one of: "
	if q.MultiSelect {
		choices = "a list of any of: "
	}
	return yamlScalar(key, false) + ": " + value, choices + ask.Display(q.LabelList()) + ` — or {other: "..."}`
}

// nearMiss returns an entry that answers none of the asked questions but
// whose key is a small edit away from q's header, likely a typo.
func nearMiss(entries []entry, matched []*entry, q ask.Question) *entry {
	want := ask.FoldKey(q.Header)
	for k := range entries {
		e := &entries[k]
		if slices.Contains(matched, e) || want == "" {
			continue
		}
		if d := textdist.Distance(ask.FoldKey(e.key), want); d > 0 && d <= 2 {
			return e
		}
	}
	return nil
}

// yamlScalar writes s as a YAML scalar that reads back as s, as a mapping
// key or value (in a flow list when flow is set). goccy quotes what YAML
// would misread (numbers, booleans, "a: b", "#"); quoting is added for what
// it leaves plain but a key or a flow list would misread: a leading "?",
// "-" or ":" and flow punctuation. strconv.Quote's escapes are all valid in
// a YAML double-quoted string.
func yamlScalar(s string, flow bool) string {
	out, err := yaml.Marshal(s)
	text := strings.TrimSuffix(string(out), "\n")
	if err != nil || strings.Contains(text, "\n") {
		return strconv.Quote(s)
	}
	if text != "" && (text[0] == '"' || text[0] == '\'') {
		return text
	}
	if strings.HasPrefix(text, "?") || strings.HasPrefix(text, "-") || strings.HasPrefix(text, ":") ||
		(flow && strings.ContainsAny(text, ",[]{}")) {
		return strconv.Quote(s)
	}
	return text
}

// SuggestAnswers returns an answers file that answers qs, filled in with
// the recommended options and a comment listing each question's choices,
// for a person to edit: what a waiting run prints for its questions.
func SuggestAnswers(qs []ask.Question) string {
	var b strings.Builder
	b.WriteString("answers:\n")
	for i := range qs {
		line, comment := suggestion(qs, i)
		fmt.Fprintf(&b, "  %s  # %s\n", line, comment)
	}
	return b.String()
}
