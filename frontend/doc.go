// Package frontend holds the ways askuser asks a person or a program a
// question set: a prompt at a terminal (survey.go, whose engine is package
// frontend/prompt), JSON lines on pipes (stdio.go), an answers file for CI
// (file.go) and the recommended-option policy (auto.go); a set waits for
// askuser resume (deferred.go), and several frontends race for one set
// (race.go). Each implements ask.Frontend; which one runs is decided in
// one place, the frontend chooser (internal/chooser), and the rest of
// askuser sees only ask.Frontend.
//
// Invariants:
//   - One file imports github.com/AlecAivazis/survey/v2, for what it
//     still does well, measuring text in terminal cells:
//     frontend/survey.go, which hands the measure to the prompt's engine
//     (frontend/prompt). survey is unmaintained upstream; keeping it
//     in one file means replacing it touches one file.
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
//     result and may be redirected. What the terminal prompt does with each
//     key is package frontend/prompt's (its doc lists the keys).
//   - In a Race, a frontend shows its answer as given only once it has
//     claimed the set (ask.ClaimerOf(ctx).Claim); one that lost says what
//     won instead.
package frontend
