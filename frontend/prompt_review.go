package frontend

import (
	"fmt"
	"strings"
)

// reviewFrame is the review that follows the last question of a set of
// several: every answer, numbered so its number goes back to change it,
// those still missing marked, and Enter to submit. It keeps the frame's
// promises (see promptState.frame): never taller than the screen, no
// line reaching the last column; what gives way is the blank line, then
// the answers' last lines.
func (s *setState) reviewFrame(fi frameInfo) []line {
	w := max(fi.width-1, minWidth)
	head := append(tabStrip(fi, w), styled("Review your answers", boldSGR))
	indent := line{{strings.Repeat(" ", 5), ""}}
	var answers []line
	for i, p := range s.qs {
		num := line{{fmt.Sprintf("  %d. ", i+1), mutedSGR}}
		var segs line
		if a, err := p.answer(); err == nil && p.answered() {
			segs = answerSegs(a)
		} else {
			segs = line{{tabName(s.infos[i]) + ":", boldSGR}, {" not answered yet", warnSGR}}
		}
		answers = append(answers, wrapLine(segs, w, num, indent)...)
	}
	var status []line
	if s.problem != "" {
		status = wrapText(s.problem, errorSGR, w, nil, nil)
	}
	keys := []string{"enter submit", fmt.Sprintf("1-%d change", len(s.qs)), "←/esc back", "ctrl+c cancel"}
	footer := footerLines(keys, fi.left, w)
	if short := len(head) + len(status) + len(footer) + 1 - fi.height; short > 0 && len(footer) > 1 {
		footer = shortFooter(keys, fi.left, w, max(len(footer)-short, 1))
	}
	room := fi.height - len(head) - len(status) - len(footer)
	gap := len(answers) < room
	if keep := max(room, 1); len(answers) > keep {
		answers = answers[:keep]
		answers[keep-1] = truncate(append(answers[keep-1], seg{" …", ""}), w)
	}
	out := append(head, answers...)
	out = append(out, status...)
	if gap {
		out = append(out, nil)
	}
	out = append(out, footer...)
	return out[:min(len(out), fi.height)]
}

// tabName is how a question is named in one line: its header, or
// else its question.
func tabName(fi frameInfo) string {
	if fi.header != "" {
		return fi.header
	}
	return strings.ReplaceAll(fi.question, "\n", " ")
}
