package elicit

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// The labels of the options this package adds.
const (
	LabelYes     = "Yes"
	LabelNo      = "No"
	LabelSkip    = "Skip"
	LabelAccept  = "Accept"
	LabelDecline = "Decline"
	// ConfirmHeader is the header of a form without fields.
	ConfirmHeader = "Confirm"
)

// MaxAsks bounds how often one form is asked: a person who keeps giving
// answers the form cannot take is asked again twice, then it is declined.
const MaxAsks = 3

// optKind says what choosing an option means.
type optKind int

const (
	optChoice  optKind = iota // Field.Choices[choice]
	optSkip                   // leave the field empty
	optDefault                // the schema's default of a free field
	optYes
	optNo
	optAccept
	optDecline
)

type option struct {
	label       string
	description string
	kind        optKind
	choice      int
	recommended bool
}

// Questions builds the question set that asks the whole form: one
// question per field, in order, or one confirmation when the form has no
// fields. id is the set's ID; agent names a sub-agent that asks ("" for
// the main agent).
func (f Form) Questions(id, agent string) ask.Request {
	req := ask.Request{ID: id, Kind: ask.KindElicitation, Agent: agent}
	intro := f.intro()
	if len(f.Fields) == 0 {
		text := strings.TrimSpace(intro + "\n\nAccept this request?")
		req.Questions = []ask.Question{{Question: text, Header: ConfirmHeader, Options: []ask.Option{
			{Label: LabelAccept, Description: "Reply to the request: accept it"},
			{Label: LabelDecline, Description: "Decline the request"},
		}}}
		return req
	}
	seen := map[string]bool{}
	for i, fd := range f.Fields {
		text := fd.questionText()
		if i == 0 && intro != "" {
			text = intro + "\n\n" + text
		}
		if k := ask.FoldKey(text); seen[k] {
			text += fmt.Sprintf(" (field %q)", ask.Display(fd.Name))
		}
		seen[ask.FoldKey(text)] = true
		q := ask.Question{Question: text, Header: fd.Header, MultiSelect: fd.Kind == KindMulti, Options: []ask.Option{}}
		for _, o := range fd.options() {
			label := o.label
			if o.recommended {
				label += " (Recommended)"
			}
			q.Options = append(q.Options, ask.Option{Label: label, Description: o.description})
		}
		req.Questions = append(req.Questions, q)
	}
	return req
}

// intro is who asks and what for, shown before the first question.
func (f Form) intro() string {
	switch {
	case f.Asker != "" && f.Message != "":
		return f.Asker + " asks: " + f.Message
	case f.Asker != "":
		return f.Asker + " asks you to fill in a form."
	}
	return f.Message
}

// questionText is the field's question: its title, description and what
// an answer must be.
func (fd Field) questionText() string {
	var b strings.Builder
	if fd.problem != "" {
		fmt.Fprintf(&b, "Asked again: %s.\n", fd.problem)
	}
	b.WriteString(fd.label())
	if fd.Description != "" && fd.Description != fd.Title {
		b.WriteString("\n" + fd.Description)
	}
	b.WriteString("\n" + fd.hint())
	return b.String()
}

// label is how the field is named to a person: its title, else its name
// made readable.
func (fd Field) label() string {
	if fd.Title != "" {
		return fd.Title
	}
	return humanize(ask.Display(fd.Name))
}

