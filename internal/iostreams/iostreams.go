// Package iostreams holds the process's standard streams and answers, in
// one place, the terminal questions the rest of askuser asks: is stdin a
// terminal a person can type at, is it a pipe a program writes to, or is it
// nothing (/dev/null) that can never carry an answer. No other package
// calls isatty.
package iostreams

import (
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
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
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	inFile  *os.File
	errFile *os.File
	inKind  InKind
	outTTY  bool
	errTTY  bool
}

// System returns the streams of this process.
func System() *IOStreams {
	return New(os.Stdin, os.Stdout, os.Stderr)
}

// New classifies the given streams. Streams that are not *os.File (tests)
// are treated as pipes.
func New(in io.Reader, out, errOut io.Writer) *IOStreams {
	s := &IOStreams{In: in, Out: out, ErrOut: errOut, inKind: InPipe}
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

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.outTTY }

// IsStderrTTY reports whether standard error is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.errTTY }

// CanPrompt reports whether a person can be asked at a terminal: standard
// input is a terminal. The prompt is drawn on standard error, or on the
// controlling terminal when standard error is redirected, so redirecting
// standard output never stops a prompt.
func (s *IOStreams) CanPrompt() bool { return s.inKind == InTerminal }

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
