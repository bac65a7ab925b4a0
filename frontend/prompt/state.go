package prompt

import (
	"fmt"
	"slices"
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
// Nothing the person typed is thrown away by a key that only moves them
// elsewhere: the "Other" text outlives Esc and a move to another
// question, and comes back in the field, ready to edit.
type promptState struct {
	q       ask.Question
	entries []choice
	focus   int // index into entries
	checked []bool
	filter  string
	mode    promptMode
	// field is the "Other" text being typed; otherText is the answer it
	// was confirmed as (the list stays open after it in a multi-select,
	// and a set can come back to the question).
	field     textField
	otherText string
	// askNone: Enter was pressed on a multi-select with nothing ticked,
	// and the prompt asks whether that is meant; noneChosen: it was
	// (y), so the question is answered with nothing.
	askNone, noneChosen bool
	problem             string // a short message about the last key, shown once
	// hasDetail: there is more to show in the detail view than the
	// question as the list shows it.
	hasDetail bool
	// truncated: the last frame had to cut the question's text, so the
	// detail view has it whole.
	truncated bool
	detailTop int
	// detailWrap is the detail view's text as last wrapped, and the
	// width it was wrapped to.
	detailWrap struct {
		lines []line
		width int
	}
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
	if p.askNone {
		p.askNone = false
		switch {
		case k.kind == kRune && (k.r == 'y' || k.r == 'Y'):
			p.noneChosen = true
			return doneAnswered
		case k.kind == kEsc, k.kind == kEnter, k.kind == kRune && (k.r == 'n' || k.r == 'N'):
			return keepAsking // no (the default): back to the list
		}
		// Any other key does its own work in the list.
	}
	return p.handleList(k)
}

// answered reports whether the question has an answer: a pick, ticks,
// or (multi-select) nothing, chosen deliberately.
func (p *promptState) answered() bool {
	return slices.Contains(p.checked, true) || p.noneChosen
}

// leave is the question being left for another of the set: an open text
// field closes as Esc closes it, keeping its text.
func (p *promptState) leave() {
	if p.mode == modeText {
		p.closeText()
	}
	p.mode, p.askNone = modeList, false
}

// showsDetail reports whether there is more to show than the list shows:
// an approval's whole input, or a question cut to fit the screen.
func (p *promptState) showsDetail() bool { return p.hasDetail || p.truncated }

func (p *promptState) handleList(k key) outcome {
	vis, noMatch := p.visible()
	switch k.kind {
	case kEsc:
		if p.filter != "" {
			// A filter goes first, as in fzf and gum; the next Esc cancels.
			p.setFilter("")
			return keepAsking
		}
		return doneCancelled
	case kUp, kDown:
		p.move(vis, k.kind == kDown)
	case kHome:
		p.focus = vis[0]
	case kEnd:
		p.focus = vis[len(vis)-1]
	case kTab:
		if p.showsDetail() {
			p.mode, p.detailTop = modeDetail, 0
		}
	case kBackspace:
		p.setFilter(dropLastRune(p.filter))
	case kCtrlU:
		p.setFilter("")
	case kCtrlW:
		p.setFilter(dropLastWord(p.filter))
	case kEnter:
		return p.enter(noMatch)
	case kRune:
		switch {
		case k.r == '?' && p.filter == "" && p.showsDetail():
			p.mode, p.detailTop = modeDetail, 0
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

// enter is Enter in the list: a single select picks the focused choice,
// a multi-select confirms its ticks. With nothing ticked it asks first:
// Enter taking the option under the cursor, as gum and fzf do, would
// put a tick the person never made (the cursor starts on the first
// option), and "(none)" stays one deliberate key away (y).
func (p *promptState) enter(noMatch bool) outcome {
	switch {
	case noMatch:
		// The typed text is the answer, through "Other".
		return p.takeOther(ask.CleanFreeText(p.filter))
	case !p.q.MultiSelect:
		return p.pick(p.focus)
	case p.checked[p.otherIndex()] && p.otherText == "":
		p.openText()
		return keepAsking
	case !slices.Contains(p.checked, true):
		p.askNone = true
		return keepAsking
	}
	return doneAnswered
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

// setFilter changes the filter and puts the focus on the choice that
// matches it best (matchRank), as fzf and gum do: typing "sql" goes to
// SQLite, whose label starts so, not to PostgreSQL, which only holds it.
// With no filter, or one that matches nothing, the focus stays where it
// is if it is shown, else it goes to the first choice.
func (p *promptState) setFilter(f string) {
	if utf8.RuneCountInString(f) > ask.MaxFreeTextChars {
		return
	}
	p.filter = f
	vis, noMatch := p.visible()
	if lf := strings.ToLower(strings.TrimSpace(f)); lf != "" && !noMatch {
		best, bestRank := -1, 0
		for _, v := range vis {
			if p.entries[v].other {
				continue
			}
			if r := matchRank(strings.ToLower(p.entries[v].label), lf); best < 0 || r < bestRank {
				best, bestRank = v, r
			}
		}
		if best >= 0 {
			p.focus = best
			return
		}
	}
	for _, v := range vis {
		if v == p.focus {
			return
		}
	}
	p.focus = vis[0]
}

// matchRank says how well label holds filter (both lower-case), lower
// being better: 0 the label starts with it, 1 a word of it does, 2 it is
// inside a word. The first of equals wins.
func matchRank(label, filter string) int {
	switch {
	case strings.HasPrefix(label, filter):
		return 0
	case strings.Contains(label, " "+filter) || strings.Contains(label, "-"+filter) ||
		strings.Contains(label, "("+filter) || strings.Contains(label, "/"+filter):
		return 1
	}
	return 2
}

// pick chooses choice i of a single select.
func (p *promptState) pick(i int) outcome {
	if p.entries[i].other {
		p.openText()
		return keepAsking
	}
	p.checked = make([]bool, len(p.entries))
	p.checked[i] = true
	p.otherText = "" // the field keeps it, should they come back to Other
	return doneAnswered
}

// toggle ticks or unticks choice i of a multi-select. Ticking "Other"
// opens its text field; unticking it takes its text out of the answer
// (the field keeps it).
func (p *promptState) toggle(i int) {
	p.checked[i] = !p.checked[i]
	p.noneChosen = false
	if p.entries[i].other {
		if p.checked[i] {
			p.openText()
		} else {
			p.otherText = ""
		}
	}
}

func (p *promptState) handleDetail(k key) {
	switch k.kind {
	case kEsc, kTab, kEnter:
		p.mode = modeList
	case kRune:
		if k.r == '?' {
			p.mode = modeList
		}
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