// hint says, in a line, what kind of answer the field takes.
func (fd Field) hint() string {
	var parts []string
	switch fd.Kind {
	case KindText:
		parts = append(parts, "Answer with text (Other)")
		if d := formatName(fd.Format); d != "" {
			parts = append(parts, d)
		}
		if r := rangeText(intPtrFloat(fd.MinLength), intPtrFloat(fd.MaxLength), "characters"); r != "" {
			parts = append(parts, r)
		}
	case KindNumber, KindInteger:
		what := "a number"
		if fd.Kind == KindInteger {
			what = "a whole number"
		}
		parts = append(parts, "Answer with "+what+" (Other)")
		if r := rangeText(fd.Minimum, fd.Maximum, ""); r != "" {
			parts = append(parts, r)
		}
	case KindMulti:
		r := rangeText(intPtrFloat(fd.MinItems), intPtrFloat(fd.MaxItems), "choices")
		if r == "" {
			r = "any number of choices"
		}
		parts = append(parts, "Choose "+r)
	}
	if fd.Required {
		parts = append(parts, "required")
	} else {
		parts = append(parts, "optional")
	}
	s := strings.Join(parts, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// formatName words a string format for a person ("" for formats not
// checked).
func formatName(format string) string {
	switch format {
	case "email":
		return "an email address"
	case "uri":
		return "a web address (URI)"
	case "date":
		return "a date (YYYY-MM-DD)"
	case "date-time":
		return "a date and time (such as 2025-06-30T14:00:00Z)"
	}
	return ""
}

// rangeText words a minimum and maximum: "1 to 3 choices", "at least 2".
func rangeText(lo, hi *float64, unit string) string {
	n := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	var s string
	switch {
	case lo != nil && hi != nil:
		s = "from " + n(*lo) + " to " + n(*hi)
		if unit != "" {
			s = n(*lo) + " to " + n(*hi)
		}
	case lo != nil:
		s = "at least " + n(*lo)
	case hi != nil:
		s = "at most " + n(*hi)
	default:
		return ""
	}
	if unit != "" {
		s += " " + unit
	}
	return s
}

func intPtrFloat(p *int) *float64 {
	if p == nil {
		return nil
	}
	f := float64(*p)
	return &f
}

// options lists the field's options, labels unique and bare. It is a
// function of the field alone, so the questions and the mapping back
// always agree.
func (fd Field) options() []option {
	var opts []option
	switch fd.Kind {
	case KindChoice, KindMulti:
		defaults := map[string]bool{}
		switch d := fd.Default.(type) {
		case string:
			defaults[d] = true
		case []string:
			for _, v := range d {
				defaults[v] = true
			}
		}
		for i, c := range fd.Choices {
			label := ask.BareLabel(cut(ask.Display(c.Title), maxTextChars))
			opts = append(opts, option{label: label, kind: optChoice, choice: i, recommended: defaults[c.Value]})
		}
	case KindBoolean:
		d, has := fd.Default.(bool)
		opts = append(opts,
			option{label: LabelYes, kind: optYes, recommended: has && d},
			option{label: LabelNo, kind: optNo, recommended: has && !d})
	case KindText, KindNumber, KindInteger:
		if fd.Default != nil {
			opts = append(opts, option{label: cut(ask.Display(formatValue(fd.Default)), maxTextChars),
				description: "The form's default", kind: optDefault, recommended: true})
		}
	}
	// Skip is for an optional field without a default: a field left out
	// takes its default (the MCP SDK fills it in), so Skip there would
	// promise an empty field and deliver the default.
	if !fd.Required && fd.Kind != KindMulti && fd.Default == nil {
		opts = append(opts, option{label: LabelSkip, description: "Leave this field empty", kind: optSkip})
	}
	uniqueLabels(opts)
	return opts
}

// uniqueLabels makes the labels distinct as a person or a file names
// them (case-insensitively), non-empty, and never "Other", which every
// frontend adds itself.
func uniqueLabels(opts []option) {
	seen := map[string]bool{ask.FoldKey(ask.OtherLabel): true}
	for i := range opts {
		l := strings.TrimSpace(opts[i].label)
		if l == "" {
			l = "(empty)"
		}
		if seen[ask.FoldKey(l)] && opts[i].kind == optSkip {
			l = "Skip field"
		}
		base := l
		for n := 2; seen[ask.FoldKey(l)]; n++ {
			l = fmt.Sprintf("%s (%d)", base, n)
		}
		seen[ask.FoldKey(l)] = true
		opts[i].label = l
	}
}

// formatValue shows a default as a person would type it.
func formatValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// assignHeaders gives each field a header of at most ask.MaxHeaderChars
// characters, unique (case-insensitively) in the form: its title when it
// fits, else the title's most telling words (see shorten), numbered when
// two fields still share one.
func assignHeaders(fields []Field) {
	freq := map[string]int{}
	for _, fd := range fields {
		seen := map[string]bool{}
		for _, w := range strings.Fields(fd.label()) {
			if k := wordKey(w); !seen[k] {
				seen[k] = true
				freq[k]++
			}
		}
	}
	taken := map[string]bool{}
	for i := range fields {
		base := shorten(fields[i].label(), freq)
		h := base
		for n := 2; taken[strings.ToLower(h)]; n++ {
			suffix := " " + strconv.Itoa(n)
			h = strings.TrimSpace(cutRunes(base, ask.MaxHeaderChars-len(suffix))) + suffix
		}
		taken[strings.ToLower(h)] = true
		fields[i].Header = h
	}
}

// stopWord reports whether a word says least in a header.
func stopWord(w string) bool {
	switch w {
	case "a", "an", "and", "for", "in", "of", "or", "the", "to", "with", "your":
		return true
	}
	return false
}

func wordKey(w string) string { return strings.ToLower(strings.Trim(w, ".,:;?!()")) }

// shorten fits a title to a header: words are dropped, stop words first,
// then those most of the form's titles share (freq counts the titles a
// word appears in), later ones first among equals, until the rest fits.
// So "Favourite hero" beside "Favourite fish" becomes "Hero", and "String
// with email format" beside other "String with …" titles "Email format".
// A single word too long is cut.
func shorten(title string, freq map[string]int) string {
	words := strings.Fields(title)
	fits := func() bool { return utf8.RuneCountInString(strings.Join(words, " ")) <= ask.MaxHeaderChars }
	dropped := false
	for !fits() && len(words) > 1 {
		worst, score := 0, -1
		for i, w := range words {
			s := freq[wordKey(w)]
			if stopWord(wordKey(w)) {
				s = 1 << 30
			}
			if s >= score {
				worst, score = i, s
			}
		}
		words = append(words[:worst], words[worst+1:]...)
		dropped = true
	}
	if len(words) == 0 {
		return "Field"
	}
	h := strings.Trim(strings.Join(words, " "), ".,:;?! ")
	if !fits() {
		h = cutRunes(words[0], ask.MaxHeaderChars)
	}
	if dropped {
		r, size := utf8.DecodeRuneInString(h)
		h = string(unicode.ToUpper(r)) + h[size:]
	}
	if h == "" {
		return "Field"
	}
	return h
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// humanize turns a property name into words: "firstName" and
// "first_name" become "First name".
func humanize(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.':
			b.WriteRune(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteRune(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	s := strings.Join(strings.Fields(b.String()), " ")
	if s == "" {
		return "Field"
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
