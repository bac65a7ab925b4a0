package frontend

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// The reader: one goroutine per Stdio reads In line by line and hands each
// line to whoever waits for its kind.

// needReadLocked makes sure the reader is running and looking at In.
func (s *Stdio) needReadLocked() {
	if s.readErr != nil {
		return
	}
	if !s.reading {
		s.reading = true
		go s.readLoop()
		return
	}
	s.wake.Signal()
}

// readLoop reads In one line at a time while anyone waits for a line.
func (s *Stdio) readLoop() {
	lr := newLineReader(s.cfg.In, s.max)
	for {
		s.mu.Lock()
		for len(s.sets) == 0 && len(s.userWait) == 0 {
			s.wake.Wait()
		}
		s.mu.Unlock()

		line, tooLong, err := lr.next()
		line = bytes.TrimSpace(line) // blank lines are ignored
		var e *lineErr
		s.mu.Lock()
		switch {
		case tooLong:
			e = &lineErr{msg: fmt.Sprintf("%s line %d is longer than the limit of %d bytes and was discarded; send each answer as one shorter line", s.name(), lr.n, s.max)}
		case len(line) > 0:
			// A last line without a newline is read like any other; if it
			// is bad, the writer may have been cut off mid-line: say so.
			e = s.handleLocked(line, lr.n, errors.Is(err, io.EOF))
		}
		s.mu.Unlock()
		if e != nil {
			s.outMu.Lock()
			// A failed write of an error line has nobody to report to; a
			// broken Out fails the next Ask's question line instead.
			_ = s.write(e.line(), nil)
			s.outMu.Unlock()
		}
		if err != nil {
			// Only now, after the error line about the last line is out:
			// the sets fail here, and a process exits once Ask returns.
			s.mu.Lock()
			s.endLocked(err)
			s.mu.Unlock()
			return
		}
	}
}

// handleLocked acts on one input line: a user line is handed to NextUser,
// an answer line is applied or queued.
func (s *Stdio) handleLocked(line []byte, n int, unterminated bool) *lineErr {
	kind, l, e := parseLine(line, n, s.name())
	switch {
	case e != nil:
		if unterminated {
			e.msg += fmt.Sprintf("; %s ended in the middle of this line (no newline after it), so it may have been cut short", s.name())
		}
		if e.example {
			e.msg += "; for example " + s.exampleLocked()
		}
		return e
	case kind == kindUser:
		s.deliverUserLocked(json.RawMessage(append([]byte(nil), line...)))
		return nil
	case kind == kindAnswer:
		return s.applyLocked(l)
	}
	return nil
}

// applyLocked answers an open set with l, or keeps l for the next set
// when none is open or when it waits for a set not open yet (holdLocked).
func (s *Stdio) applyLocked(l inLine) *lineErr {
	if len(s.sets) == 0 || s.holdLocked(&l) {
		s.queued = append(s.queued, l)
		return nil
	}
	set, e := s.routeLocked(&l)
	if e != nil {
		return e
	}
	answers, e := buildAnswers(set.req, &l)
	if e != nil {
		return e
	}
	now := time.Now()
	for i := range answers {
		answers[i].Via = s.cfg.Via
		answers[i].AnsweredAt = now
	}
	s.finishLocked(set, setResult{answers: answers})
	return nil
}

// holdLocked reports whether l answers a set that is not open yet, and
// so waits for it: it names no open set, or, without "id", fits none; and
// either HoldForLaterSets is set or an Expected set not yet open is the
// one it names or fits. Resumed sets and concurrent sub-agents open in no
// fixed order, so a line for the second may arrive while only the first
// is open.
func (s *Stdio) holdLocked(l *inLine) bool {
	if l.id != "" && s.findSetLocked(l.id) != nil {
		return false
	}
	if l.id == "" {
		for _, set := range s.sets {
			if l.fits(set.req.Questions) {
				return false
			}
		}
	}
	if s.cfg.HoldForLaterSets {
		return true
	}
	for _, req := range s.cfg.Expected {
		if s.findSetLocked(req.ID) == nil && (l.id == req.ID || (l.id == "" && l.fits(req.Questions))) {
			return true
		}
	}
	return false
}

