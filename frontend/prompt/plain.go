package prompt

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// plainPrompt asks with numbered lines and a typed answer, in the
// terminal's own line mode (its line editing, its echo, Ctrl+C as a
// signal), and writes no escape sequence at all: for TERM=dumb, --plain,
// ASKUSER_PLAIN=1, and terminals that cannot be put in raw mode.
type plainPrompt struct {
	in    *ttyReader
	out   io.Writer
	width int
	buf   []byte // read past the last line
}

func (s *Survey) askPlain(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	in, err := newTTYReader(s.in)
	if err != nil {
		return nil, fmt.Errorf("prepare terminal: %w", err)
	}
	defer in.Close()
	stop := context.AfterFunc(ctx, in.Cancel)
	defer stop()
	width, _ := termSize(s.out)
	discardTypeahead(int(in.Fd()))
	p := &plainPrompt{in: in, out: s.out, width: max(width-1, minWidth)}
	answers := make([]ask.Answer, len(req.Questions))
	for i := 0; i < len(req.Questions); {
		a, err := p.question(ctx, req, i)
		if errors.Is(err, errBack) {
			i--
			continue
		}
		if err != nil {
			p.println("")
			if cerr := ask.CtxErr(ctx); cerr != nil {
				s.sayPlainWonElsewhere(ctx, p)
				return nil, cerr
			}
			return nil, err
		}
		a.AnsweredAt = time.Now()
		answers[i] = a
		i++
	}
	if !ask.ClaimerOf(ctx).Claim(answers) {
		// Another frontend of a race answered a moment before.
		s.sayPlainWonElsewhere(ctx, p)
		return nil, ask.CtxErr(ctx)
	}
	// As in the full prompt, the ✔ lines come once the set is answered
	// and claimed, never one by one: an answer given before the deadline
	// passed or another frontend won, or changed after "<", never shows
	// as if it counted.
	if !s.NoSummary {
		for _, a := range answers {
			for _, l := range wrapLine(confirmation(a), p.width, nil, line{{"  ", ""}}) {
				p.println(l.plain())
			}
		}
	}
	return answers, nil
}

// sayPlainWonElsewhere is sayWonElsewhere for the plain prompt.
func (s *Survey) sayPlainWonElsewhere(ctx context.Context, p *plainPrompt) {
	where, answers, ok := ask.ClaimerOf(ctx).Winner()
	if !ok || s.NoSummary {
		return
	}
	for _, l := range wonLines(where, answers, p.width) {
		p.println(l.plain())
	}
}

// errBack is "<" typed at a question: go back to the one before.
var errBack = errors.New("back to the previous question")

// question shows question i of req and reads answers until one is valid.
func (p *plainPrompt) question(ctx context.Context, req ask.Request, i int) (ask.Answer, error) {
	q := req.Questions[i]
	st := newPromptState(q, false)
	fi := frameInfo{index: i, total: len(req.Questions), header: ask.Display(q.Header), agent: ask.Display(req.Agent), width: p.width + 1}
	var b strings.Builder
	b.WriteString("\n")
	head := headLines(fi, p.width)
	if len(head) > 0 && fi.header != "" {
		// No chip without colour and box lines: the header in brackets.
		head[0][0].text = "[" + fi.header + "]"
	}
	for _, l := range head {
		b.WriteString(l.plain() + "\n")
	}
	for _, l := range wrapText(ask.DisplayBlock(q.Question), "", p.width, nil, nil) {
		b.WriteString(l.plain() + "\n")
	}
	indent := line{{"     ", ""}}
	for n, e := range st.entries {
		label := e.label
		if e.rec {
			label += " (Recommended)"
		}
		for _, l := range wrapLine([]seg{{label, ""}}, p.width, line{{fmt.Sprintf("  %d. ", n+1), ""}}, indent) {
			b.WriteString(l.plain() + "\n")
		}
		for _, l := range wrapText(e.desc, "", p.width, indent, indent) {
			b.WriteString(l.plain() + "\n")
		}
	}
	p.print(b.String())
	detail := readableDetail(req.Detail)
	for {
		p.print(p.instructions(ctx, st, detail != "", i > 0))
		s, err := p.readLine()
		if err != nil {
			return ask.Answer{}, err
		}
		s = strings.TrimSpace(s)
		switch {
		case s == "?" && detail != "":
			p.say(detail)
			continue
		case s == "?":
			// Asking for help, not answering: "?" alone is no answer a
			// person means, and the Other number still takes it.
			p.say(fmt.Sprintf(`nothing more to show; to answer "?" itself, type %d, then ?`, st.otherIndex()+1))
			continue
		case s == "<" && i > 0:
			return ask.Answer{}, errBack
		case s == "<":
			p.say("there is no question before this one")
			continue
		}
		a, problem, err := p.parse(st, s)
		if err != nil {
			return ask.Answer{}, err
		}
		if problem == "" {
			return a, nil
		}
		p.say(problem)
	}
}

