// Package asktest is a scripted ask.Frontend for tests, beside the
// interface it fakes. It checks itself: a question set nobody expected
// fails the test, and so, at the end of the test, does an expected set
// that was never asked.
//
//	fe := asktest.New(t)
//	fe.Expect("Database").Choose("SQLite")
//	fe.Expect("toolu_2").Choose("JWT").Choose("GitHub", "Google") // a set of two questions
//	fe.Expect("Region").Other("eu-north").From(ask.SourceProgram)
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package asktest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// Frontend answers question sets from expectations, in the order they were
// set. It is safe for concurrent use.
type Frontend struct {
	t testing.TB
	// concurrent is reported by Concurrent.
	concurrent bool

	mu    sync.Mutex
	stubs []*Stub
	asked []ask.Request
}

var (
	_ ask.Frontend   = (*Frontend)(nil)
	_ ask.Concurrent = (*Frontend)(nil)
)

// New returns a Frontend that fails t on an unexpected question set and,
// when t ends, on an expected one never asked.
func New(t testing.TB) *Frontend {
	f := &Frontend{t: t}
	t.Cleanup(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, s := range f.stubs {
			if !s.used {
				t.Errorf("asktest: a question set matching %q was expected but never asked", s.ref)
			}
		}
	})
	return f
}

// SetConcurrent makes the frontend report that it holds several sets open
// at once, as the JSON-lines frontend does.
func (f *Frontend) SetConcurrent() *Frontend { f.concurrent = true; return f }

// Concurrent implements ask.Concurrent.
func (f *Frontend) Concurrent() bool { return f.concurrent }

// Stub is one expected question set and its scripted answers, one per
// question, in order.
type Stub struct {
	ref     string
	answers []scripted
	source  ask.Source
	err     error
	used    bool
}

type scripted struct {
	labels []string
	custom string
	skip   bool
}

// Expect adds an expected question set, matched by its id or by the header
// or text of one of its questions (as a person would name it:
// case-insensitively, "(Recommended)" optional).
func (f *Frontend) Expect(ref string) *Stub {
	s := &Stub{ref: ref, source: ask.SourcePerson}
	f.mu.Lock()
	f.stubs = append(f.stubs, s)
	f.mu.Unlock()
	return s
}

// Choose answers the next question with labels.
func (s *Stub) Choose(labels ...string) *Stub {
	s.answers = append(s.answers, scripted{labels: labels})
	return s
}

// Other answers the next question with free text.
func (s *Stub) Other(text string) *Stub {
	s.answers = append(s.answers, scripted{custom: text})
	return s
}

// Skip leaves the next question unanswered.
func (s *Stub) Skip() *Stub {
	s.answers = append(s.answers, scripted{skip: true})
	return s
}

// From sets the source of the answers (default ask.SourcePerson).
func (s *Stub) From(src ask.Source) *Stub { s.source = src; return s }

// Fail makes the set's Ask return err instead of answers.
func (s *Stub) Fail(err error) *Stub { s.err = err; return s }

// Asked returns the sets asked so far, in order.
func (f *Frontend) Asked() []ask.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ask.Request(nil), f.asked...)
}

// Ask answers req from the first unused expectation that matches it.
func (f *Frontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.asked = append(f.asked, req)
	var s *Stub
	for _, c := range f.stubs {
		if !c.used && matches(c.ref, req) {
			s, c.used = c, true
			break
		}
	}
	f.mu.Unlock()
	if s == nil {
		f.t.Errorf("asktest: unexpected question set %s: %s", req.ID, describe(req))
		return nil, fmt.Errorf("%w: asktest has no answer for %s", ask.ErrNoAnswer, req.ID)
	}
	if s.err != nil {
		return nil, s.err
	}
	if len(s.answers) != len(req.Questions) {
		f.t.Errorf("asktest: set %s has %d questions, but %d answers are scripted for %q", req.ID, len(req.Questions), len(s.answers), s.ref)
		return nil, fmt.Errorf("%w: asktest answers do not fit %s", ask.ErrNoAnswer, req.ID)
	}
	out := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		a, err := ask.Selection(q, s.answers[i].labels, s.answers[i].custom, s.source)
		if err != nil {
			f.t.Errorf("asktest: scripted answer to %q: %v", q.Header, err)
			return nil, fmt.Errorf("%w: %w", ask.ErrNoAnswer, err)
		}
		a.AnsweredAt = time.Now()
		out[i] = a
	}
	return out, nil
}

func matches(ref string, req ask.Request) bool {
	if ref == req.ID {
		return true
	}
	_, ok, _ := ask.FindQuestion(req.Questions, ref)
	return ok
}

func describe(req ask.Request) string {
	s := ""
	for i, q := range req.Questions {
		if i > 0 {
			s += "; "
		}
		s += fmt.Sprintf("%q (%s)", q.Header, ask.Display(q.Question))
	}
	return s
}
