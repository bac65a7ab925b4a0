package frontend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/AlecAivazis/survey/v2"
	"github.com/AlecAivazis/survey/v2/terminal"
	"golang.org/x/term"

	"github.com/askuser/askuser/ask"
)

// Survey asks a person at a terminal.
//
// Each question is drawn as its header chip, "Question i of n" when the set
// has more than one, the question, and every option with its description,
// plus "Other" for free text. After the last question a one-line summary per
// answer is printed. Every answer is marked ask.SourcePerson: a person chose
// it with the keys. A Survey asks one set at a time: there is one terminal.
type Survey struct {
	in, out *os.File

	// NoSummary leaves out the "✔ Header: answer" lines printed after the
	// last question, for callers that show the answers themselves.
	NoSummary bool
	// Color, when set, says whether to colour (the wiring asks
	// iostreams.ColorEnabled); nil reads the environment as survey does.
	Color *bool
}

var _ ask.Frontend = (*Survey)(nil)

// NewSurvey returns a frontend that reads keys from in (a terminal; raw mode is set on it while asking)
// and draws on out (a terminal; may be different from stdout, which can be redirected).
func NewSurvey(in, out *os.File) *Survey {
	return &Survey{in: in, out: out}
}

// otherDescription is shown under the "Other" option of every question.
const otherDescription = "Type your own answer"

// optionIndent lines descriptions up under their labels ("❯ ● " is four
// columns wide).
const optionIndent = 4

// Ask puts each question of req to the person in turn. Ctrl+C returns an
// error wrapping ask.ErrCancelled; when ctx ends while a prompt is open, the
// prompt is closed, the terminal restored and ask.CtxErr(ctx) returned.
func (s *Survey) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if s.in == nil || s.out == nil {
		return nil, fmt.Errorf("%w: no terminal to ask on", ask.ErrNoAnswer)
	}
	installSurveyTemplates()
	in, err := newTTYReader(s.in)
	if err != nil {
		return nil, fmt.Errorf("prepare terminal: %w", err)
	}
	defer in.Close()
	stop := context.AfterFunc(ctx, in.Cancel)
	defer stop()

	color := surveyColor()
	if s.Color != nil {
		color = *s.Color
	}
	st := surveyStyle{color: color}
	opts := []survey.AskOpt{
		survey.WithStdio(in, s.out, s.out),
		survey.WithIcons(st.icons),
		// Select-all would tick "Other" too; a person picks what they mean.
		survey.WithRemoveSelectAll(),
		survey.WithRemoveSelectNone(),
	}
	width, _, err := term.GetSize(int(s.out.Fd()))
	if err != nil {
		width = 0 // unknown: let the terminal wrap
	}
	answers := make([]ask.Answer, 0, len(req.Questions))
	for i, q := range req.Questions {
		if err := ask.CtxErr(ctx); err != nil {
			return nil, err
		}
		s.printHeading(st, q, i, len(req.Questions))
		a, err := s.askQuestion(q, width, opts)
		if err != nil {
			// survey leaves the cursor at the end of the prompt it drew.
			_, _ = io.WriteString(s.out, "\n")
			return nil, surveyError(ctx, err)
		}
		answers = append(answers, a)
	}
	if !s.NoSummary {
		s.printSummary(st, answers)
	}
	return answers, nil
}

// printHeading draws the header chip and the progress through the set.
func (s *Survey) printHeading(st surveyStyle, q ask.Question, i, n int) {
	var b strings.Builder
	if i > 0 {
		b.WriteString("\n")
	}
	var parts []string
	if h := ask.Display(q.Header); h != "" {
		parts = append(parts, st.paint(chipSGR, "╭─ "+h+" ─╮"))
	}
	if n > 1 {
		parts = append(parts, st.paint(mutedSGR, fmt.Sprintf("Question %d of %d", i+1, n)))
	}
	if len(parts) > 0 {
		b.WriteString(strings.Join(parts, "  ") + "\n")
	}
	_, _ = io.WriteString(s.out, b.String())
}

