package prompt

import (
	"strings"

	"github.com/askuser/askuser/ask"
)

// textField is the "Other" text being typed, with a cursor that ←/→,
// Home and End move, so a slip early in the text is fixed without
// retyping the rest. It holds runes, not bytes, so the cursor never lands
// inside a character; it never holds more than ask.MaxFreeTextChars.
type textField struct {
	text []rune
	pos  int // the cursor, an index into text (len(text): at the end)
}

func (f *textField) String() string { return string(f.text) }

func (f *textField) empty() bool { return len(f.text) == 0 }

// set replaces the text and puts the cursor at its end.
func (f *textField) set(s string) {
	f.text = []rune(s)
	if len(f.text) > ask.MaxFreeTextChars {
		f.text = f.text[:ask.MaxFreeTextChars]
	}
	f.pos = len(f.text)
}

// edit applies an editing key and reports whether it was one.
func (f *textField) edit(k key) bool {
	switch k.kind {
	case kRune:
		if len(f.text) < ask.MaxFreeTextChars {
			f.text = append(f.text[:f.pos], append([]rune{k.r}, f.text[f.pos:]...)...)
			f.pos++
		}
	case kLeft:
		f.pos = max(f.pos-1, 0)
	case kRight:
		f.pos = min(f.pos+1, len(f.text))
	case kHome:
		f.pos = 0
	case kEnd:
		f.pos = len(f.text)
	case kBackspace:
		if f.pos > 0 {
			f.text = append(f.text[:f.pos-1], f.text[f.pos:]...)
			f.pos--
		}
	case kDelete:
		if f.pos < len(f.text) {
			f.text = append(f.text[:f.pos], f.text[f.pos+1:]...)
		}
	case kCtrlU:
		f.text, f.pos = nil, 0
	case kCtrlW:
		// The word before the cursor, and the spaces after it.
		at := f.pos
		for at > 0 && f.text[at-1] == ' ' {
			at--
		}
		for at > 0 && f.text[at-1] != ' ' {
			at--
		}
		f.text = append(f.text[:at], f.text[f.pos:]...)
		f.pos = at
	default:
		return false
	}
	return true
}

// split is the text before and after the cursor.
func (f *textField) split() (before, after string) {
	return string(f.text[:f.pos]), string(f.text[f.pos:])
}

// openText opens the "Other" field with what was typed in it before, or
// else the filter, if one was typed: either way, the person's own words.
func (p *promptState) openText() {
	p.mode = modeText
	p.focus = p.otherIndex()
	if p.field.empty() {
		p.field.set(strings.TrimSpace(p.filter))
	}
	p.field.edit(key{kind: kEnd}) // ready to go on typing
}

// closeText goes back to the list, keeping the field's text; in a
// multi-select "Other" stays ticked only with confirmed text.
func (p *promptState) closeText() {
	p.mode = modeList
	if p.otherText == "" {
		p.checked[p.otherIndex()] = false
	}
}

// takeOther answers with typed text as "Other".
func (p *promptState) takeOther(s string) outcome {
	if s == "" {
		p.problem = "type an answer, or press esc to go back to the list"
		return keepAsking
	}
	if !p.q.MultiSelect {
		p.checked = make([]bool, len(p.entries))
	}
	p.otherText, p.mode, p.noneChosen = s, modeList, false
	p.checked[p.otherIndex()] = true
	p.field.set(s)
	p.setFilter("")
	return doneAnswered
}

func (p *promptState) handleText(k key) outcome {
	switch k.kind {
	case kEsc:
		p.closeText()
	case kEnter:
		out := p.takeOther(ask.CleanFreeText(p.field.String()))
		if !p.q.MultiSelect {
			return out
		}
		// A multi-select goes on: the list stays open for more ticks.
	default:
		p.field.edit(k)
	}
	return keepAsking
}
