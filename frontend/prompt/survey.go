package prompt

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
)

// Survey asks a person at a terminal.
//
// Each question is drawn as its header chip, "Question i of n" when the set
// has more than one, who asks (a sub-agent), the question, and every option
// numbered with its description indented under it, plus "Other" for free
// text; a footer lists the keys that work and, under a deadline, the time
// left. A set of several questions has a tab strip showing which are
// answered; ←/→ and Tab/Shift+Tab move between them, keeping every answer,
// and after the last comes a review where Enter submits the set (a set of
// one is answered by its pick, as in Claude Code). Once the set is
// submitted its frame gives way to one confirmation line per question
// ("✔ Header: answer"). Every answer is marked ask.SourcePerson: a person
// chose it with the keys; no key answers without the person choosing
// (Ctrl+D, Ctrl+C and Esc with nothing left to close cancel). A Survey asks
// one set at a time: there is one terminal.
//
// In a Race, the confirmation lines are printed only once the set is
// claimed (ask.ClaimerOf(ctx).Claim): when another frontend answered
// first, the terminal says so and shows that answer instead ("Answered
// in the browser:").
//
// The prompt is our own (this package): survey/v2's prompts read digits
// into their filter, treat Esc as a vim-mode switch, redraw by moving up
// as many lines as they drew (which leaves a copy of the question in the
// scrollback for every key once a prompt is taller than the screen) and
// never redraw on a resize. What survey still does well is measuring text
// in terminal cells, East Asian wide characters included, and that is
// all askuser takes from it: frontend/survey.go, its one survey import,
// hands the measure to this package (UseWidth).
//
// Plain mode (Plain, or a terminal that cannot be put in raw mode) writes
// no escape sequence at all: numbered lines, and the answer typed as a
// line; an empty line takes a single select's recommended option, which
// the prompt names, and "<" goes back a question. Its ✔ lines too are
// printed once the whole set is answered and claimed.
type Survey struct {
	in, out *os.File

	// NoSummary leaves out the "✔ Header: answer" lines, for callers
	// that show the answers themselves.
	NoSummary bool
	// Color, when set, says whether to colour (the wiring asks
	// iostreams); nil reads NO_COLOR, CLICOLOR and CLICOLOR_FORCE.
	Color *bool
	// Plain asks with numbered lines and a typed answer, writing no
	// escape sequence: for TERM=dumb, --plain, ASKUSER_PLAIN=1.
	Plain bool
}

var _ ask.Frontend = (*Survey)(nil)

// NewSurvey returns a frontend that reads keys from in (a terminal; raw mode is set on it while asking)
// and draws on out (a terminal; may be different from stdout, which can be redirected).
func NewSurvey(in, out *os.File) *Survey {
	return &Survey{in: in, out: out}
}

// Ask puts the questions of req to the person. Ctrl+C, Ctrl+D and Esc
// (in a list with no filter) return an error wrapping ask.ErrCancelled;
// when ctx ends while a prompt is open, the prompt is withdrawn, the
// terminal restored and ask.CtxErr(ctx) returned.
func (s *Survey) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if s.in == nil || s.out == nil {
		return nil, fmt.Errorf("%w: no terminal to ask on", ask.ErrNoAnswer)
	}
	if s.Plain {
		return s.askPlain(ctx, req)
	}
	t, end, err := startTerm(s.in, s.out, s.color())
	if errors.Is(err, errNoRawMode) {
		return s.askPlain(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	defer end()
	set := newSetState(req)
	if err := t.run(ctx, set); err != nil {
		_ = t.scr.withdraw()
		s.sayWonElsewhere(ctx, &t.scr, t.width())
		return nil, err
	}
	answers, err := set.answers()
	if err != nil {
		_ = t.scr.withdraw()
		return nil, err
	}
	if !ask.ClaimerOf(ctx).Claim(answers) {
		// Another frontend of a race answered a moment before the
		// person did here: its answers stand, and the terminal says so.
		_ = t.scr.withdraw()
		s.sayWonElsewhere(ctx, &t.scr, t.width())
		return nil, ask.CtxErr(ctx)
	}
	var confirm []line
	if !s.NoSummary {
		for _, a := range answers {
			confirm = append(confirm, wrapLine(confirmation(a), t.width(), nil, line{{"  ", ""}})...)
		}
	}
	// The claim made these the set's answers, and any other frontend of
	// the race was told so: a screen that can no longer show them (it
	// went away just after the pick) must not lose them.
	_ = t.scr.print(confirm)
	return answers, nil
}

// sayWonElsewhere, when another frontend of a race answered the set,
// prints where and what, for the person who was asked here too:
//
//	Answered in the browser:
//	  ✔ Database: SQLite
func (s *Survey) sayWonElsewhere(ctx context.Context, scr *screen, width int) {
	where, answers, ok := ask.ClaimerOf(ctx).Winner()
	if !ok || s.NoSummary {
		return
	}
	_ = scr.print(wonLines(where, answers, width))
}

// wonLines are sayWonElsewhere's lines, for a screen width cells wide.
func wonLines(where string, answers []ask.Answer, width int) []line {
	out := wrapText("Answered "+where+":", "", width, nil, nil)
	indent := line{{"  ", ""}}
	for _, a := range answers {
		out = append(out, wrapLine(confirmation(a), width, indent, line{{"    ", ""}})...)
	}
	return out
}

// color decides colouring: Color when set, else the environment.
func (s *Survey) color() bool {
	if s.Color != nil {
		return *s.Color
	}
	if v, ok := os.LookupEnv("CLICOLOR_FORCE"); ok && v != "" && v != "0" {
		return true
	}
	return os.Getenv("NO_COLOR") == "" && os.Getenv("CLICOLOR") != "0" && os.Getenv("TERM") != "dumb"
}

// confirmation is the line that replaces an answered question:
//
//	✔ Database: PostgreSQL
//	✔ Package Mgr: bun (typed)
//	✔ Features: (none)
func confirmation(a ask.Answer) line {
	return append(line{{"✔", okSGR}, {" ", ""}}, answerSegs(a)...)
}

// answerSegs is an answer in one line, as the confirmation and the
// review show it: "Database: PostgreSQL".
func answerSegs(a ask.Answer) line {
	name := ask.Display(a.Header)
	if name == "" {
		name = ask.Display(a.Question)
	}
	l := line{{name + ":", boldSGR}}
	if a.Skipped {
		return append(l, seg{" (none)", mutedSGR})
	}
	sep := " "
	for _, label := range a.Selected {
		l = append(l, seg{sep + ask.Display(label), ""})
		sep = ", "
	}
	if a.Custom != "" {
		l = append(l, seg{sep + ask.Display(a.Custom), ""}, seg{" (typed)", mutedSGR})
	}
	return l
}
