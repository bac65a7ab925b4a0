package prompt

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// headLines are the tab strip, the header chip, "Question i of n" and
// who asks.
func headLines(fi frameInfo, w int) []line {
	out := tabStrip(fi, w)
	var head line
	if fi.header != "" {
		head = line{{strings.ReplaceAll("╭─ "+fi.header+" ─╮", " ", nbsp), chipSGR}}
	}
	if fi.total > 1 {
		progress := fmt.Sprintf("Question%s%d%sof%s%d", nbsp, fi.index+1, nbsp, nbsp, fi.total)
		if head != nil {
			head = append(head, seg{"  ", ""})
		}
		head = append(head, seg{progress, mutedSGR})
	}
	if head != nil {
		out = append(out, wrapLine(head, w, nil, nil)...)
	}
	if fi.agent != "" {
		// One line: a sub-agent's description can be long, and the
		// question matters more.
		out = append(out, truncate(line{{"asked by sub-agent: " + fi.agent, mutedSGR}}, w))
	}
	return out
}

// footerKeys are the keys that work now, for the footer. In a set of
// several questions Tab moves between them, so the whole input is a "?"
// away instead.
func (p *promptState) footerKeys(fi frameInfo) []string {
	n := len(p.entries)
	set := len(fi.tabs) > 1
	var keys []string
	switch {
	case p.mode == modeText:
		keys = []string{"enter confirm", "esc back to the list", "ctrl+c cancel"}
	case p.mode == modeDetail && set:
		keys = []string{"↑↓ scroll", "esc back"}
	case p.mode == modeDetail:
		keys = []string{"↑↓ scroll", "tab back"}
	case p.askNone:
		keys = []string{"y submit (none)", "n back to the list", "ctrl+c cancel"}
	default:
		keys = p.listKeys(n, set, fi.escReview)
	}
	if p.mode == modeList && !p.askNone {
		detailKey := "tab"
		if set {
			detailKey = "?"
		}
		// Before the way out, which stays last (see shortFooter).
		last := keys[len(keys)-1]
		if fi.detail != "" {
			keys = append(keys[:len(keys)-1], detailKey+" full input", last)
		} else if p.truncated {
			keys = append(keys[:len(keys)-1], detailKey+" whole question", last)
		}
	}
	return keys
}

// listKeys are the keys of the list, in a set of several questions or
// of one; escReview: Esc goes back to the review.
func (p *promptState) listKeys(n int, set, escReview bool) []string {
	keys := []string{"↑↓ move"}
	if set {
		keys = append(keys, "←→ question")
	}
	if p.q.MultiSelect {
		keys = append(keys, fmt.Sprintf("1-%d toggle", n), "space toggle", "enter confirm")
	} else {
		keys = append(keys, fmt.Sprintf("1-%d pick", n), "enter select")
	}
	switch {
	case p.filter != "":
		return append(keys, "esc clear filter")
	case escReview:
		return append(keys, "esc review")
	}
	return append(keys, "esc cancel")
}

// shortFooter draws the footer in at most rows lines: the hints before
// the last give way first, from the end, so the way out (esc cancel)
// stays; then the lines themselves, cut with "…".
func shortFooter(keys []string, left time.Duration, w, rows int) []line {
	last := len(keys) - 1
	for n := last - 1; n >= 0; n-- {
		kept := append(append(slices.Clip(keys[:n]), "…"), keys[last])
		if out := footerLines(kept, left, w); len(out) <= rows {
			return out
		}
	}
	out := footerLines(keys, left, w)[:rows]
	out[rows-1] = truncate(append(out[rows-1], seg{" …", mutedSGR}), w)
	return out
}

// footerLines draws key hints and, under a deadline, the time left.
func footerLines(keys []string, left time.Duration, w int) []line {
	var pieces []seg
	if left >= 0 {
		sgr := mutedSGR
		if left < time.Minute {
			sgr = warnSGR
		}
		pieces = append(pieces, seg{formatLeft(left) + nbsp + "left", sgr}, seg{" • ", mutedSGR})
	}
	// Key hints break between items, never inside one.
	for i, k := range keys {
		if i > 0 {
			pieces = append(pieces, seg{" • ", mutedSGR})
		}
		pieces = append(pieces, seg{strings.ReplaceAll(k, " ", nbsp), mutedSGR})
	}
	return wrapLine(pieces, w, nil, nil)
}

// tabStrip is the set's questions as tabs, each ticked once answered,
// then Submit, the review: what is answered at a glance, as Claude
// Code's question screen shows it. The one shown is bold when colour is
// on; the chip under the strip names it either way. A strip too wide
// for the screen gives each question its number instead of its header,
// and, if that is still too wide (a form of many fields), shows the tabs
// around the one shown, with "…" for the others.
func tabStrip(fi frameInfo, w int) []line {
	if len(fi.tabs) < 2 {
		return nil
	}
	items := func(compact bool) []line {
		var out []line
		for i, t := range fi.tabs {
			mark, name := markBox, " "+t.header
			if t.answered {
				mark = markChecked
			}
			if compact || t.header == "" {
				name = fmt.Sprint(i + 1)
			}
			out = append(out, line{{mark, primarySGR}, {name, tabSGR(i == fi.index)}})
		}
		return append(out, line{{"Submit", tabSGR(fi.index == len(fi.tabs))}})
	}
	join := func(its []line, gap string, from, to int) line {
		var l line
		if from > 0 {
			l = line{{"…" + gap, mutedSGR}}
		}
		for i, it := range its[from:to] {
			if i > 0 {
				l = append(l, seg{gap, ""})
			}
			l = append(l, it...)
		}
		if to < len(its) {
			l = append(l, seg{gap + "…", mutedSGR})
		}
		return l
	}
	its := items(false)
	if l := join(its, "  ", 0, len(its)); l.width() <= w {
		return []line{l}
	}
	its = items(true)
	from, to := fi.index, fi.index+1
	for grown := true; grown; {
		grown = false
		if to < len(its) && join(its, " ", from, to+1).width() <= w {
			to, grown = to+1, true
		}
		if from > 0 && join(its, " ", from-1, to).width() <= w {
			from, grown = from-1, true
		}
	}
	return []line{truncate(join(its, " ", from, to), w)}
}

func tabSGR(current bool) string {
	if current {
		return boldSGR
	}
	return mutedSGR
}

// formatLeft shows a time left to the second, rounded up: "4m59s", "9s".
func formatLeft(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	switch {
	case s >= 3600:
		return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
	case s >= 60:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%ds", s)
}
