package whatsapp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/askuser/askuser/ask"
)

// readTyped reads a typed reply to q, whichever form asked it: option
// numbers ("3", or "1,3" for a multi-select) choose options; any other
// text is Other. A reply made of numbers that do not fit (no such
// option, two for a single select) is not taken as free text: problem
// says what to send instead, since "7" is more likely a slip than an
// answer. Text that merely starts with a number ("8 workers") is Other.
func readTyped(q ask.Question, text string) (labels []string, other, problem string) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, "", "Send a number, or type your own answer."
	}
	fields := strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\n' || r == '\t' })
	if len(fields) == 0 || !allDigits(fields) {
		return nil, t, ""
	}
	n := len(q.Options)
	var picked []int
	for _, f := range fields {
		i, err := strconv.Atoi(f)
		if err != nil || i < 1 || i > n {
			return nil, "", fmt.Sprintf("There is no option %s here: send a number from 1 to %d, or type your own answer.", ask.Excerpt(f), n)
		}
		if !slices.Contains(picked, i) {
			picked = append(picked, i)
		}
	}
	if !q.MultiSelect && len(picked) > 1 {
		return nil, "", fmt.Sprintf("This question takes one answer: send one number from 1 to %d, or type your own answer.", n)
	}
	slices.Sort(picked)
	for _, i := range picked {
		labels = append(labels, q.Options[i-1].Label)
	}
	return labels, "", ""
}

func allDigits(fields []string) bool {
	for _, f := range fields {
		if strings.Trim(f, "0123456789") != "" {
			return false
		}
	}
	return true
}