// heldNote names the held lines no open set took, for closedErr.
func (s *Stdio) heldNote() string {
	if len(s.queued) == 0 {
		return ""
	}
	where := make([]string, len(s.queued))
	for i := range s.queued {
		where[i] = s.queued[i].where()
	}
	return fmt.Sprintf("; held for a question set that was never asked: %s (check its \"id\" and headers)", strings.Join(where, ", "))
}

// endLocked records that In has ended and fails everyone waiting.
func (s *Stdio) endLocked(err error) {
	s.readErr = err
	for len(s.sets) > 0 {
		s.finishLocked(s.sets[0], setResult{err: s.closedErr(s.sets[0])})
	}
	for _, w := range s.userWait {
		w <- userResult{err: s.userEndErr()}
	}
	s.userWait = nil
}

// closedErr is Ask's error when In ended before set was answered.
func (s *Stdio) closedErr(set *openSet) error {
	headers := make([]string, len(set.req.Questions))
	for i, q := range set.req.Questions {
		headers[i] = ask.Display(q.Header)
	}
	what := fmt.Sprintf("question set %s (%s)", set.req.ID, strings.Join(headers, ", "))
	if errors.Is(s.readErr, io.EOF) && s.cfg.SuspendAtEnd {
		return fmt.Errorf("%w: %s closed before %s was answered (--on-unanswered suspend)%s", ask.ErrDeferred, s.name(), what, s.heldNote())
	}
	if errors.Is(s.readErr, io.EOF) {
		return fmt.Errorf("%w: %s closed before %s was answered; send a line such as %s%s",
			ask.ErrNoAnswer, s.name(), what, exampleLine(set.req, false), s.heldNote())
	}
	return fmt.Errorf("%w: reading %s failed before %s was answered: %w", ask.ErrNoAnswer, s.name(), what, s.readErr)
}

// userEndErr is NextUser's error once In has ended.
func (s *Stdio) userEndErr() error {
	if errors.Is(s.readErr, io.EOF) {
		return io.EOF
	}
	return fmt.Errorf("read %s: %w", s.name(), s.readErr)
}

// deliverUserLocked hands a user line to the longest-waiting NextUser, or
// keeps it for the next one.
func (s *Stdio) deliverUserLocked(msg json.RawMessage) {
	if len(s.userWait) > 0 {
		w := s.userWait[0]
		s.userWait = s.userWait[1:]
		w <- userResult{msg: msg}
		return
	}
	s.users = append(s.users, msg)
}

// unreadUserLocked puts back a user line that is older than any queued one.
func (s *Stdio) unreadUserLocked(msg json.RawMessage) {
	if len(s.userWait) > 0 {
		s.deliverUserLocked(msg)
		return
	}
	s.users = append([]json.RawMessage{msg}, s.users...)
}

func (s *Stdio) dropUserWaiterLocked(w chan userResult) bool {
	for i, x := range s.userWait {
		if x == w {
			s.userWait = slices.Delete(s.userWait, i, i+1)
			return true
		}
	}
	return false
}

// lineReader splits a stream into lines of at most max bytes, reusing one
// buffer, so a line is never held twice and an endless line cannot exhaust
// memory.
type lineReader struct {
	br  *bufio.Reader
	max int
	buf []byte
	n   int // lines read so far
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line ending; it is valid until
// the next call. A line longer than max is discarded up to its newline and
// reported by tooLong. At the end of the stream a last line without a
// newline is returned together with io.EOF.
func (r *lineReader) next() (line []byte, tooLong bool, err error) {
	r.buf = r.buf[:0]
	for {
		frag, err := r.br.ReadSlice('\n')
		if !tooLong && len(r.buf)+len(frag) > r.max+2 { // room for "\r\n"
			tooLong = true
			r.buf = r.buf[:0]
		}
		if !tooLong {
			r.buf = append(r.buf, frag...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == nil || len(r.buf) > 0 || tooLong {
			r.n++
		}
		line = bytes.TrimSuffix(r.buf, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) > r.max {
			tooLong, line = true, nil
		}
		return line, tooLong, err
	}
}