// instructions says how to answer, what Enter alone takes, and the
// time left under a deadline.
func (p *plainPrompt) instructions(ctx context.Context, st *promptState, detail, back bool) string {
	n := len(st.entries)
	s := fmt.Sprintf("Type a number (1-%d), or your own answer", n)
	if st.q.MultiSelect {
		s = "Type the numbers you choose (e.g. 1 3), none, or your own answer"
	}
	if i, ok := plainDefault(st); ok {
		s += fmt.Sprintf("; Enter for %d, %s (Recommended)", i+1, st.entries[i].label)
	}
	if back {
		s += "; < goes back"
	}
	if detail {
		s += "; ? shows the full input"
	}
	if deadline, ok := ctx.Deadline(); ok {
		s += fmt.Sprintf(" (%s left)", formatLeft(max(time.Until(deadline), 0)))
	}
	var b strings.Builder
	for _, l := range wrapText(s+":", "", p.width, nil, nil) {
		b.WriteString(l.plain() + "\n")
	}
	return b.String() + "> "
}

// parse reads a typed answer: numbers pick options (the last number is
// Other, which asks for the text), a label picks its option, and any other
// text is the answer itself, through Other. problem is set when the text
// cannot be taken, saying what to type.
func (p *plainPrompt) parse(st *promptState, s string) (a ask.Answer, problem string, err error) {
	n := len(st.entries)
	st.checked, st.otherText = make([]bool, n), ""
	if s == "" {
		return p.empty(st)
	}
	// An option labelled "None" is the person's pick, not "(none)".
	if st.q.MultiSelect && strings.EqualFold(s, "none") && st.q.LabelIndex(s) < 0 {
		a, err = st.answer() // nothing is ticked: skipped
		return a, "", err
	}
	picks, numeric := numbers(s)
	switch {
	case numeric:
		if len(picks) > 1 && !st.q.MultiSelect {
			return a, fmt.Sprintf("choose one: type one number from 1 to %d", n), nil
		}
		for _, k := range picks {
			if k < 1 || k > n {
				return a, fmt.Sprintf("no option %d: the numbers go from 1 to %d", k, n), nil
			}
			st.checked[k-1] = true
		}
		if st.checked[st.otherIndex()] {
			text, err := p.other()
			if err != nil {
				return a, "", err
			}
			st.otherText = text
		}
	case st.q.LabelIndex(s) >= 0:
		st.checked[st.q.LabelIndex(s)] = true
	default:
		st.otherText = ask.CleanFreeText(s)
		st.checked[st.otherIndex()] = true
	}
	a, err = st.answer()
	return a, "", err
}

// plainDefault is the option Enter alone takes: the recommended option
// of a single select, as the full prompt's cursor starts on it. A
// multi-select has none: its ticks are always the person's own.
func plainDefault(st *promptState) (int, bool) {
	rec := st.q.Recommended()
	if st.q.MultiSelect || len(rec) == 0 {
		return 0, false
	}
	return rec[0], true
}

// empty is an empty line: the default where there is one (named in the
// instructions), else a problem saying why it does not answer.
func (p *plainPrompt) empty(st *promptState) (ask.Answer, string, error) {
	n := len(st.entries)
	i, ok := plainDefault(st)
	switch {
	case ok:
		st.checked[i] = true
		a, err := st.answer()
		return a, "", err
	case st.q.MultiSelect:
		return ask.Answer{}, "type the numbers you choose, or none, or your own answer; ctrl+c cancels", nil
	}
	return ask.Answer{}, fmt.Sprintf("no option is recommended, so Enter alone does not answer: type a number from 1 to %d, or your own answer; ctrl+c cancels", n), nil
}

// numbers reads "1 3", "1,3" or "2": ok is false when s is not only
// numbers.
func numbers(s string) ([]int, bool) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
	var out []int
	for _, f := range fields {
		k, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		out = append(out, k)
	}
	return out, len(out) > 0
}

// other reads the text for "Other", asking again while it is empty.
func (p *plainPrompt) other() (string, error) {
	for {
		p.print("Please specify: ")
		s, err := p.readLine()
		if err != nil {
			return "", err
		}
		if s = ask.CleanFreeText(s); s != "" {
			return s, nil
		}
		p.say("an answer is needed: type it, or press ctrl+c to cancel")
	}
}

// readLine reads one line as the terminal's line mode delivers it. End
// of input (Ctrl+D on an empty line) is a cancel, never an answer.
func (p *plainPrompt) readLine() (string, error) {
	chunk := make([]byte, 512)
	for {
		if i := bytes.IndexByte(p.buf, '\n'); i >= 0 {
			s := string(p.buf[:i])
			p.buf = p.buf[i+1:]
			return strings.TrimSuffix(s, "\r"), nil
		}
		n, err := p.in.Read(chunk)
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("%w at the terminal (ctrl+d, or the terminal closed)", ask.ErrCancelled)
		}
		if err != nil {
			return "", err
		}
		p.buf = append(p.buf, chunk[:n]...)
	}
}

func (p *plainPrompt) print(s string)   { _, _ = io.WriteString(p.out, s) }
func (p *plainPrompt) println(s string) { p.print(s + "\n") }

// say writes text wrapped to the terminal's width.
func (p *plainPrompt) say(s string) {
	var b strings.Builder
	for _, l := range wrapText(s, "", p.width, nil, nil) {
		b.WriteString(l.plain() + "\n")
	}
	p.print(b.String())
}
