package frontend

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/ask/wire"
)

// DefaultMaxLineBytes is the longest input line a Stdio accepts when
// StdioConfig.MaxLineBytes is 0.
const DefaultMaxLineBytes = 1 << 20

// StdioConfig configures the JSON-lines frontend.
type StdioConfig struct {
	// In carries answer lines (and, in a run, user-message lines).
	In io.Reader
	// Out receives question lines and error lines. Writes are serialised
	// and each line is written whole, in one Write call.
	Out io.Writer
	// Via names the channel in answers, e.g. "stdin"; it is copied into
	// ask.Answer.Via and names the input in error messages.
	Via string
	// MaxLineBytes is the longest accepted input line; 0 means
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// SessionID, when set, is added as "session_id" to question lines.
	SessionID string
	// SuspendAtEnd defers a set that In ended before answering (an error
	// wrapping ask.ErrDeferred, for askuser resume) instead of failing it
	// with ask.ErrNoAnswer: a program that answers the sets it can and
	// closes its end keeps the others pending (askuser serve does).
	SuspendAtEnd bool
	// HoldForLaterSets keeps an answer line that names a set not open (yet),
	// or that has no "id" and fits no open set, for when its set is asked,
	// even after In ends, instead of refusing it; closedErr names the lines
	// no set took. A resumed run asks its pending sets again, all at once and in no
	// fixed order, so a program that writes the answers it has straight
	// away (askuser serve) may name a set a moment before it opens.
	HoldForLaterSets bool
	// Expected are sets known to be asked soon (a resumed run's pending
	// sets, which it asks again all at once, in no fixed order): a line
	// that names one of them, or that has no "id" and fits only them, is
	// kept until it is asked rather than refused by another set.
	Expected []ask.Request
}

// Stdio is the JSON-lines frontend: it writes each question set as one
// line to Out and reads answer lines from In (docs/protocol.md).
//
// One reader goroutine, started on first need, reads In, and only while
// someone waits: an open Ask or a NextUser call. A line nobody waits for is
// kept, in order, for the next waiter, so answers written before their
// question is printed still count, and a late line after a cancelled Ask is
// not lost. A bad line is discarded whole and answered with one error line.
type Stdio struct {
	cfg StdioConfig
	max int

	// outMu serialises writes to Out. Ask holds it from registering its set
	// until its question line is written, so no answer or error line about
	// a set can precede the set's question line. Lock order: outMu, then mu.
	outMu sync.Mutex

	mu       sync.Mutex
	wake     *sync.Cond // signalled when someone starts waiting for a line
	reading  bool       // the reader goroutine has been started
	sets     []*openSet // open question sets, in the order they were asked
	queued   []inLine   // answer lines read while no set was open, oldest first
	users    []json.RawMessage
	userWait []chan userResult
	readErr  error // set once In ends (io.EOF) or fails
}

var (
	_ ask.Frontend   = (*Stdio)(nil)
	_ ask.Concurrent = (*Stdio)(nil)
)

// openSet is a question set waiting for its answer line.
type openSet struct {
	req  ask.Request
	done chan setResult // buffered; receives exactly one result
	// opened is set once the set is registered, abandoned when its asker
	// stopped waiting before that (both under mu): an abandoned set is
	// never opened.
	opened, abandoned bool
}

type setResult struct {
	answers []ask.Answer
	err     error
}

type userResult struct {
	msg json.RawMessage
	err error
}

// NewStdio returns a JSON-lines frontend. It reads nothing from In until
// the first Ask or NextUser.
func NewStdio(cfg StdioConfig) *Stdio {
	s := &Stdio{cfg: cfg, max: cfg.MaxLineBytes}
	if s.max <= 0 {
		s.max = DefaultMaxLineBytes
	}
	s.wake = sync.NewCond(&s.mu)
	return s
}

// Concurrent reports true: several question sets may be open at once, each
// answered by a line naming its id (ask.Concurrent).
func (s *Stdio) Concurrent() bool { return true }

