// Package iostreams holds the process's standard streams and answers, in
// one place, the terminal questions the rest of askuser asks: is stdin a
// terminal a person can type at, is it a pipe a program writes to, or is it
// nothing (/dev/null) that can never carry an answer; may we colour; how
// wide is the terminal. No other package calls isatty.
//
// It is also the one place that decides what a person's screen may
// receive: ErrOut, which only people read, passes everything through
// ask.DisplayWriter, so text quoted from a model or a server (an error
// message, a notification's output) cannot move the cursor, retitle the
// window or write the clipboard; TextOut does the same for standard output
// in the text format. Standard output itself stays exact, for JSON.
package iostreams

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"

	"github.com/askuser/askuser/ask"
)

// InKind classifies standard input.
type InKind int

// The kinds of standard input.
const (
	InTerminal InKind = iota // a terminal: a person can answer
	InPipe                   // a pipe, socket or regular file: a program can answer
	InNull                   // a character device that is not a terminal, such as /dev/null
	InClosed                 // not open
)

func (k InKind) String() string {
	return [...]string{"a terminal", "a pipe or file", "not a terminal or a pipe (e.g. /dev/null)", "closed"}[k]
}

// IOStreams is the process's standard streams with their kinds.
type IOStreams struct {
	In io.Reader
	// Out is standard output, exact: data (JSON lines, results).
	Out io.Writer
	// ErrOut is standard error, sanitised for a person.
	ErrOut io.Writer

	// Getenv reads the environment (os.Getenv; tests replace it).
	Getenv func(string) string

	rawErr      io.Writer
	inFile      *os.File
	errFile     *os.File
	inKind      InKind
	outTTY      bool
	errTTY      bool
	neverPrompt bool
	color       *bool
	width       int
}

// System returns the streams of this process.
func System() *IOStreams {
	return New(os.Stdin, os.Stdout, os.Stderr)
}

// New classifies the given streams. Streams that are not *os.File (tests)
// are treated as pipes.
func New(in io.Reader, out, errOut io.Writer) *IOStreams {
	s := &IOStreams{In: in, Out: out, rawErr: errOut, inKind: InPipe, Getenv: os.Getenv}
	s.ErrOut = safe(newWordWrapper(errOut, s.TerminalWidth, func() bool { return s.errTTY }, false))
	if f, ok := in.(*os.File); ok {
		s.inFile = f
		s.inKind = kindOf(f)
	}
	if f, ok := out.(*os.File); ok {
		s.outTTY = isTerminal(f)
	}
	if f, ok := errOut.(*os.File); ok {
		s.errFile = f
		s.errTTY = isTerminal(f)
	}
	return s
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}

func kindOf(f *os.File) InKind {
	if isTerminal(f) {
		return InTerminal
	}
	st, err := f.Stat()
	if err != nil {
		return InClosed
	}
	if st.Mode()&os.ModeCharDevice != 0 {
		return InNull
	}
	return InPipe
}

// InKind reports what standard input is.
func (s *IOStreams) InKind() InKind { return s.inKind }

// IsIn reports whether path names standard input itself (/dev/stdin,
// /dev/fd/0, or the file or pipe it was redirected from), so that a
// command reading a file from path knows stdin is used up by it.
func (s *IOStreams) IsIn(path string) bool {
	if s.inFile == nil || path == "" {
		return false
	}
	in, err := s.inFile.Stat()
	if err != nil {
		return false
	}
	named, err := os.Stat(path)
	return err == nil && os.SameFile(in, named)
}

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.outTTY }

// IsStderrTTY reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.errTTY }

// CanPrompt reports whether a person can be asked at a terminal: standard
// input is a terminal. The prompt is drawn on standard error, or on the
// controlling terminal when standard error is redirected, so redirecting
// standard output never stops a prompt.
func (s *IOStreams) CanPrompt() bool { return s.inKind == InTerminal && !s.neverPrompt }

// CanPromptOnTTY reports whether a person can be asked at the controlling
// terminal although standard input is not one (it carried a prompt, say):
// standard error is a terminal, so someone is watching it. A process
// whose standard error is redirected too is taken to run unattended,
// even if /dev/tty would open.
func (s *IOStreams) CanPromptOnTTY() bool {
	return s.inKind != InTerminal && s.errTTY && !s.neverPrompt
}

// TextOut is standard output for text a person reads (the text format of
// askuser run): sanitised as ErrOut is, and, on a terminal, wrapped at
// word boundaries, holding a word back until it ends (wordWrapper): what
// writes to it streams a reply and ends it with a line break. JSON goes to
// Out, exact.
func (s *IOStreams) TextOut() io.Writer {
	return safe(newWordWrapper(s.Out, s.TerminalWidth, func() bool { return s.outTTY }, true))
}

// StatusOut is standard error as it is, unsanitised, when it is a
// terminal (nil otherwise): for askuser's own status line, such as a
// working indicator that rewrites itself with "\r". Nothing from a model
// or a server may be written to it; that goes through ErrOut.
func (s *IOStreams) StatusOut() io.Writer {
	if !s.errTTY {
		return nil
	}
	return s.rawErr
}

