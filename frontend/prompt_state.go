package frontend

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// choice is one line of a question's list: an option, or "Other".
type choice struct {
	label string // shown, without "(Recommended)"
	rec   bool   // the label ends with "(Recommended)"
	desc  string // shown under the label
	other bool
}

// promptMode is what the keys of a question currently act on.
type promptMode int

const (
	modeList   promptMode = iota // the options
	modeText                     // the "Other" text field
	modeDetail                   // the whole question and its detail, scrolled
)

// promptState is one question at the terminal: the options, the focus,
// what is ticked, the filter and the "Other" text. It knows nothing of
// the terminal: keys go in, and out comes whether the question is
// answered, cancelled, or still open. Options are chosen by index, so the
// answer names the option's own label whatever its display looked like.
type promptState struct {
	q       ask.Question
	entries []choice
	focus   int // index into entries
	checked []bool
	filter  string
	mode    promptMode
	// text is the "Other" field being typed; otherText is what it was
	// set to (multi-select, where the list stays open after it).
	text, otherText string
	problem         string // a short message about the last key, shown once
	// hasDetail: there is more to show in the detail view than the
	// question as the list shows it.
	hasDetail bool
	// truncated: the last frame had to cut the question's text, so the
	// detail view has it whole.
	truncated bool
	detailTop int
}

// outcome is what a key did to the question.
type outcome int

const (
	keepAsking outcome = iota
	doneAnswered
	doneCancelled
)

// otherDescription is shown under the "Other" option of every question.
const otherDescription = "Type your own answer"

func newPromptState(q ask.Question, hasDetail bool) *promptState {
	p := &promptState{q: q, hasDetail: hasDetail}
	for _, o := range q.Options {
		p.entries = append(p.entries, choice{label: ask.Display(ask.BareLabel(o.Label)), rec: ask.IsRecommended(o.Label), desc: ask.Display(o.Description)})
	}
	p.entries = append(p.entries, choice{label: ask.OtherLabel, desc: otherDescription, other: true})
	p.checked = make([]bool, len(p.entries))
	// The cursor starts on the recommended option of a single select; a
	// tick in a multi-select is always the person's own.
	if rec := q.Recommended(); len(rec) > 0 && !q.MultiSelect {
		p.focus = rec[0]
	}
	return p
}

func (p *promptState) otherIndex() int { return len(p.entries) - 1 }

// visible is the entries the list shows: those whose label holds the
// filter, or all of them when none does (noMatch), so a filter that
// matches nothing never empties the list.
func (p *promptState) visible() (idx []int, noMatch bool) {
	f := strings.ToLower(strings.TrimSpace(p.filter))
	for i, e := range p.entries {
		if f == "" || e.other || strings.Contains(strings.ToLower(e.label), f) {
			idx = append(idx, i)
		}
	}
	if f != "" && len(idx) == 1 { // only Other, which always shows
		idx = idx[:0]
		for i := range p.entries {
			idx = append(idx, i)
		}
		return idx, true
	}
	return idx, false
}

// handle applies one key and says whether the question is now answered
// (a pick in a single select, Enter in a multi-select), cancelled, or
// still open.
func (p *promptState) handle(k key) outcome {
	p.problem = ""
	if k.kind == kCtrlC || k.kind == kCtrlD {
		return doneCancelled
	}
	switch p.mode {
	case modeText:
		return p.handleText(k)
	case modeDetail:
		p.handleDetail(k)
		return keepAsking
	}
	return p.handleList(k)
}

func (p *promptState) handleList(k key) outcome {
	vis, noMatch := p.visible()
	switch k.kind {
	case kEsc:
		return doneCancelled
	case kUp, kDown:
		p.move(vis, k.kind == kDown)
	case kHome:
		p.focus = vis[0]
	case kEnd:
		p.focus = vis[len(vis)-1]
	case kTab:
		if p.hasDetail || p.truncated {
			p.mode, p.detailTop = modeDetail, 0
		}
	case kBackspace:
		p.setFilter(dropLastRune(p.filter))
	case kCtrlU:
		p.setFilter("")
	case kCtrlW:
		p.setFilter(dropLastWord(p.filter))
	case kEnter:
		if noMatch {
			// The typed text is the answer, through "Other".
			return p.takeOther(ask.CleanFreeText(p.filter))
		}
		if !p.q.MultiSelect {
			return p.pick(p.focus)
		}
		if p.checked[p.otherIndex()] && p.otherText == "" {
			p.openText()
			return keepAsking
		}
		return doneAnswered
	case kRune:
		switch {
		case k.r >= '1' && k.r <= '9':
			i := int(k.r - '1')
			if i >= len(p.entries) {
				p.problem = fmt.Sprintf("no option %c: the numbers go from 1 to %d", k.r, len(p.entries))
				return keepAsking
			}
			p.focus = i
			if !p.q.MultiSelect {
				return p.pick(i)
			}
			p.toggle(i)
		case k.r == ' ' && p.q.MultiSelect:
			p.toggle(p.focus)
		case k.r == ' ' && p.filter == "":
			// Nothing to do: a filter does not start with a space.
		default:
			p.setFilter(p.filter + string(k.r))
		}
	}
	return keepAsking
}

