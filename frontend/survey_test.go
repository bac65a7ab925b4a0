// The pty, expect and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package frontend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"golang.org/x/term"

	"github.com/askuser/askuser/ask"
)

// Keys as a terminal sends them.
const (
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keyEnter = "\r"
	keyCtrlC = "\x03"
)

// waitLimit bounds every wait in these tests, so a broken prompt fails the
// test instead of hanging it.
const waitLimit = 20 * time.Second

// syncBuffer records the raw bytes the program wrote to the terminal.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// surveyConsole is a pseudo-terminal with an emulated screen (vt10x, which
// also answers survey's cursor-position queries), driven with go-expect,
// the way survey's own survey_posix_test.go does it.
type surveyConsole struct {
	t      *testing.T
	c      *expect.Console
	screen vt10x.Terminal
	raw    *syncBuffer
	cooked *term.State // the terminal's mode before any prompt
}

type surveyResult struct {
	answers []ask.Answer
	err     error
}

func newSurveyConsole(t *testing.T) *surveyConsole {
	t.Helper()
	// vt10x writes its replies to a second pty; go-expect copies them to
	// the program's input.
	replies, replyTTY, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	screen := vt10x.New(vt10x.WithWriter(replyTTY), vt10x.WithSize(80, 40))
	raw := &syncBuffer{}
	c, err := expect.NewConsole(
		expect.WithStdin(replies),
		expect.WithStdout(screen, raw),
		expect.WithCloser(replies, replyTTY),
		expect.WithDefaultTimeout(waitLimit),
	)
	if err != nil {
		t.Fatalf("new console: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := pty.Setsize(c.Tty(), &pty.Winsize{Rows: 40, Cols: 80}); err != nil {
		t.Fatalf("set pty size: %v", err)
	}
	cooked, err := term.GetState(int(c.Tty().Fd()))
	if err != nil {
		t.Fatalf("get terminal state: %v", err)
	}
	return &surveyConsole{t: t, c: c, screen: screen, raw: raw, cooked: cooked}
}

// ask runs Survey.Ask on the console's terminal in the background.
func (sc *surveyConsole) ask(ctx context.Context, s *Survey, req ask.Request) <-chan surveyResult {
	ch := make(chan surveyResult, 1)
	go func() {
		a, err := s.Ask(ctx, req)
		ch <- surveyResult{a, err}
	}()
	return ch
}

// start asks req with a fresh Survey; the context is cancelled when the
// test ends, which also ends a prompt left open by a failed test.
func (sc *surveyConsole) start(req ask.Request) <-chan surveyResult {
	ctx, cancel := context.WithCancel(context.Background())
	sc.t.Cleanup(cancel)
	return sc.ask(ctx, NewSurvey(sc.c.Tty(), sc.c.Tty()), req)
}

// expect waits for s in what the program writes.
func (sc *surveyConsole) expect(s string) {
	sc.t.Helper()
	if out, err := sc.c.ExpectString(s); err != nil {
		sc.t.Fatalf("waiting for %q: %v\nread so far: %q\nscreen:\n%s", s, err, out, sc.screen.String())
	}
}

// screenMatcher matches when the emulated screen shows every one of texts,
// whatever colour codes or cursor moves drew them. It looks only when the
// last character of the last text has just been written, so a match is
// not taken from a screen caught halfway through a redraw.
type screenMatcher struct {
	screen vt10x.Terminal
	texts  []string
	last   []byte
}

func (m *screenMatcher) Match(v any) bool {
	buf, ok := v.(*bytes.Buffer)
	if !ok || !bytes.HasSuffix(buf.Bytes(), m.last) {
		return false
	}
	screen := m.screen.String()
	for _, t := range m.texts {
		if !strings.Contains(screen, t) {
			return false
		}
	}
	return true
}

func (m *screenMatcher) Criteria() any { return m.texts }

// expectScreen waits until the screen shows all of texts at once.
func (sc *surveyConsole) expectScreen(texts ...string) {
	sc.t.Helper()
	final := texts[len(texts)-1]
	_, size := utf8.DecodeLastRuneInString(final)
	m := &screenMatcher{screen: sc.screen, texts: texts, last: []byte(final[len(final)-size:])}
	opt := func(o *expect.ExpectOpts) error {
		o.Matchers = append(o.Matchers, m)
		return nil
	}
	if _, err := sc.c.Expect(opt); err != nil {
		sc.t.Fatalf("waiting for %q on screen: %v\nscreen:\n%s", texts, err, sc.screen.String())
	}
}

// prompt waits for a prompt line ending in s and for survey to put the
// terminal in raw mode, so keys sent next reach the prompt as keys.
func (sc *surveyConsole) prompt(s string) {
	sc.t.Helper()
	sc.expect(s)
	for deadline := time.Now().Add(waitLimit); !sc.isRaw(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			sc.t.Fatalf("terminal not put in raw mode after %q", s)
		}
	}
}

