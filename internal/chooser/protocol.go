package chooser

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// ProtocolFDFlag is --protocol-fd of ask, and of run and resume, whose
// output may be the protocol's own stream (stream-json).
func ProtocolFDFlag(stream bool) cli.Flag {
	where := "without it they go to standard output when --frontend stdio is named, else to standard error"
	if stream {
		where = "without it they go to standard output when --frontend stdio is named or the output is stream-json, else to standard error"
	}
	return &cli.IntFlag{Name: "protocol-fd", Category: cmdutil.CatAsking,
		Usage: "the JSON-lines frontend writes its question and error lines to file descriptor `N` (open it: 3>questions.jsonl); " + where}
}

// ProtocolFD is the descriptor --protocol-fd names, or nil when it is not
// given.
func ProtocolFD(fl Flags) (io.Writer, error) {
	if !fl.ProtocolFDSet {
		return nil, nil
	}
	return openProtocolFD(fl.ProtocolFD)
}

// openProtocolFD returns descriptor n, open for the JSON-lines frontend's
// question lines. It must be open already: the shell opens it (3>file).
func openProtocolFD(n int) (io.Writer, error) {
	if n < 2 {
		return nil, cmdutil.UsageErrorf("--protocol-fd %d: give a descriptor of 2 or more (3, opened with 3>questions.jsonl); for standard output, name the frontend: --frontend stdio", n)
	}
	f := os.NewFile(uintptr(n), fmt.Sprintf("descriptor %d", n))
	if f == nil {
		return nil, cmdutil.UsageErrorf("--protocol-fd %d: not a descriptor", n)
	}
	if _, err := f.Stat(); err != nil {
		return nil, cmdutil.UsageErrorf("--protocol-fd %d: descriptor %d is not open; open it when starting askuser, e.g. %d>questions.jsonl or %d>&2", n, n, n, n)
	}
	return NewLineWriter(f), nil
}

// QuestionLines decides, for ask, run and resume alike, where the
// JSON-lines frontend writes its question and error lines, so that
// standard output holds what a shell user captures with $(…):
//
//   - --protocol-fd N (fd): descriptor N;
//   - stdout is itself the protocol's stream (stream-json): stdout;
//   - stdio was named (--frontend stdio, ASKUSER_FRONTEND): stdout, where
//     the program that named it reads them before the result; unless stdout
//     is one JSON document (oneDoc, run's json), which is a usage error;
//   - otherwise it was chosen because stdin is a pipe, and whoever pipes
//     answers in advance reads no question: stderr, and stdout holds the
//     result alone.
func QuestionLines(spec Spec, fd, stdout, stderr io.Writer, stream, oneDoc bool) (io.Writer, error) {
	switch {
	case fd != nil:
		return fd, nil
	case stream:
		return stdout, nil
	case !slices.Contains(spec.Names, Stdio):
		return NewLineWriter(stderr), nil
	case oneDoc:
		return nil, cmdutil.UsageErrorf("%s stdio with --output-format json: standard output carries only the result, so the question lines need their own descriptor: add --protocol-fd 3 (and 3>questions.jsonl), or use --output-format stream-json, where they are part of the stream",
			spec.NameFrom)
	}
	return stdout, nil
}

// LineWriter serialises whole lines to one writer, so a run's printer
// and the JSON-lines frontend can share stdout.
type LineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewLineWriter serialises the writes to w.
func NewLineWriter(w io.Writer) *LineWriter { return &LineWriter{w: w} }

func (l *LineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Verbatim is the same stream, serialised with it, whose lines are never
// broken at the terminal's width (iostreams.Verbatim).
func (l *LineWriter) Verbatim() io.Writer { return lockedTo{&l.mu, iostreams.Verbatim(l.w)} }

// lockedTo writes to w under a lock it shares.
type lockedTo struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedTo) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
