package prompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/askuser/askuser/ask"
)

// escWait is how long a lone ESC waits for the rest of a sequence before
// it counts as the Esc key. Terminals send a key's sequence in one write.
const escWait = 40 * time.Millisecond

// tick is how often the prompt looks at the terminal's size (besides
// SIGWINCH) and at the clock, when a deadline applies.
const tick = 200 * time.Millisecond

// readResult is one read from the terminal.
type readResult struct {
	data []byte
	err  error
}

// termSession is the interactive prompt on one terminal, for one
// question set: raw mode, a goroutine reading keys, and the screen.
type termSession struct {
	in    *ttyReader
	out   *os.File
	scr   screen
	dec   keyDecoder
	reads chan readResult
	stop  chan struct{}
	done  chan struct{}
	winch <-chan os.Signal
}

// errNoRawMode says the terminal could not be put in raw mode; the plain
// prompt is used instead.
var errNoRawMode = errors.New("raw mode unavailable")

// startTerm puts the terminal in raw mode and starts reading keys. The
// returned function ends the session: it stops the reader (no goroutine
// is left reading the terminal), shows the cursor and restores the mode.
func startTerm(inFile, out *os.File, color bool) (*termSession, func(), error) {
	in, err := newTTYReader(inFile)
	if err != nil {
		return nil, nil, fmt.Errorf("prepare terminal: %w", err)
	}
	fd := int(in.Fd())
	old, err := term.MakeRaw(fd)
	if err != nil {
		in.Close()
		return nil, nil, fmt.Errorf("%w: %v", errNoRawMode, err)
	}
	discardTypeahead(fd)
	winch, stopWinch := notifyResize()
	t := &termSession{in: in, out: out, scr: screen{w: out, color: color},
		reads: make(chan readResult), stop: make(chan struct{}), done: make(chan struct{}), winch: winch}
	go t.readKeys()
	_, _ = io.WriteString(out, seqHideCursor)
	end := func() {
		in.Cancel()
		close(t.stop)
		<-t.done
		stopWinch()
		_, _ = io.WriteString(out, seqShowCursor)
		_ = term.Restore(fd, old)
		in.Close()
	}
	return t, end, nil
}

// readKeys passes what the terminal sends to the session until it is
// stopped or the terminal fails.
func (t *termSession) readKeys() {
	defer close(t.done)
	buf := make([]byte, 256)
	for {
		n, err := t.in.Read(buf)
		select {
		case t.reads <- readResult{append([]byte(nil), buf[:n]...), err}:
		case <-t.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// size is the terminal's size, or 80×24 when it cannot be read.
func (t *termSession) size() (cols, rows int) { return termSize(t.out) }

// width is how wide a line may be: one cell short of the terminal's
// width, so the terminal never wraps it itself.
func (t *termSession) width() int {
	cols, _ := t.size()
	return max(cols-1, minWidth)
}

// termSize is f's terminal size, or 80×24 when it cannot be read.
func termSize(f *os.File) (cols, rows int) {
	cols, rows, err := term.GetSize(int(f.Fd()))
	if err != nil || cols <= 0 || rows <= 0 {
		return 80, 24
	}
	return cols, rows
}

// run asks the set until it is answered, cancelled, or ctx ends; the
// last frame is left on the screen for the caller to replace. Keys read
// together are applied in turn, so keys typed quickly after the one that
// answers a question go to the next.
func (t *termSession) run(ctx context.Context, set *setState) error {
	deadline, bounded := ctx.Deadline()
	redraw := func() error {
		cols, rows := t.size()
		left := time.Duration(-1)
		if bounded {
			left = max(time.Until(deadline), 0)
		}
		return t.scr.draw(set.frame(cols, rows, left), cols, rows)
	}
	if err := redraw(); err != nil {
		return err
	}
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	var escTimer <-chan time.Time
	var keys []key
	for {
		for _, k := range keys {
			switch set.handle(k) {
			case doneAnswered:
				return nil
			case doneCancelled:
				return fmt.Errorf("%w at the terminal (%s)", ask.ErrCancelled, keyName(k))
			}
		}
		if len(keys) > 0 {
			if err := redraw(); err != nil {
				return err
			}
		}
		keys = nil
		select {
		case <-ctx.Done():
			return ask.CtxErr(ctx)
		case r := <-t.reads:
			if r.err != nil {
				return readError(ctx, r.err)
			}
			keys = t.dec.feed(r.data)
		case <-escTimer:
			keys = t.dec.flush()
		case <-t.winch:
		case <-ticker.C:
		}
		escTimer = nil
		if t.dec.hasPending() {
			escTimer = time.After(escWait)
		}
		if len(keys) == 0 {
			// A tick or a resize: the clock or the size may have changed.
			if err := redraw(); err != nil {
				return err
			}
		}
	}
}

// readError translates a failed read: ctx's own end wins, else the
// terminal went away.
func readError(ctx context.Context, err error) error {
	if cerr := ask.CtxErr(ctx); cerr != nil {
		return cerr
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the terminal closed", ask.ErrNoAnswer)
	}
	return fmt.Errorf("read terminal: %w", err)
}

func keyName(k key) string {
	switch k.kind {
	case kEsc:
		return "esc"
	case kCtrlD:
		return "ctrl+d"
	}
	return "ctrl+c"
}