// isRaw reports whether the terminal's mode differs from the cooked mode it
// started in.
func (sc *surveyConsole) isRaw() bool {
	sc.t.Helper()
	raw, err := sc.modeChanged()
	if err != nil {
		sc.t.Fatal(err)
	}
	return raw
}

func (sc *surveyConsole) modeChanged() (bool, error) {
	st, err := term.GetState(int(sc.c.Tty().Fd()))
	if err != nil {
		return false, fmt.Errorf("get terminal state: %w", err)
	}
	return !reflect.DeepEqual(st, sc.cooked), nil
}

func (sc *surveyConsole) send(keys ...string) {
	sc.t.Helper()
	for _, k := range keys {
		// One write per key, so an escape sequence arrives whole.
		if _, err := sc.c.Send(k); err != nil {
			sc.t.Fatalf("send %q: %v", k, err)
		}
	}
}

func (sc *surveyConsole) wait(ch <-chan surveyResult) surveyResult {
	sc.t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(waitLimit):
		sc.t.Fatalf("Ask did not return\nscreen:\n%s", sc.screen.String())
		return surveyResult{}
	}
}

// finish waits for Ask while reading what it writes (survey's "Please
// specify:" prompt waits for the screen to report the cursor position,
// which only happens while output is read). It requires the terminal to be
// back in cooked mode, then closes it, so raw holds every byte the program
// wrote and the screen shows all of it.
func (sc *surveyConsole) finish(ch <-chan surveyResult) surveyResult {
	sc.t.Helper()
	type end struct {
		r      surveyResult
		modeOK bool
		err    error
	}
	ends := make(chan end, 1)
	go func() {
		r := <-ch
		raw, err := sc.modeChanged()
		sc.c.Tty().Close()
		ends <- end{r, !raw, err}
	}()
	if _, err := sc.c.ExpectEOF(); err != nil {
		sc.t.Fatalf("reading output until Ask returns: %v\nscreen:\n%s", err, sc.screen.String())
	}
	select {
	case e := <-ends:
		if e.err != nil {
			sc.t.Fatal(e.err)
		}
		if !e.modeOK {
			sc.t.Error("terminal left in raw mode")
		}
		return e.r
	case <-time.After(waitLimit):
		sc.t.Fatalf("Ask did not return\nscreen:\n%s", sc.screen.String())
		return surveyResult{}
	}
}

// screenLine returns the first line of the screen containing s.
func (sc *surveyConsole) screenLine(s string) string {
	sc.t.Helper()
	screen := sc.screen.String()
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimRight(l, " ")
		}
	}
	sc.t.Fatalf("%q not on screen:\n%s", s, screen)
	return ""
}

// requireCooked fails unless the terminal is back in the mode it started in.
func (sc *surveyConsole) requireCooked() {
	sc.t.Helper()
	if sc.isRaw() {
		sc.t.Fatal("terminal left in raw mode")
	}
}