// move moves the focus to the next (or previous) visible choice, wrapping.
func (p *promptState) move(vis []int, down bool) {
	at := 0
	for i, v := range vis {
		if v == p.focus {
			at = i
		}
	}
	if down {
		at = (at + 1) % len(vis)
	} else {
		at = (at + len(vis) - 1) % len(vis)
	}
	p.focus = vis[at]
}

// setFilter changes the filter and puts the focus on the first choice
// that matches, if the focused one no longer does.
func (p *promptState) setFilter(f string) {
	if utf8.RuneCountInString(f) > ask.MaxFreeTextChars {
		return
	}
	p.filter = f
	vis, _ := p.visible()
	for _, v := range vis {
		if v == p.focus {
			return
		}
	}
	p.focus = vis[0]
}

// pick chooses choice i of a single select.
func (p *promptState) pick(i int) outcome {
	if p.entries[i].other {
		p.openText()
		return keepAsking
	}
	p.checked = make([]bool, len(p.entries))
	p.checked[i] = true
	return doneAnswered
}

// toggle ticks or unticks choice i of a multi-select. Ticking "Other"
// opens its text field; unticking it forgets the text.
func (p *promptState) toggle(i int) {
	p.checked[i] = !p.checked[i]
	if p.entries[i].other {
		if p.checked[i] {
			p.openText()
		} else {
			p.otherText = ""
		}
	}
}

// openText opens the "Other" field, starting from the filter if one was
// typed: it was the person's own words.
func (p *promptState) openText() {
	p.mode = modeText
	p.focus = p.otherIndex()
	if p.text == "" {
		p.text = strings.TrimSpace(p.filter)
	}
}

// takeOther answers with typed text as "Other".
func (p *promptState) takeOther(s string) outcome {
	if s == "" {
		p.problem = "type an answer, or press esc to go back to the list"
		return keepAsking
	}
	p.otherText = s
	p.checked[p.otherIndex()] = true
	if !p.q.MultiSelect {
		p.checked = make([]bool, len(p.entries))
		p.checked[p.otherIndex()] = true
	}
	return doneAnswered
}

func (p *promptState) handleText(k key) outcome {
	switch k.kind {
	case kEsc:
		// Back to the list; in a multi-select "Other" stays ticked only
		// with text.
		p.mode = modeList
		p.text = ""
		if p.otherText == "" {
			p.checked[p.otherIndex()] = false
		}
	case kEnter:
		s := ask.CleanFreeText(p.text)
		if s == "" {
			p.problem = "type an answer, or press esc to go back to the list"
			return keepAsking
		}
		if !p.q.MultiSelect {
			return p.takeOther(s)
		}
		p.otherText, p.text, p.mode = s, "", modeList
		p.checked[p.otherIndex()] = true
		p.setFilter("")
	case kBackspace:
		p.text = dropLastRune(p.text)
	case kCtrlU:
		p.text = ""
	case kCtrlW:
		p.text = dropLastWord(p.text)
	case kRune:
		if utf8.RuneCountInString(p.text) < ask.MaxFreeTextChars {
			p.text += string(k.r)
		}
	}
	return keepAsking
}

func (p *promptState) handleDetail(k key) {
	switch k.kind {
	case kEsc, kTab, kEnter:
		p.mode = modeList
	case kUp:
		p.detailTop--
	case kDown:
		p.detailTop++
	case kPageUp:
		p.detailTop -= 10
	case kPageDown:
		p.detailTop += 10
	case kHome:
		p.detailTop = 0
	}
	p.detailTop = max(p.detailTop, 0) // the view clamps the bottom
}

// answer is the person's answer once the question is answered.
func (p *promptState) answer() (ask.Answer, error) {
	var chosen []string
	custom := ""
	for i, on := range p.checked {
		switch {
		case !on:
		case p.entries[i].other:
			custom = p.otherText
		default:
			chosen = append(chosen, p.q.Options[i].Label)
		}
	}
	a, err := ask.Selection(p.q, chosen, custom, ask.SourcePerson)
	if err != nil {
		return ask.Answer{}, fmt.Errorf("question %q: %w", ask.Display(p.q.Header), err)
	}
	return a, nil
}

func dropLastRune(s string) string {
	_, n := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-n]
}

func dropLastWord(s string) string {
	s = strings.TrimRight(s, " ")
	if i := strings.LastIndex(s, " "); i >= 0 {
		return s[:i+1]
	}
	return ""
}
