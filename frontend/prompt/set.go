package prompt

import (
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
)

// setState is a question set at the terminal: one promptState per
// question, which one is shown, and, for a set of several, the review
// after the last, where the set is submitted. Like promptState it knows
// nothing of the terminal.
//
// A set of several moves between its questions (←/→, Tab/Shift+Tab, a
// question's number at the review), keeping every answer and everything
// typed. A set of one has no strip and no review: its pick answers it,
// as in Claude Code, and Tab keeps its older meaning there (an
// approval's whole input; an approval is a set of one).
//
// Once the review has been shown, a question is a detour from it: Esc,
// which cancels the set from a question's list before the review, goes
// back to the review instead, so a key meant to leave one question
// cannot throw away every answer the person has just read over. Ctrl+C
// still cancels at once.
type setState struct {
	qs    []*promptState
	infos []frameInfo // what each question's frame shows besides its state
	at    int         // the question shown; len(qs) is the review
	// problem is a short message about the review's last key.
	problem string
	// reviewTop is the first answer line the review shows, when they
	// do not all fit (the frame clamps it).
	reviewTop int
	// reviewed: the review has been shown, so Esc at a question goes
	// back to it.
	reviewed bool
}

func newSetState(req ask.Request) *setState {
	s := &setState{}
	for i, q := range req.Questions {
		s.qs = append(s.qs, newPromptState(q, req.Detail != ""))
		s.infos = append(s.infos, frameInfo{index: i, total: len(req.Questions), header: ask.Display(q.Header), agent: ask.Display(req.Agent),
			question: ask.DisplayBlock(q.Question), detail: readableDetail(req.Detail)})
	}
	return s
}

// readableDetail is a set's detail (an approval's whole tool input) as a
// person reads it: JSON laid out as the web card lays it out
// (ask.JSONNode.Outline: fields in the order written, a file's content as
// its lines), all of it, since the terminal scrolls; other text made
// safe to show.
func readableDetail(detail string) string {
	if detail == "" {
		return ""
	}
	// A budget of the text's length in bytes holds all of it: nothing
	// shown is longer than the JSON that spells it.
	if root, _, ok := ask.ReadJSON([]byte(detail), len(detail)); ok {
		return root.Outline()
	}
	return ask.DisplayBlock(detail)
}

func (s *setState) several() bool   { return len(s.qs) > 1 }
func (s *setState) reviewing() bool { return s.at == len(s.qs) }

// handle applies one key and says whether the set is now answered (a
// set of one: its question is; a set of several: submitted at the
// review), cancelled, or still open.
func (s *setState) handle(k key) outcome {
	s.problem = ""
	if k.kind == kCtrlC || k.kind == kCtrlD {
		return doneCancelled
	}
	if s.reviewing() {
		return s.handleReview(k)
	}
	p := s.qs[s.at]
	if step := s.moveKey(p, k); step != 0 {
		s.show(s.at + step)
		return keepAsking
	}
	out := p.handle(k)
	switch {
	case out == doneAnswered && s.several():
		s.advance()
		return keepAsking
	case out == doneCancelled && k.kind == kEsc && s.reviewed:
		s.show(len(s.qs))
		return keepAsking
	}
	return out
}

// moveKey is how far k moves through a set of several: Tab and
// Shift+Tab from anywhere, ←/→ only from the list, since in the "Other"
// field they move the cursor in the text and in the whole-question view
// they would hide what is being read.
func (s *setState) moveKey(p *promptState, k key) int {
	if !s.several() {
		return 0
	}
	switch {
	case k.kind == kTab, k.kind == kRight && p.mode == modeList:
		return 1
	case k.kind == kShiftTab, k.kind == kLeft && p.mode == modeList:
		return -1
	}
	return 0
}

// show moves to question i (len(qs): the review), leaving the one shown.
func (s *setState) show(i int) {
	i = min(max(i, 0), len(s.qs))
	if !s.reviewing() {
		s.qs[s.at].leave()
	}
	s.at = i
	s.reviewed = s.reviewed || s.reviewing()
}

// advance follows an answer: on to the next question not answered yet,
// or, when there is none after this one, the review.
func (s *setState) advance() {
	next := s.at + 1
	for next < len(s.qs) && s.qs[next].answered() {
		next++
	}
	s.show(next)
}

// handleReview: Enter submits, or goes to a question still unanswered;
// a question's number goes to it; ←, Shift+Tab and Esc go back to the
// last question (where Esc comes back here); ↑↓ scroll the answers when
// they do not fit.
func (s *setState) handleReview(k key) outcome {
	switch k.kind {
	case kEnter:
		for i, p := range s.qs {
			if !p.answered() {
				s.show(i)
				p.problem = "answer this question before submitting"
				return keepAsking
			}
		}
		return doneAnswered
	case kLeft, kShiftTab, kEsc:
		s.show(len(s.qs) - 1)
	case kUp, kDown, kPageUp, kPageDown:
		s.reviewTop += map[keyKind]int{kUp: -1, kDown: 1, kPageUp: -10, kPageDown: 10}[k.kind]
	case kRune:
		if k.r < '1' || k.r > '9' {
			return keepAsking
		}
		if i := int(k.r - '1'); i < len(s.qs) {
			s.show(i)
		} else {
			s.problem = fmt.Sprintf("no question %c: the numbers go from 1 to %d", k.r, len(s.qs))
		}
	}
	return keepAsking
}

// frame lays out what is shown now for a screen of width × height.
func (s *setState) frame(width, height int, left time.Duration) []line {
	var tabs []tab
	if s.several() {
		for i, p := range s.qs {
			tabs = append(tabs, tab{header: s.infos[i].header, answered: p.answered()})
		}
	}
	if s.reviewing() {
		return s.reviewFrame(frameInfo{index: len(s.qs), total: len(s.qs), tabs: tabs, width: width, height: height, left: left})
	}
	fi := s.infos[s.at]
	fi.tabs, fi.width, fi.height, fi.left, fi.escReview = tabs, width, height, left, s.reviewed
	return s.qs[s.at].frame(fi)
}

// answers are the person's answers, once the set is answered.
func (s *setState) answers() ([]ask.Answer, error) {
	out := make([]ask.Answer, 0, len(s.qs))
	now := time.Now()
	for _, p := range s.qs {
		a, err := p.answer()
		if err != nil {
			return nil, err
		}
		a.AnsweredAt = now
		out = append(out, a)
	}
	return out, nil
}