// checkAnswers compares answers, requiring AnsweredAt to be set.
func checkAnswers(t *testing.T, got []ask.Answer, want ...ask.Answer) {
	t.Helper()
	for i := range got {
		if got[i].AnsweredAt.IsZero() {
			t.Errorf("answer %d: AnsweredAt not set", i)
		}
		got[i].AnsweredAt = time.Time{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("answers:\n got %#v\nwant %#v", got, want)
	}
}

// colorOff and colorOn fix the colour environment for one test.
func colorOff(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("CLICOLOR_FORCE", "0")
}

func colorOn(t *testing.T) {
	t.Setenv("NO_COLOR", "")
	t.Setenv("CLICOLOR", "")
	t.Setenv("CLICOLOR_FORCE", "0")
}

var sgrPattern = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

func databaseQuestion() ask.Question {
	return ask.Question{
		Question: "Which database should we use?",
		Header:   "Database",
		Options: []ask.Option{
			{Label: "MongoDB", Description: "Document DB, flexible schema"},
			{Label: "PostgreSQL (Recommended)", Description: "Robust relational DB"},
			{Label: "SQLite", Description: "Embedded DB, zero configuration"},
		},
	}
}

func featuresQuestion() ask.Question {
	return ask.Question{
		Question:    "Which features should we enable?",
		Header:      "Features",
		MultiSelect: true,
		Options: []ask.Option{
			{Label: "TypeScript", Description: "Type safety and better IDE support"},
			{Label: "ESLint + Prettier (Recommended)", Description: "Code linting and formatting"},
			{Label: "Testing (Vitest)", Description: "Unit and component testing"},
			{Label: "Tailwind CSS", Description: "Utility-first CSS framework"},
		},
	}
}

func person(q ask.Question, selected []string, custom string) ask.Answer {
	return ask.Answer{
		Question: q.Question, Header: q.Header, Selected: selected, Custom: custom,
		Skipped: len(selected) == 0 && custom == "", Source: ask.SourcePerson,
	}
}

func TestSurveySingleSelect(t *testing.T) {
	q := databaseQuestion()
	for _, tc := range []struct {
		name string
		keys []string
		want string
	}{
		{"another option", []string{keyUp, keyEnter}, "MongoDB"},
		{"recommended, bare", []string{keyDown, keyUp, keyEnter}, "PostgreSQL"},
		{"wrapping past Other", []string{keyDown, keyDown, keyDown, keyEnter}, "MongoDB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newSurveyConsole(t)
			done := sc.start(ask.Request{ID: "r1", Questions: []ask.Question{q}})
			sc.prompt("ctrl+c cancel")
			// One question: no "Question 1 of 1".
			if got := sc.screenLine("Database"); got != "╭─ Database ─╮" {
				t.Errorf("heading = %q", got)
			}
			if got := sc.screenLine("Which database"); got != "Which database should we use?" {
				t.Errorf("question line = %q", got)
			}
			// The recommended option is second, yet the cursor starts on it.
			if got := sc.screenLine("❯"); got != "❯ ● PostgreSQL (Recommended)" {
				t.Fatalf("cursor line = %q, want it on the recommended option", got)
			}
			if got := sc.screenLine("MongoDB"); got != "  ○ MongoDB" {
				t.Errorf("unfocused option line = %q", got)
			}
			sc.send(tc.keys...)
			sc.expectScreen("✔ Database: " + tc.want)
			r := sc.finish(done)
			if r.err != nil {
				t.Fatalf("Ask: %v", r.err)
			}
			checkAnswers(t, r.answers, person(q, []string{tc.want}, ""))
		})
	}
}

func TestSurveyMultiSelect(t *testing.T) {
	q := featuresQuestion()
	t.Run("two options, in option order", func(t *testing.T) {
		sc := newSurveyConsole(t)
		done := sc.start(ask.Request{ID: "r2", Questions: []ask.Question{q}})
		sc.prompt("ctrl+c cancel")
		// Recommended options are not ticked for the person.
		if got := sc.screenLine("ESLint"); got != "  ☐ ESLint + Prettier (Recommended)" {
			t.Errorf("recommended option line = %q, want it unticked", got)
		}
		if got := sc.screenLine("❯"); got != "❯ ☐ TypeScript" {
			t.Errorf("cursor line = %q, want the first option", got)
		}
		// Tick Tailwind CSS first, then TypeScript.
		sc.send(keyDown, keyDown, keyDown, " ", keyUp, keyUp, keyUp, " ")
		sc.expectScreen("❯ ☑ TypeScript", "  ☑ Tailwind CSS", "ctrl+c cancel")
		sc.send(keyEnter)
		sc.expectScreen("✔ Features: TypeScript, Tailwind CSS")
		r := sc.finish(done)
		if r.err != nil {
			t.Fatalf("Ask: %v", r.err)
		}
		checkAnswers(t, r.answers, person(q, []string{"TypeScript", "Tailwind CSS"}, ""))
	})
	t.Run("nothing ticked is skipped", func(t *testing.T) {
		sc := newSurveyConsole(t)
		done := sc.start(ask.Request{ID: "r3", Questions: []ask.Question{q}})
		sc.prompt("ctrl+c cancel")
		sc.send(keyEnter)
		sc.expectScreen("✔ Features: (none)")
		r := sc.finish(done)
		if r.err != nil {
			t.Fatalf("Ask: %v", r.err)
		}
		checkAnswers(t, r.answers, person(q, []string{}, ""))
		if !r.answers[0].Skipped {
			t.Error("Skipped not set")
		}
	})
	t.Run("an option and Other", func(t *testing.T) {
		sc := newSurveyConsole(t)
		done := sc.start(ask.Request{ID: "r4", Questions: []ask.Question{q}})
		sc.prompt("ctrl+c cancel")
		sc.send(" ", keyUp, " ", keyEnter) // TypeScript, then Other (wrapping up)
		sc.prompt("Please specify:")
		sc.send("Biome", keyEnter)
		sc.expectScreen("✔ Features: TypeScript, Biome (typed)")
		r := sc.finish(done)
		if r.err != nil {
			t.Fatalf("Ask: %v", r.err)
		}
		checkAnswers(t, r.answers, person(q, []string{"TypeScript"}, "Biome"))
	})
}

