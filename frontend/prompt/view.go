package prompt

import (
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// Colours, as SGR parameters: the design's primary (indigo), success
// (green), muted (grey).
const (
	chipSGR    = "1;38;5;105"
	primarySGR = "38;5;105"
	cursorSGR  = "1;36"
	focusSGR   = "1"
	mutedSGR   = "90"
	okSGR      = "32"
	warnSGR    = "33"
	errorSGR   = "31"
	boldSGR    = "1"
)

// Marks drawn in the list.
const (
	markCursor  = "❯"
	markFocus   = "●"
	markRadio   = "○"
	markChecked = "☑"
	markBox     = "☐"
)

// labelIndent is where labels start in the list ("❯ ● 1. "), so that
// descriptions and wrapped labels line up under them.
const labelIndent = 7

// minWidth is the narrowest layout drawn; a narrower terminal wraps it.
const minWidth = 20

// frameInfo is what a frame shows besides the question's own state.
type frameInfo struct {
	index, total  int    // "Question i of n"; index == total is the review
	header, agent string // shown, already made safe
	question      string // made safe, line breaks kept
	detail        string // made safe; "" when there is none
	// tabs are the set's questions for the tab strip, when it has more
	// than one.
	tabs []tab
	// escReview: Esc in the list goes back to the review, which has
	// been shown, instead of cancelling the set.
	escReview     bool
	width, height int
	left          time.Duration // time left to answer; <0 when unbounded
}

// tab is one question of a set on the tab strip.
type tab struct {
	header   string // shown, already made safe
	answered bool
}

// frame lays out the question for a screen of fi.width × fi.height: no
// line is wider than width-1 (so the terminal never wraps one itself) and
// there are never more lines than height, so the frame can always be
// redrawn in place and nothing of it scrolls into the scrollback. What
// gives way, in order: the blank lines, the descriptions of unfocused
// options, options far from the focus (paged, with "↑ 2 more" lines),
// and last the question's own lines (cut with "…", the whole text a tab
// away).
func (p *promptState) frame(fi frameInfo) []line {
	// The footer offers the whole question only when it had to be cut,
	// and offering it can take a line: lay out again when it does.
	p.truncated = false
	out, cut := p.layout(fi)
	if cut {
		p.truncated = true
		out, _ = p.layout(fi)
	}
	return out
}

// layout is frame's work; cut reports whether the question was cut.
func (p *promptState) layout(fi frameInfo) (out []line, cut bool) {
	w := max(fi.width-1, minWidth)
	head := headLines(fi, w)
	keys := p.footerKeys(fi)
	footer := footerLines(keys, fi.left, w)
	if p.mode == modeDetail {
		return p.detailFrame(fi, w, head, footer), false
	}
	var status, field []line
	if p.mode == modeList {
		status = p.filterLine(w)
	} else {
		field = p.textField(w)
	}
	if p.askNone {
		status = append(status, wrapText("Submit with nothing selected? y/N", warnSGR, w, nil, nil)...)
	}
	if p.problem != "" {
		status = append(status, wrapText(p.problem, errorSGR, w, nil, nil)...)
	}
	question := wrapText(fi.question, "", w, nil, nil)
	var full []line
	minList := 0
	if p.mode == modeList {
		full = p.list(w, int(^uint(0)>>1))
		// The list in three rows, or a little more when the focused
		// label wraps: the least of it shown.
		minList = len(p.list(w, min(3, len(full))))
	}
	room := fi.height - len(head) - len(field) - len(status) - len(footer)
	// On a tiny screen the footer gives way too, down to one line.
	if short := 1 + minList - room; short > 0 && len(footer) > 1 {
		footer = shortFooter(keys, fi.left, w, max(len(footer)-short, 1))
		room = fi.height - len(head) - len(field) - len(status) - len(footer)
	}
	if keep := max(room-minList, 1); len(question) > keep {
		cut = true
		question = question[:keep]
		last := question[keep-1]
		if last.width()+2 <= w {
			question[keep-1] = append(last, seg{" …", ""})
		} else {
			question[keep-1] = truncate(last, w)
		}
	}
	room -= len(question)
	list := full
	// Blank lines around the list are the first thing to give way.
	gaps := len(full)+2 <= room
	if !gaps && p.mode == modeList {
		list = p.list(w, room)
	}
	out = append(head, question...)
	if gaps {
		out = append(out, nil)
	}
	out = append(out, list...)
	out = append(out, field...)
	out = append(out, status...)
	if gaps {
		out = append(out, nil)
	}
	out = append(out, footer...)
	if len(out) > fi.height {
		out = out[:fi.height]
	}
	return out, cut
}

// entryLines draws one choice: the label line(s), and the description
// under it when withDesc.
func (p *promptState) entryLines(i int, w int, withDesc bool) []line {
	e := p.entries[i]
	focused := i == p.focus
	var prefix line
	if focused {
		prefix = line{{markCursor, cursorSGR}, {" ", ""}}
	} else {
		prefix = line{{"  ", ""}}
	}
	mark := markRadio
	switch {
	case p.q.MultiSelect && p.checked[i]:
		mark = markChecked
	case p.q.MultiSelect:
		mark = markBox
	case p.checked[i], focused && !p.answered():
		// A single select answered earlier (the set came back to it)
		// shows its pick, wherever the cursor is.
		mark = markFocus
	}
	prefix = append(prefix, seg{mark, primarySGR}, seg{fmt.Sprintf(" %d. ", i+1), mutedSGR})
	labelSGR := ""
	if focused {
		labelSGR = focusSGR
	}
	pieces := []seg{{e.label, labelSGR}}
	if e.rec {
		pieces = append(pieces, seg{" (Recommended)", okSGR})
	}
	if e.other && p.otherText != "" {
		pieces = []seg{{e.label + ":", labelSGR}, {" " + p.otherText, ""}}
	}
	indent := line{{strings.Repeat(" ", labelIndent), ""}}
	out := wrapLine(pieces, w, prefix, indent)
	if withDesc && e.desc != "" {
		out = append(out, wrapText(e.desc, mutedSGR, w, indent, indent)...)
	}
	return out
}

// list draws the visible entries in at most room lines: every
// description if they fit, else only the focused one's, else a page of
// labels around the focus with a line saying how many are above and
// below.
func (p *promptState) list(w, room int) []line {
	vis, _ := p.visible()
	draw := func(withDesc func(i int) bool, from, to int) []line {
		var out []line
		for _, i := range vis[from:to] {
			out = append(out, p.entryLines(i, w, withDesc(i))...)
		}
		return out
	}
	all := func(int) bool { return true }
	focusOnly := func(i int) bool { return i == p.focus }
	none := func(int) bool { return false }
	for _, withDesc := range []func(int) bool{all, focusOnly, none} {
		if out := draw(withDesc, 0, len(vis)); len(out) <= room {
			return out
		}
	}
	// A page around the focus.
	at := 0
	for k, i := range vis {
		if i == p.focus {
			at = k
		}
	}
	from, to := at, at+1
	size := func(from, to int) int {
		n := len(draw(none, from, to))
		if from > 0 {
			n++
		}
		if to < len(vis) {
			n++
		}
		return n
	}
	for grown := true; grown; {
		grown = false
		if to < len(vis) && size(from, to+1) <= room {
			to, grown = to+1, true
		}
		if from > 0 && size(from-1, to) <= room {
			from, grown = from-1, true
		}
	}
	var out []line
	if from > 0 {
		out = append(out, styled(fmt.Sprintf("  ↑ %d more", from), mutedSGR))
	}
	out = append(out, draw(none, from, to)...)
	if to < len(vis) {
		out = append(out, styled(fmt.Sprintf("  ↓ %d more", len(vis)-to), mutedSGR))
	}
	return out
}

// filterLine says what the typed filter does, when there is one.
func (p *promptState) filterLine(w int) []line {
	if p.filter == "" {
		return nil
	}
	f := ask.Display(p.filter)
	if _, noMatch := p.visible(); noMatch {
		return wrapLine([]seg{{"No option matches", warnSGR}, {" \"" + f + "\": ", ""}, {"enter answers it as Other (typed)", mutedSGR}}, w, nil, nil)
	}
	return wrapLine([]seg{{"filter: ", mutedSGR}, {f, ""}}, w, nil, nil)
}

// textField draws the "Other" field with a block for the cursor, where
// the next character typed goes.
func (p *promptState) textField(w int) []line {
	before, after := p.field.split()
	return wrapLine([]seg{{"Please specify:", primarySGR}, {" " + ask.Display(before) + "█" + ask.Display(after), ""}}, w, nil, nil)
}

// detailFrame shows the whole question and its detail, scrolled.
func (p *promptState) detailFrame(fi frameInfo, w int, head, footer []line) []line {
	all := p.detailLines(fi, w)
	room := max(fi.height-len(head)-len(footer)-2, 1)
	top := min(p.detailTop, max(len(all)-room, 0))
	p.detailTop = top
	end := min(top+room, len(all))
	// The "more" lines are always there, blank when there is no more,
	// so the text does not jump as it scrolls.
	out := append([]line{}, head...)
	out = append(out, moreLine("↑", top))
	out = append(out, all[top:end]...)
	out = append(out, moreLine("↓", len(all)-end))
	out = append(out, footer...)
	if len(out) > fi.height {
		out = out[:fi.height]
	}
	return out
}

// detailLines are the whole question and its detail wrapped to w,
// wrapped again only when the width changes: the view is drawn at every
// key and tick, and an approval's input can be a whole file.
func (p *promptState) detailLines(fi frameInfo, w int) []line {
	if p.detailWrap.lines != nil && p.detailWrap.width == w {
		return p.detailWrap.lines
	}
	all := wrapText(fi.question, "", w, nil, nil)
	if fi.detail != "" {
		all = append(all, nil)
		all = append(all, wrapText(fi.detail, "", w, nil, nil)...)
	}
	p.detailWrap.lines, p.detailWrap.width = all, w
	return all
}