// askQuestion shows one question's options and reads the choice. Options
// are shown sanitised but chosen by index, so the answer names the
// option's own label whatever its display looked like.
func (s *Survey) askQuestion(q ask.Question, width int, opts []survey.AskOpt) (ask.Answer, error) {
	labels := make([]string, 0, len(q.Options)+1)
	descs := make([]string, 0, len(q.Options)+1)
	for _, o := range q.Options {
		labels = append(labels, ask.Display(o.Label))
		descs = append(descs, wrapText(ask.Display(o.Description), width-optionIndent-1, optionIndent))
	}
	other := len(labels)
	labels = append(labels, ask.OtherLabel)
	descs = append(descs, otherDescription)
	describe := func(_ string, i int) string { return descs[i] }
	message := strings.TrimSpace(ask.DisplayBlock(q.Question))

	var picked []int
	if q.MultiSelect {
		// Nothing is ticked at first, recommended or not: a tick must be
		// the person's own.
		p := &survey.MultiSelect{Message: message, Options: labels, Description: describe, PageSize: len(labels)}
		if err := survey.AskOne(p, &picked, opts...); err != nil {
			return ask.Answer{}, err
		}
	} else {
		p := &survey.Select{Message: message, Options: labels, Description: describe, PageSize: len(labels)}
		if rec := q.Recommended(); len(rec) > 0 {
			p.Default = rec[0]
		}
		var i int
		if err := survey.AskOne(p, &i, opts...); err != nil {
			return ask.Answer{}, err
		}
		picked = []int{i}
	}

	var chosen []string
	custom := ""
	for _, i := range picked {
		if i != other {
			chosen = append(chosen, q.Options[i].Label)
			continue
		}
		var err error
		if custom, err = askOther(opts); err != nil {
			return ask.Answer{}, err
		}
	}
	a, err := ask.Selection(q, chosen, custom, ask.SourcePerson)
	if err != nil {
		return ask.Answer{}, fmt.Errorf("question %q: %w", ask.Display(q.Header), err)
	}
	a.AnsweredAt = time.Now()
	return a, nil
}

// askOther reads the free text for "Other", asking again while it is empty.
func askOther(opts []survey.AskOpt) (string, error) {
	var text string
	qs := []*survey.Question{{
		Prompt: &survey.Input{Message: "Please specify:"},
		Validate: func(v any) error {
			if s, _ := v.(string); ask.CleanFreeText(s) == "" {
				return errors.New("an answer is needed: type it, or press ctrl+c to cancel")
			}
			return nil
		},
		// Cleaned before survey echoes it back as the answer.
		Transform: func(v any) any {
			s, _ := v.(string)
			return ask.CleanFreeText(s)
		},
	}}
	if err := survey.Ask(qs, &text, opts...); err != nil {
		return "", err
	}
	return text, nil
}

// surveyError translates survey's errors into ask's sentinels. A prompt
// that ended because ctx did reports ctx's cause, not the read error that
// unwound it.
func surveyError(ctx context.Context, err error) error {
	if cerr := ask.CtxErr(ctx); cerr != nil {
		return cerr
	}
	switch {
	case errors.Is(err, terminal.InterruptErr):
		return fmt.Errorf("%w at the terminal (ctrl+c)", ask.ErrCancelled)
	case errors.Is(err, io.EOF):
		return fmt.Errorf("%w: the terminal closed", ask.ErrNoAnswer)
	}
	return fmt.Errorf("terminal prompt: %w", err)
}

