// Package frontend holds the ways askuser asks a person or a program a
// question set: a survey prompt at a terminal (survey.go), JSON lines on
// pipes (stdio.go), an answers file for CI (file.go) and the
// recommended-option policy (auto.go). Each implements ask.Frontend; which
// one runs is decided in one place, the wiring main calls, and the rest of
// askuser sees only ask.Frontend.
//
// Invariants:
//   - Only survey.go (and its test) imports github.com/AlecAivazis/survey/v2.
//     survey is unmaintained upstream; keeping it in one file, and
//     translating its errors (terminal.InterruptErr) into ask's sentinels
//     there, means replacing it touches one file.
//   - Every Answer carries its Source, set by the frontend that produced it:
//     ask.SourcePerson only when a person chose at the terminal, or a
//     program on JSON lines said "source":"person"; SourceProgram,
//     SourceFile or SourcePolicy otherwise. A machine's answer is never
//     passed off as a person's.
//   - Answers are built with ask.Selection, so labels are matched, checked
//     and made bare in one place and free text is cleaned with
//     ask.CleanFreeText; everything shown to a person goes through
//     ask.Display or ask.DisplayBlock first.
//   - Ask honours its context: when it is cancelled or its deadline passes,
//     Ask returns promptly with ask.CtxErr(ctx) (wrapping ask.ErrCancelled
//     or ask.ErrTimeout) and leaves the terminal in the mode it found it in,
//     with no goroutine left blocked reading it to steal the next key.
//   - Prompts are drawn on the terminal the frontend was given (standard
//     error or /dev/tty), never on standard output, which carries the
//     result and may be redirected.
//   - At the terminal, Esc closes one thing at a time: the whole-question
//     view, the "Other" field, the filter, the review; only with nothing
//     left to close does it cancel the set, and once the review has been
//     shown it goes back there instead. Ctrl+C and Ctrl+D cancel at
//     once, and never answer. No key but the person's own choice answers:
//     Enter on a multi-select with nothing ticked asks "Submit with
//     nothing selected? y/N" instead of ticking for them.
//   - Nothing typed is lost by moving: the "Other" text outlives Esc and a
//     move to another question of the set, and every answer given is kept
//     until the set is submitted at its review.
//   - In a Race, a frontend shows its answer as given only once it has
//     claimed the set (ask.ClaimerOf(ctx).Claim); one that lost says what
//     won instead.
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
package frontend
