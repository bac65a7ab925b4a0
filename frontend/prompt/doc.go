// Package prompt is the terminal prompt's engine: askuser's own prompt,
// which the frontend named survey (frontend.Survey, survey.go here) draws
// at a terminal. It puts the terminal in raw mode and reads its keys
// (term_*.go, ttyreader_*.go), keeps the state of a question and of a set
// of several (state.go, set.go, field.go), lays each frame out to the
// terminal's size (view.go, chrome.go, review.go, text.go) and redraws it
// in place (term_screen.go); the plain mode (plain.go) asks with numbered
// lines and a typed answer, and no escape sequence at all.
//
// Invariants:
//   - Ask honours its context: when it is cancelled or its deadline passes,
//     Ask returns promptly with ask.CtxErr(ctx) and leaves the terminal in
//     the mode it found it in, with no goroutine left blocked reading it
//     to steal the next key.
//   - Every answer is ask.SourcePerson: a person chose it with the keys.
//     Esc closes one thing at a time: the whole-question view, the "Other"
//     field, the filter, the review; only with nothing left to close does
//     it cancel the set, and once the review has been shown it goes back
//     there instead. Ctrl+C and Ctrl+D cancel at once, and never answer. No
//     key but the person's own choice answers: Enter on a multi-select with
//     nothing ticked asks "Submit with nothing selected? y/N" instead of
//     ticking for them.
//   - Nothing typed is lost by moving: the "Other" text outlives Esc and a
//     move to another question of the set, and every answer given is kept
//     until the set is submitted at its review.
//   - The prompt is drawn on the terminal it was given, never on standard
//     output; everything shown went through ask.Display first.
//   - It imports no survey: frontend/survey.go, askuser's one import of
//     survey/v2, gives it survey's measure of text (UseWidth).
//
// The terminal prompt's keys (docs/terminal.md lists them too):
//
//	↑ ↓ Home End        move in the list
//	1-9                 pick (multi-select: tick); after the last option, Other
//	Space               tick (multi-select)
//	Enter               pick, confirm the ticks, confirm the Other text
//	letters             filter; Enter on no match answers them as Other
//	← → Tab Shift+Tab   previous, next question of a set of several (in
//	                    the Other field ← → move the cursor in the text)
//	Tab                 in a set of one: an approval's whole input, laid
//	                    out as the web card lays it out (ask.JSONNode.Outline)
//	?                   the whole input or question, when there is more
//	Esc                 close the innermost thing open; else cancel
//	Ctrl+C Ctrl+D       cancel the set
//
// At the review of a set of several: Enter submits, a question's number
// changes it, ↑↓ scroll a review taller than the screen, ← Shift+Tab and
// Esc go back to the last question. From then on Esc at a question goes
// back to the review (a detour, not the end of the set).
package prompt