func TestSurveyOther(t *testing.T) {
	q := databaseQuestion()
	sc := newSurveyConsole(t)
	done := sc.start(ask.Request{ID: "r5", Questions: []ask.Question{q}})
	sc.prompt("ctrl+c cancel")
	if got := sc.screenLine("○ Other"); got != "  ○ Other" {
		t.Errorf("Other line = %q", got)
	}
	sc.screenLine(otherDescription)
	sc.send(keyDown, keyDown, keyEnter)
	sc.prompt("Please specify:")
	// Empty or blank text is asked for again.
	sc.send("   ", keyEnter)
	sc.expect("an answer is needed")
	sc.prompt("Please specify:")
	sc.send("  CockroachDB  ", keyEnter)
	sc.expectScreen("✔ Database: CockroachDB (typed)")
	r := sc.finish(done)
	if r.err != nil {
		t.Fatalf("Ask: %v", r.err)
	}
	checkAnswers(t, r.answers, person(q, []string{}, "CockroachDB"))
}

func TestSurveyCtrlC(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string // to reach the prompt where ctrl+c is pressed
		at   string
	}{
		{"at the options", nil, ""},
		{"at Please specify", []string{keyDown, keyDown, keyEnter}, "Please specify:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newSurveyConsole(t)
			done := sc.start(ask.Request{ID: "r6", Questions: []ask.Question{databaseQuestion()}})
			sc.prompt("ctrl+c cancel")
			if tc.keys != nil {
				sc.send(tc.keys...)
				sc.prompt(tc.at)
			}
			sc.send(keyCtrlC)
			r := sc.finish(done)
			if !errors.Is(r.err, ask.ErrCancelled) {
				t.Fatalf("Ask error = %v, want ask.ErrCancelled", r.err)
			}
			if r.answers != nil {
				t.Errorf("answers = %v, want none", r.answers)
			}
			if !sc.screen.CursorVisible() {
				t.Error("cursor left hidden")
			}
		})
	}
}

func TestSurveyContextEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string // to reach the prompt that is open when ctx ends
		at   string
		want error
	}{
		{"deadline at the options", nil, "", ask.ErrTimeout},
		{"cancel at the options", nil, "", ask.ErrCancelled},
		{"cancel at Please specify", []string{keyDown, keyDown, keyEnter}, "Please specify:", ask.ErrCancelled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := newSurveyConsole(t)
			ctx, cancel := context.WithCancel(context.Background())
			if tc.want == ask.ErrTimeout {
				// Long enough for the prompt to open first; the test
				// checks that it did.
				ctx, cancel = context.WithTimeout(context.Background(), 2*time.Second)
			}
			defer cancel()
			done := sc.ask(ctx, NewSurvey(sc.c.Tty(), sc.c.Tty()), ask.Request{ID: "r7", Questions: []ask.Question{databaseQuestion()}})
			sc.prompt("ctrl+c cancel")
			if tc.keys != nil {
				sc.send(tc.keys...)
				sc.prompt(tc.at)
			}
			if tc.want == ask.ErrCancelled {
				cancel()
			}
			r := sc.wait(done)
			if !errors.Is(r.err, tc.want) {
				t.Fatalf("Ask error = %v, want %v", r.err, tc.want)
			}
			if r.answers != nil {
				t.Errorf("answers = %v, want none", r.answers)
			}
			sc.requireCooked()

			// Nothing is left reading the terminal: a line typed now
			// reaches a fresh reader.
			sc.send("x\n")
			fresh, err := newTTYReader(sc.c.Tty())
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			timer := time.AfterFunc(waitLimit, fresh.Cancel)
			defer timer.Stop()
			buf := make([]byte, 16)
			n, err := fresh.Read(buf)
			if err != nil || string(buf[:n]) != "x\n" {
				t.Fatalf("fresh read = %q, %v; want \"x\\n\" (was the key taken by a leftover reader?)", buf[:n], err)
			}

			sc.c.Tty().Close()
			if _, err := sc.c.ExpectEOF(); err != nil {
				t.Fatalf("reading the rest of the output: %v", err)
			}
			if !sc.screen.CursorVisible() {
				t.Error("cursor left hidden")
			}
		})
	}
}

func TestSurveyContextDoneBeforeAsking(t *testing.T) {
	sc := newSurveyConsole(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := sc.finish(sc.ask(ctx, NewSurvey(sc.c.Tty(), sc.c.Tty()), ask.Request{ID: "r8", Questions: []ask.Question{databaseQuestion()}}))
	if !errors.Is(r.err, ask.ErrCancelled) {
		t.Fatalf("Ask error = %v, want ask.ErrCancelled", r.err)
	}
	if raw := sc.raw.String(); raw != "" {
		t.Errorf("drew %q for a question set it was too late to ask", raw)
	}
}

func TestSurveyTwoQuestions(t *testing.T) {
	colorOn(t)
	q1, q2 := databaseQuestion(), featuresQuestion()
	sc := newSurveyConsole(t)
	done := sc.start(ask.Request{ID: "r9", Questions: []ask.Question{q1, q2}})

	// requireOptions checks every option's description is shown under it.
	requireOptions := func(q ask.Question) {
		t.Helper()
		lines := strings.Split(sc.screen.String(), "\n")
		opts := append(append([]ask.Option{}, q.Options...), ask.Option{Label: ask.OtherLabel, Description: otherDescription})
		for _, o := range opts {
			i := 0
			for i < len(lines) && !strings.HasSuffix(strings.TrimRight(lines[i], " "), " "+o.Label) {
				i++
			}
			if i+1 >= len(lines) || strings.TrimRight(lines[i+1], " ") != "    "+o.Description {
				t.Errorf("option %q not shown with its description %q under it:\n%s", o.Label, o.Description, strings.Join(lines, "\n"))
			}
		}
	}

	sc.prompt("ctrl+c cancel")
	if got := sc.screenLine("Question 1 of 2"); got != "╭─ Database ─╮  Question 1 of 2" {
		t.Errorf("heading = %q", got)
	}
	sc.screenLine("↑↓ move • enter select")
	requireOptions(q1)
	sc.send(keyEnter)

	sc.prompt("ctrl+c cancel")
	if got := sc.screenLine("Question 2 of 2"); got != "╭─ Features ─╮  Question 2 of 2" {
		t.Errorf("heading = %q", got)
	}
	if got := sc.screenLine("Which database"); got != "Which database should we use? › PostgreSQL (Recommended)" {
		t.Errorf("first question after answering = %q", got)
	}
	sc.screenLine("space toggle")
	requireOptions(q2)
	sc.send(" ", keyDown, keyDown, keyDown, " ", keyEnter)

	r := sc.finish(done)
	if r.err != nil {
		t.Fatalf("Ask: %v", r.err)
	}
	checkAnswers(t, r.answers,
		person(q1, []string{"PostgreSQL"}, ""),
		person(q2, []string{"TypeScript", "Tailwind CSS"}, ""))
	if got := sc.screenLine("✔ Database"); got != "✔ Database: PostgreSQL" {
		t.Errorf("summary line = %q", got)
	}
	if got := sc.screenLine("✔ Features"); got != "✔ Features: TypeScript, Tailwind CSS" {
		t.Errorf("summary line = %q", got)
	}
	// With colour allowed, the chip is coloured (so the NO_COLOR test below
	// can tell the difference).
	if raw := sc.raw.String(); !strings.Contains(raw, "\x1b["+chipSGR+"m╭─ Database ─╮") {
		t.Errorf("header chip not coloured: %q", raw)
	}
}

func TestSurveyEscapesInQuestions(t *testing.T) {
	colorOn(t)
	q := ask.Question{
		Question: "Pick a \x1b[5mcolour\x1b[0m?",
		Header:   "\x1b[31mColour",
		Options: []ask.Option{
			{Label: "\x1b[31mRed\x1b[0m", Description: "\x1b[2Jwarm"},
			{Label: "Blue\x1b]0;pwned\x07", Description: "cool \x1b]8;;http://x.example/\x1b\\link\x1b]8;;\x1b\\"},
		},
	}
	sc := newSurveyConsole(t)
	done := sc.start(ask.Request{ID: "r10", Questions: []ask.Question{q}})
	sc.prompt("ctrl+c cancel")
	if got := sc.screenLine("Red"); got != "❯ ● Red" {
		t.Errorf("label line = %q", got)
	}
	sc.screenLine("    warm")
	sc.screenLine("  ○ Blue")
	sc.screenLine("    cool link")
	sc.send(keyEnter)
	r := sc.finish(done)
	if r.err != nil {
		t.Fatalf("Ask: %v", r.err)
	}
	// The answer names the option chosen by the label the person saw.
	checkAnswers(t, r.answers, person(q, []string{"Red"}, ""))
	if got := sc.screenLine("✔"); got != "✔ Colour: Red" {
		t.Errorf("summary line = %q", got)
	}
	raw := sc.raw.String()
	for _, bad := range []string{"\x1b[31m", "\x1b[5m", "\x1b[2J", "\x1b]", "\x07", "pwned", "x.example"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q from the question reached the terminal", bad)
		}
	}
	if title := sc.screen.Title(); title != "" {
		t.Errorf("window title set to %q", title)
	}
}

