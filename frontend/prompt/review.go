package prompt

import (
	"fmt"
	"strings"
)

// reviewFrame is the review that follows the last question of a set of
// several: every answer, numbered so its number goes back to change it,
// those still missing marked, and Enter to submit. It keeps the frame's
// promises (see promptState.frame): never taller than the screen, no
// line reaching the last column. What gives way is the blank line, then
// the answers, which scroll (↑↓) between "↑ 2 more" and "↓ 3 more" lines,
// as a form of many fields needs.
func (s *setState) reviewFrame(fi frameInfo) []line {
	w := max(fi.width-1, minWidth)
	head := append(tabStrip(fi, w), styled("Review your answers", boldSGR))
	answers := s.reviewAnswers(w)
	var status []line
	if s.problem != "" {
		status = wrapText(s.problem, errorSGR, w, nil, nil)
	}
	keys := []string{"enter submit", fmt.Sprintf("1-%d change", min(len(s.qs), 9)), "←/esc back", "ctrl+c cancel"}
	footer := footerLines(keys, fi.left, w)
	if short := len(head) + len(status) + len(footer) + 3 - fi.height; short > 0 && len(footer) > 1 {
		footer = shortFooter(keys, fi.left, w, max(len(footer)-short, 1))
	}
	room := fi.height - len(head) - len(status) - len(footer)
	gap := len(answers) < room
	if len(answers) > room {
		// A page of answers, with a line above and below saying how
		// many more there are.
		rows := max(room-2, 1)
		s.reviewTop = min(max(s.reviewTop, 0), len(answers)-rows)
		top, end := s.reviewTop, s.reviewTop+rows
		page := []line{moreLine("↑", top)}
		page = append(page, answers[top:end]...)
		answers = append(page, moreLine("↓", len(answers)-end))
	}
	out := append(head, answers...)
	out = append(out, status...)
	if gap {
		out = append(out, nil)
	}
	out = append(out, footer...)
	return out[:min(len(out), fi.height)]
}

// reviewAnswers are the review's answer lines, wrapped to w.
func (s *setState) reviewAnswers(w int) []line {
	indent := line{{strings.Repeat(" ", 5), ""}}
	var out []line
	for i, p := range s.qs {
		num := line{{fmt.Sprintf("  %d. ", i+1), mutedSGR}}
		var segs line
		if a, err := p.answer(); err == nil && p.answered() {
			segs = answerSegs(a)
		} else {
			segs = line{{tabName(s.infos[i]) + ":", boldSGR}, {" not answered yet", warnSGR}}
		}
		out = append(out, wrapLine(segs, w, num, indent)...)
	}
	return out
}

// moreLine says how many lines are above (↑) or below (↓) what is
// shown; blank when there are none, so the text does not jump as it
// scrolls.
func moreLine(arrow string, n int) line {
	if n == 0 {
		return nil
	}
	return styled(fmt.Sprintf("  %s %d more", arrow, n), mutedSGR)
}

// tabName is how a question is named in one line: its header, or
// else its question.
func tabName(fi frameInfo) string {
	if fi.header != "" {
		return fi.header
	}
	return strings.ReplaceAll(fi.question, "\n", " ")
}