// safe wraps w in a sanitiser that may be written from several goroutines.
// On a terminal, w is a wordWrapper, so ErrOut's lines break at word
// boundaries too.
func safe(w io.Writer) io.Writer {
	l := &lockedWriter{w: ask.NewDisplayWriter(w)}
	l.ww, _ = w.(*wordWrapper)
	return l
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
	ww *wordWrapper // the word wrapper under w, if any
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Verbatim returns a view of w, ErrOut or TextOut, whose lines are never
// broken at the terminal's width: for what a person copies (a command to
// run, a file to paste), which a line break would spoil. The text is
// still sanitised; the terminal wraps a long line softly, as a copy
// joins again. A writer that wraps one of these says how through its own
// Verbatim method; any other writer is returned as it is.
func Verbatim(w io.Writer) io.Writer {
	if v, ok := w.(interface{ Verbatim() io.Writer }); ok {
		return v.Verbatim()
	}
	l, ok := w.(*lockedWriter)
	if !ok || l.ww == nil {
		return w
	}
	return verbatim{l}
}

type verbatim struct{ l *lockedWriter }

func (v verbatim) Write(p []byte) (int, error) {
	v.l.mu.Lock()
	defer v.l.mu.Unlock()
	v.l.ww.verbatim = true
	defer func() { v.l.ww.verbatim = false }()
	return v.l.w.Write(p)
}

// ColorEnabled reports whether a person's terminal may be coloured:
// CLICOLOR_FORCE (not 0) forces colour; otherwise NO_COLOR, CLICOLOR=0 or
// TERM=dumb turn it off, and it is on only when standard error is a
// terminal.
func (s *IOStreams) ColorEnabled() bool {
	if s.color != nil {
		return *s.color
	}
	if forced(s.Getenv("CLICOLOR_FORCE")) {
		return true
	}
	return s.errTTY && s.ColorAllowed()
}

// ColorAllowed reports whether the environment lets a terminal be coloured,
// for a prompt that draws on a terminal whatever standard error is:
// CLICOLOR_FORCE (not 0) allows it; NO_COLOR, CLICOLOR=0 or TERM=dumb
// forbid it.
func (s *IOStreams) ColorAllowed() bool {
	if s.color != nil {
		return *s.color
	}
	if forced(s.Getenv("CLICOLOR_FORCE")) {
		return true
	}
	return s.Getenv("NO_COLOR") == "" && s.Getenv("CLICOLOR") != "0" && !s.IsDumb()
}

func forced(v string) bool { return v != "" && v != "0" }

// IsDumb reports whether the terminal takes no escape sequences at all
// (TERM=dumb): no colour, no cursor movement.
func (s *IOStreams) IsDumb() bool { return s.Getenv("TERM") == "dumb" }

// TerminalWidth is the width of the terminal a person reads, in columns:
// standard error's, else $COLUMNS, else 80.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	if s.errFile != nil && s.errTTY {
		if w, _, err := term.GetSize(int(s.errFile.Fd())); err == nil && w > 0 {
			return w
		}
	}
	if n, err := strconv.Atoi(s.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return 80
}

// Overrides for tests, as cli/cli's iostreams has them.

// SetStdinTTY makes standard input count as a terminal (or not).
func (s *IOStreams) SetStdinTTY(tty bool) {
	if tty {
		s.inKind = InTerminal
	} else if s.inKind == InTerminal {
		s.inKind = InPipe
	}
}

// SetStdoutTTY makes standard output count as a terminal (or not).
func (s *IOStreams) SetStdoutTTY(tty bool) { s.outTTY = tty }

// SetStderrTTY makes standard error count as a terminal (or not).
func (s *IOStreams) SetStderrTTY(tty bool) { s.errTTY = tty }

// SetNeverPrompt forbids prompting even at a terminal.
func (s *IOStreams) SetNeverPrompt(never bool) { s.neverPrompt = never }

// SetColorEnabled fixes ColorEnabled's answer.
func (s *IOStreams) SetColorEnabled(on bool) { s.color = &on }

// SetWidth fixes TerminalWidth's answer.
func (s *IOStreams) SetWidth(cols int) { s.width = cols }

// Test returns streams over buffers: standard input is the given text (a
// pipe, for CanPrompt), and what is written to standard output and
// standard error can be read back. The environment is empty.
func Test(stdin string) (ios *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = &bytes.Buffer{}, &bytes.Buffer{}
	ios = New(strings.NewReader(stdin), out, errOut)
	ios.Getenv = func(string) string { return "" }
	return ios, out, errOut
}

// Terminal returns the files to prompt on: terminal input and the terminal
// to draw on (standard error if it is a terminal, else /dev/tty). When
// standard input is not a terminal, both come from /dev/tty, so a prompt
// can be forced (--frontend survey) while stdin carries data. close
// releases whatever Terminal opened.
func (s *IOStreams) Terminal() (in, out *os.File, close func(), err error) {
	var opened []*os.File
	close = func() {
		for _, f := range opened {
			f.Close()
		}
	}
	open := func() (*os.File, error) {
		f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
		if err != nil {
			return nil, fmt.Errorf("no terminal to ask on: standard input is %s and /dev/tty cannot be opened (%v)", s.inKind, err)
		}
		opened = append(opened, f)
		return f, nil
	}
	in = s.inFile
	if s.inKind != InTerminal {
		if in, err = open(); err != nil {
			return nil, nil, close, err
		}
	}
	out = s.errFile
	if !s.errTTY {
		if s.inKind != InTerminal {
			out = in
		} else if out, err = open(); err != nil {
			close()
			return nil, nil, func() {}, err
		}
	}
	return in, out, close, nil
}