func TestSurveyNoColor(t *testing.T) {
	colorOff(t)
	q1, q2 := databaseQuestion(), featuresQuestion()
	sc := newSurveyConsole(t)
	done := sc.start(ask.Request{ID: "r11", Questions: []ask.Question{q1, q2}})
	sc.prompt("ctrl+c cancel")
	sc.send(keyDown, keyDown, keyEnter) // Other
	sc.prompt("Please specify:")
	sc.send(keyEnter) // empty: the error line is drawn too
	sc.expect("an answer is needed")
	sc.prompt("Please specify:")
	sc.send("CockroachDB", keyEnter)
	sc.prompt("ctrl+c cancel")
	sc.send(" ", keyEnter)
	r := sc.finish(done)
	if r.err != nil {
		t.Fatalf("Ask: %v", r.err)
	}
	checkAnswers(t, r.answers, person(q1, []string{}, "CockroachDB"), person(q2, []string{"TypeScript"}, ""))
	sc.screenLine("✔ Database: CockroachDB (typed)")
	if sgr := sgrPattern.FindAllString(sc.raw.String(), -1); len(sgr) > 0 {
		t.Errorf("NO_COLOR set, yet colour sequences were written: %q", sgr)
	}
}

func TestSurveyTTYReaderCancel(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	r, err := newTTYReader(tty)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	if _, err := ptm.WriteString("ab\n"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "ab\n" {
		t.Fatalf("Read = %q, %v; want \"ab\\n\"", buf[:n], err)
	}

	// A Read blocked on a silent terminal returns once cancelled.
	errc := make(chan error, 1)
	go func() {
		_, err := r.Read(buf)
		errc <- err
	}()
	r.Cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, errReadCancelled) {
			t.Fatalf("blocked Read returned %v, want errReadCancelled", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Cancel did not wake a blocked Read")
	}
	// And it stays cancelled, even with input waiting.
	if _, err := ptm.WriteString("c\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(buf); !errors.Is(err, errReadCancelled) {
		t.Fatalf("Read after Cancel returned %v, want errReadCancelled", err)
	}
	r.Cancel() // twice is fine
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r.Cancel() // after Close too
}