// printSummary confirms every answer on one line:
//
//	✔ Database: PostgreSQL
//	✔ Package Mgr: bun (typed)
//	✔ Features: (none)
func (s *Survey) printSummary(st surveyStyle, answers []ask.Answer) {
	if len(answers) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString("\n")
	for _, a := range answers {
		name := ask.Display(a.Header)
		if name == "" {
			name = ask.Display(a.Question)
		}
		var parts []string
		for _, l := range a.Selected {
			parts = append(parts, ask.Display(l))
		}
		if a.Custom != "" {
			parts = append(parts, ask.Display(a.Custom)+" "+st.paint(mutedSGR, "(typed)"))
		}
		value := strings.Join(parts, ", ")
		if a.Skipped {
			value = st.paint(mutedSGR, "(none)")
		}
		fmt.Fprintf(&b, "%s %s %s\n", st.paint(okSGR, "✔"), st.paint(boldSGR, name+":"), value)
	}
	_, _ = io.WriteString(s.out, b.String())
}

// Our own colours (header chip, progress, summary), as SGR parameters.
const (
	chipSGR  = "1;38;5;105" // bold indigo, the "primary" of the design
	mutedSGR = "90"         // grey
	okSGR    = "32"         // green
	boldSGR  = "1"
)

// surveyStyle holds the colour decision for one Ask.
type surveyStyle struct{ color bool }

// surveyColor follows the same environment as survey: NO_COLOR or
// CLICOLOR=0 turn colour off, unless CLICOLOR_FORCE is set (and not 0).
func surveyColor() bool {
	if v, ok := os.LookupEnv("CLICOLOR_FORCE"); ok && v != "0" {
		return true
	}
	return os.Getenv("NO_COLOR") == "" && os.Getenv("CLICOLOR") != "0"
}

// paint wraps s in the SGR sequence sgr when colour is on.
func (st surveyStyle) paint(sgr, s string) string {
	if !st.color {
		return s
	}
	return "\x1b[" + sgr + "m" + s + "\x1b[0m"
}

// icons carries the colours our templates use. survey compiles a template
// once per process, deciding colour from the environment at that moment,
// so our templates take every colour from these formats instead, set for
// each Ask: with colour off they are all empty and nothing is coloured.
// Help and HelpInput are not otherwise used by the prompts we show, so
// they carry the muted colour and the reset.
func (st surveyStyle) icons(set *survey.IconSet) {
	f := func(format string) string {
		if !st.color {
			return ""
		}
		return format
	}
	set.Question = survey.Icon{Text: "?", Format: f("default+b")}
	set.SelectFocus = survey.Icon{Text: "❯", Format: f("cyan+b")}
	set.MarkedOption = survey.Icon{Text: "☑", Format: f("green+b")}
	set.UnmarkedOption = survey.Icon{Text: "☐", Format: f("default")}
	set.Error = survey.Icon{Text: "✘", Format: f("red")}
	set.Help = survey.Icon{Text: "", Format: f("black+h")} // muted
	set.HelpInput = survey.Icon{Text: "", Format: f("reset")}
}