// Ask writes req as one question line and waits for a line answering every
// question in it. It is safe for concurrent use with different request ids.
// When In ends first the error wraps ask.ErrNoAnswer; when ctx is done it is
// ask.CtxErr(ctx).
func (s *Stdio) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if req.ID == "" || len(req.Questions) == 0 {
		return nil, errors.New("stdio frontend: a question set needs an id and at least one question")
	}
	qline := wire.Encode(wire.NewQuestion(req, s.cfg.SessionID))
	set := &openSet{req: req, done: make(chan setResult, 1)}
	// The line is written aside, so a reader that stopped reading (a full
	// pipe) never keeps ctx's end (a signal, --ask-timeout) from ending the
	// wait: the write is left to finish or fail on its own.
	wrote := make(chan error, 1)
	go func() {
		s.outMu.Lock()
		defer s.outMu.Unlock()
		errLines, err := s.open(set)
		if err == nil {
			err = s.write(qline, errLines)
			if err != nil {
				err = fmt.Errorf("%w: write question set %s: %w", ask.ErrNoAnswer, req.ID, err)
			}
		}
		wrote <- err
	}()
	var err error
	select {
	case err = <-wrote:
	case <-ctx.Done():
		s.mu.Lock()
		set.abandoned = true
		closed := s.closeSetLocked(set)
		opened := set.opened
		s.mu.Unlock()
		if opened && !closed {
			// A line queued before the set was asked answered it: the
			// answer was consumed, so return it rather than lose it.
			if r := <-set.done; r.err == nil {
				return r.answers, nil
			}
		}
		return nil, ask.CtxErr(ctx)
	}
	if err != nil {
		s.mu.Lock()
		s.closeSetLocked(set)
		s.mu.Unlock()
		return nil, err
	}
	select {
	case r := <-set.done:
		return r.answers, r.err
	case <-ctx.Done():
		s.mu.Lock()
		closed := s.closeSetLocked(set)
		s.mu.Unlock()
		if !closed {
			// A line answered the set just as ctx ended: the answer was
			// consumed, so return it rather than lose it.
			if r := <-set.done; r.err == nil {
				return r.answers, nil
			}
		}
		return nil, ask.CtxErr(ctx)
	}
}

// NextUser returns the next {"type":"user",...} line read from In, as
// sent, for `askuser run --input-format stream-json`. User lines read while
// question sets are open are kept for it in order. At the end of In it
// returns io.EOF; when ctx is done, ask.CtxErr(ctx).
func (s *Stdio) NextUser(ctx context.Context) (json.RawMessage, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.users) > 0 {
		msg := s.users[0]
		s.users = s.users[1:]
		s.mu.Unlock()
		return msg, nil
	}
	if s.readErr != nil {
		err := s.userEndErr()
		s.mu.Unlock()
		return nil, err
	}
	w := make(chan userResult, 1)
	s.userWait = append(s.userWait, w)
	s.needReadLocked()
	s.mu.Unlock()
	select {
	case r := <-w:
		return r.msg, r.err
	case <-ctx.Done():
		s.mu.Lock()
		if !s.dropUserWaiterLocked(w) {
			// A line was handed over just as ctx ended: give it to the
			// next waiter instead of losing it.
			if r := <-w; r.err == nil {
				s.unreadUserLocked(r.msg)
			}
		}
		s.mu.Unlock()
		return nil, ask.CtxErr(ctx)
	}
}

// open registers set and applies the answer lines queued before it was
// asked, returning the error lines they caused.
func (s *Stdio) open(set *openSet) ([][]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if set.abandoned {
		return nil, fmt.Errorf("%w: question set %s was no longer waited on when it could be written", ask.ErrNoAnswer, set.req.ID)
	}
	if s.findSetLocked(set.req.ID) != nil {
		return nil, fmt.Errorf("stdio frontend: question set %q is already open", set.req.ID)
	}
	set.opened = true
	s.sets = append(s.sets, set)
	queued := s.queued
	s.queued = nil
	var errLines [][]byte
	for _, l := range queued {
		if e := s.applyLocked(l); e != nil {
			errLines = append(errLines, e.line())
		}
	}
	if s.findSetLocked(set.req.ID) == nil {
		return errLines, nil // answered by a queued line
	}
	if s.readErr != nil {
		s.finishLocked(set, setResult{err: s.closedErr(set)})
		return errLines, nil
	}
	s.needReadLocked()
	return errLines, nil
}

// exampleLocked is a good line for the only open set, or a generic one.
func (s *Stdio) exampleLocked() string {
	if len(s.sets) == 1 {
		return exampleLine(s.sets[0].req, false)
	}
	return `{"id":"<id>","answers":{"<header>":"<label>"}}`
}

// name names the input in messages.
func (s *Stdio) name() string {
	if s.cfg.Via != "" {
		return s.cfg.Via
	}
	return "input"
}

func (s *Stdio) findSetLocked(id string) *openSet {
	for _, set := range s.sets {
		if set.req.ID == id {
			return set
		}
	}
	return nil
}

// finishLocked closes set and hands it its result.
func (s *Stdio) finishLocked(set *openSet, r setResult) {
	if s.closeSetLocked(set) {
		set.done <- r
	}
}

// closeSetLocked removes set from the open sets, reporting whether it was
// still open.
func (s *Stdio) closeSetLocked(set *openSet) bool {
	for i, o := range s.sets {
		if o == set {
			s.sets = slices.Delete(s.sets, i, i+1)
			return true
		}
	}
	return false
}

// write writes line and then extra, each whole in one Write. The caller
// holds outMu.
func (s *Stdio) write(line []byte, extra [][]byte) error {
	if _, err := s.cfg.Out.Write(line); err != nil {
		return err
	}
	for _, l := range extra {
		if _, err := s.cfg.Out.Write(l); err != nil {
			return err
		}
	}
	return nil
}
