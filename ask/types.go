package ask

import "strings"

// Limits of the AskUserQuestion schema. They match Claude Code's tool so a
// model trained on it needs no new instructions.
const (
	MinQuestions   = 1
	MaxQuestions   = 4
	MinOptions     = 2
	MaxOptions     = 4
	MaxHeaderChars = 12
)

// Caps on the text of a question and of its options, in characters. Claude
// Code sets none, but a person reads every character of it: a question is
// at most a screenful (50 lines of 80 columns; the prompt can show a long
// one whole with Tab), a label a few words with room for a long name, and
// a description a short paragraph. Text past them is an error, so a 10 MB
// question never reaches a terminal, a page or a journal.
const (
	MaxQuestionChars    = 4000
	MaxLabelChars       = 200
	MaxDescriptionChars = 1000
)

// ToolName is the name the tool is offered under.
const ToolName = "AskUserQuestion"

// OtherLabel is the option every question gets automatically for free text.
const OtherLabel = "Other"

// recommendedSuffix marks the option a model suggests.
const recommendedSuffix = "(Recommended)"

// Input is the tool input: one to four questions asked together.
type Input struct {
	Questions []Question `json:"questions"`
}

// Question is one question with its options.
type Question struct {
	Question    string   `json:"question"`
	Header      string   `json:"header"`
	Options     []Option `json:"options"`
	MultiSelect bool     `json:"multiSelect"`
}

// Option is one choice. Description may be empty when a model sent the
// option as a plain string.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description"`
}

// Kinds of question set (Request.Kind), for the sets that are not a
// model's AskUserQuestion.
const (
	// KindApproval asks whether a tool call may run.
	KindApproval = "approval"
	// KindElicitation is a form a tool's server asked to have filled in.
	KindElicitation = "elicitation"
)

// Request is one question set to put to a person, with an ID that is stable
// for its lifetime: the tool_use id in a run, a generated one for askuser ask.
type Request struct {
	ID        string     `json:"id"`
	Questions []Question `json:"questions"`
	// Kind says what the set is for when it is not a model's
	// AskUserQuestion ("approval", "elicitation"; see package wire), so a
	// frontend can say so.
	Kind string `json:"kind,omitempty"`
	// Agent names the sub-agent that asks; "" is the main agent.
	Agent string `json:"agent,omitempty"`
	// Tool names the tool the set is about when it is not a model's
	// AskUserQuestion: for an approval, the tool waiting to run
	// ("mcp__fs__write_file"), which its question says only in words. It
	// is model-written: shown only through Display.
	Tool string `json:"tool,omitempty"`
	// Detail is longer text a person may ask to see before answering,
	// such as an approval's whole tool input when the question shows a
	// summary. It is model- or tool-written: shown only through
	// DisplayBlock. A frontend that cannot show it asks without it.
	Detail string `json:"detail,omitempty"`
}

// IsRecommended reports whether the label ends with "(Recommended)",
// ignoring case and surrounding space.
func IsRecommended(label string) bool {
	_, ok := splitRecommended(label)
	return ok
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// BareLabel returns the label without a trailing "(Recommended)" and
// without surrounding space. Results always use bare labels.
func BareLabel(label string) string {
	bare, _ := splitRecommended(label)
	return bare
}

// splitRecommended returns the label without its "(Recommended)" suffix
// and surrounding space, and whether it had one. What a person sees
// decides: "(Recommended\u200b)", with an invisible character, and
// "(Rеcommended)", with a Cyrillic е, read as recommended, so they are;
// the label is then returned as Display leaves it.
func splitRecommended(label string) (bare string, ok bool) {
	l := strings.TrimSpace(label)
	if hasSuffixFold(l, recommendedSuffix) {
		return strings.TrimSpace(l[:len(l)-len(recommendedSuffix)]), true
	}
	if isPlain(l) {
		return l, false
	}
	d := strings.TrimSpace(Display(l))
	if !hasSuffixFold(skeleton(d), recommendedSuffix) {
		return l, false
	}
	// skeleton maps rune for rune, and the suffix is ASCII: it is the
	// last len(recommendedSuffix) runes of d.
	rs := []rune(d)
	return strings.TrimSpace(string(rs[:len(rs)-len(recommendedSuffix)])), true
}

// Recommended returns the indexes of the options marked "(Recommended)".
func (q Question) Recommended() []int {
	var idx []int
	for i, o := range q.Options {
		if IsRecommended(o.Label) {
			idx = append(idx, i)
		}
	}
	return idx
}

// FoldKey normalises text for matching a person's or a program's reference
// to a question or a label: display-safe, look-alike letters read as the
// Latin ones they are drawn as (skeleton), trimmed, case-folded, without a
// "(Recommended)" suffix, inner runs of space collapsed.
func FoldKey(s string) string {
	if k, ok := simpleKey(s); ok {
		return strings.ToLower(k) // the common case, without the copies below
	}
	return strings.ToLower(strings.Join(strings.Fields(BareLabel(skeleton(Display(s)))), " "))
}

// simpleKey returns s without its "(Recommended)" suffix, if any, and
// reports whether FoldKey(s) is just strings.ToLower of that: s is
// printable ASCII with single spaces between words and none around them.
// A recommended label is the usual case, so its suffix is cut in place, as
// BareLabel does, rather than sending it down the copying path.
func simpleKey(s string) (bare string, ok bool) {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		// s[i+1] exists after a space: s does not end in one.
		if c := s[i]; c < 0x20 || c >= 0x7f || (c == ' ' && s[i+1] == ' ') {
			return "", false
		}
	}
	if s[len(s)-1] == ')' && IsRecommended(s) {
		// Single spaces and none leading: at most one space precedes it.
		s = strings.TrimSuffix(s[:len(s)-len(recommendedSuffix)], " ")
	}
	return s, s != ""
}

// sameKey reports whether FoldKey(a) == FoldKey(b). Matching compares a
// reference with every label or question of a set on every lookup, so the
// common case, two simple keys, is compared in place rather than by
// folding copies; for ASCII, EqualFold is the same test as comparing
// strings.ToLower of both.
func sameKey(a, b string) bool {
	if x, ok := simpleKey(a); ok {
		if y, ok := simpleKey(b); ok {
			return strings.EqualFold(x, y)
		}
	}
	return FoldKey(a) == FoldKey(b)
}

// LabelIndex returns the index of the option whose label matches ref
// (case-insensitively, with or without "(Recommended)"), or -1.
func (q Question) LabelIndex(ref string) int {
	for i, o := range q.Options {
		if sameKey(ref, o.Label) {
			return i
		}
	}
	return -1
}

// LabelList returns the bare labels joined for a message: "A, B, C". The
// labels are model-written and the message may reach a terminal, so they
// are passed through Display.
func (q Question) LabelList() string {
	labels := make([]string, len(q.Options))
	for i, o := range q.Options {
		labels[i] = Display(BareLabel(o.Label))
	}
	return strings.Join(labels, ", ")
}

// FindQuestion returns the index of the question whose header or full text
// matches ref case-insensitively. ok is false when none matches; ambiguous
// is true when ref matches more than one question's header (questions with
// the same header must be referred to by their text).
func FindQuestion(qs []Question, ref string) (idx int, ok, ambiguous bool) {
	idx = -1
	for i, q := range qs {
		if sameKey(ref, q.Question) {
			return i, true, false
		}
	}
	for i, q := range qs {
		if sameKey(ref, q.Header) {
			if idx >= 0 {
				return -1, false, true
			}
			idx = i
		}
	}
	return idx, idx >= 0, false
}