// The templates replace survey's so that every option shows its
// description under it (survey shows it beside the label, in colour that
// ignores NO_COLOR), with a line of keyboard hints. In them,
// .Config.Icons.Help.Format is the muted colour and .Config.Icons.HelpInput.Format
// the reset (see surveyStyle.icons).
const (
	surveySelectTemplate = `
{{- define "option"}}
	{{- if eq .SelectedIndex .CurrentIndex}}{{color .Config.Icons.SelectFocus.Format}}{{.Config.Icons.SelectFocus.Text}} ● {{else}}  ○ {{end}}
	{{- .CurrentOpt.Value}}{{color .Config.Icons.HelpInput.Format}}{{"\n"}}
	{{- with $.GetDescription .CurrentOpt}}    {{color $.Config.Icons.Help.Format}}{{.}}{{color $.Config.Icons.HelpInput.Format}}{{"\n"}}{{end}}
{{- end}}
{{- color .Config.Icons.Question.Format}}{{.Message}}{{color .Config.Icons.HelpInput.Format}}
{{- if .ShowAnswer}} {{color .Config.Icons.SelectFocus.Format}}› {{.Answer}}{{color .Config.Icons.HelpInput.Format}}{{"\n"}}
{{- else}}{{"\n"}}
	{{- range $ix, $option := .PageEntries}}{{template "option" $.IterateOption $ix $option}}{{end}}
	{{- color .Config.Icons.Help.Format}}  ↑↓ move • enter select • {{if .FilterMessage}}filter:{{.FilterMessage}}{{else}}type to filter{{end}} • ctrl+c cancel{{color .Config.Icons.HelpInput.Format}}
{{- end}}`

	surveyMultiSelectTemplate = `
{{- define "option"}}
	{{- if eq .SelectedIndex .CurrentIndex}}{{color .Config.Icons.SelectFocus.Format}}{{.Config.Icons.SelectFocus.Text}}{{color .Config.Icons.HelpInput.Format}} {{else}}  {{end}}
	{{- if index .Checked .CurrentOpt.Index}}{{color .Config.Icons.MarkedOption.Format}}{{.Config.Icons.MarkedOption.Text}}{{else}}{{color .Config.Icons.UnmarkedOption.Format}}{{.Config.Icons.UnmarkedOption.Text}}{{end}}
	{{- color .Config.Icons.HelpInput.Format}} {{if eq .SelectedIndex .CurrentIndex}}{{color .Config.Icons.SelectFocus.Format}}{{end}}{{.CurrentOpt.Value}}{{color .Config.Icons.HelpInput.Format}}{{"\n"}}
	{{- with $.GetDescription .CurrentOpt}}    {{color $.Config.Icons.Help.Format}}{{.}}{{color $.Config.Icons.HelpInput.Format}}{{"\n"}}{{end}}
{{- end}}
{{- color .Config.Icons.Question.Format}}{{.Message}}{{color .Config.Icons.HelpInput.Format}}
{{- if .ShowAnswer}} {{color .Config.Icons.SelectFocus.Format}}› {{if .Answer}}{{.Answer}}{{else}}(none){{end}}{{color .Config.Icons.HelpInput.Format}}{{"\n"}}
{{- else}}{{"\n"}}
	{{- range $ix, $option := .PageEntries}}{{template "option" $.IterateOption $ix $option}}{{end}}
	{{- color .Config.Icons.Help.Format}}  ↑↓ move • space toggle • enter confirm • {{if .FilterMessage}}filter:{{.FilterMessage}}{{else}}type to filter{{end}} • ctrl+c cancel{{color .Config.Icons.HelpInput.Format}}
{{- end}}`

	surveyInputTemplate = `
{{- color .Config.Icons.Question.Format}}  {{.Message}}{{color .Config.Icons.HelpInput.Format}}{{" "}}
{{- if .ShowAnswer}}{{color .Config.Icons.SelectFocus.Format}}{{.Answer}}{{color .Config.Icons.HelpInput.Format}}{{"\n"}}{{end}}`

	// The error data has no Config; reset only if a colour was set.
	surveyErrorTemplate = `  {{color .Icon.Format}}{{.Icon.Text}} {{.Error.Error}}{{if .Icon.Format}}{{color "reset"}}{{end}}
`
)

var surveyTemplatesOnce sync.Once

// installSurveyTemplates puts our templates in place of survey's, once:
// survey reads them from package variables.
func installSurveyTemplates() {
	surveyTemplatesOnce.Do(func() {
		survey.SelectQuestionTemplate = surveySelectTemplate
		survey.MultiSelectQuestionTemplate = surveyMultiSelectTemplate
		survey.InputQuestionTemplate = surveyInputTemplate
		survey.ErrorTemplate = surveyErrorTemplate
	})
}

// wrapText breaks s into lines of at most width columns at spaces,
// indenting every line after the first by indent spaces. A width too small
// to be useful (or unknown) leaves s to the terminal.
func wrapText(s string, width, indent int) string {
	if width < 20 || terminal.StringWidth(s) <= width {
		return s
	}
	var b strings.Builder
	col := 0
	for _, w := range strings.Fields(s) {
		ww := terminal.StringWidth(w)
		if col > 0 && col+1+ww > width {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		b.WriteString(w)
		col += ww
	}
	return b.String()
}
