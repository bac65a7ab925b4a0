package agentloop_test

// Fakes for the loop tests. Each checks itself: a frontend stub that is
// never used, or a question nobody expected, fails the test.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
)

// pipeProgram is the program at the other end of a Stdio frontend's pipes:
// the test reads the question lines it receives and writes answer lines.
type pipeProgram struct {
	fe    *frontend.Stdio
	lines chan protoLine
	in    *io.PipeWriter
}

// protoLine is a line the frontend wrote: a question line or an error line.
type protoLine struct {
	Type      string         `json:"type"`
	ID        string         `json:"id"`
	Questions []ask.Question `json:"questions"`
	Error     string         `json:"error"`
}

func startPipeProgram(t *testing.T) *pipeProgram {
	inR, inW := io.Pipe()   // program → frontend
	outR, outW := io.Pipe() // frontend → program
	p := &pipeProgram{
		fe:    frontend.NewStdio(frontend.StdioConfig{In: inR, Out: outW, Via: "test-pipe"}),
		lines: make(chan protoLine, 16),
		in:    inW,
	}
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var l protoLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				l = protoLine{Type: "unreadable", Error: sc.Text()}
			}
			p.lines <- l
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return p
}

// next returns the next line the frontend wrote, failing the test if none
// comes within runLimit.
func (p *pipeProgram) next(t *testing.T) protoLine {
	t.Helper()
	select {
	case l, ok := <-p.lines:
		if !ok {
			t.Fatal("the frontend closed its output")
		}
		return l
	case <-time.After(runLimit):
		t.Fatalf("no line from the frontend within %s", runLimit)
		return protoLine{}
	}
}

// send writes one answer line, failing the test if the frontend does not
// take it within runLimit.
func (p *pipeProgram) send(t *testing.T, line string) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := p.in.Write([]byte(line + "\n"))
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("write answer line: %v", err)
		}
	case <-time.After(runLimit):
		t.Fatalf("the frontend did not read the answer line within %s", runLimit)
	}
}

// stub is one expected question set and how to answer it.
type stub struct {
	id string
	// labels chooses per question; the answers carry source and at.
	labels [][]string
	source ask.Source
	at     time.Time
	err    error
	used   bool
}

// stubFrontend answers expected question sets from stubs, one stub per
// Ask. It fails the test on a question set it has no stub for and, at
// cleanup, on a stub never used. It is not ask.Concurrent, and it checks
// that it is never asked two sets at once.
type stubFrontend struct {
	t *testing.T
	// before, if set, runs at the start of every Ask.
	before func(req ask.Request)

	mu       sync.Mutex
	stubs    []*stub
	asked    []string
	inFlight int
}

func newStubFrontend(t *testing.T) *stubFrontend {
	f := &stubFrontend{t: t}
	t.Cleanup(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, s := range f.stubs {
			if !s.used {
				t.Errorf("question set %s was never asked", s.id)
			}
		}
	})
	return f
}

// answer expects set id and answers it by a person with labels.
func (f *stubFrontend) answer(id string, labels ...[]string) *stubFrontend {
	return f.answerAt(id, ask.SourcePerson, time.Time{}, labels...)
}

// answerAt expects set id and answers it with labels, from src, at at.
func (f *stubFrontend) answerAt(id string, src ask.Source, at time.Time, labels ...[]string) *stubFrontend {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stubs = append(f.stubs, &stub{id: id, labels: labels, source: src, at: at})
	return f
}

// fail expects set id and returns err for it.
func (f *stubFrontend) fail(id string, err error) *stubFrontend {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stubs = append(f.stubs, &stub{id: id, err: err})
	return f
}

// Asked returns the ids of the sets asked, in order.
func (f *stubFrontend) Asked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

func (f *stubFrontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if f.before != nil {
		f.before(req)
	}
	f.mu.Lock()
	f.asked = append(f.asked, req.ID)
	f.inFlight++
	if f.inFlight > 1 {
		f.t.Errorf("question set %s asked while another was open on a frontend that is not concurrent", req.ID)
	}
	var s *stub
	for _, c := range f.stubs {
		if c.id == req.ID && !c.used {
			s = c
			break
		}
	}
	if s != nil {
		s.used = true
	}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		f.inFlight--
		f.mu.Unlock()
	}()
	if s == nil {
		f.t.Errorf("unexpected question set %s: %+v", req.ID, req.Questions)
		return nil, fmt.Errorf("%w: no stub for %s", ask.ErrNoAnswer, req.ID)
	}
	if s.err != nil {
		return nil, s.err
	}
	if len(s.labels) != len(req.Questions) {
		f.t.Errorf("question set %s has %d questions, the stub answers %d", req.ID, len(req.Questions), len(s.labels))
		return nil, fmt.Errorf("%w: stub mismatch", ask.ErrNoAnswer)
	}
	answers := make([]ask.Answer, len(req.Questions))
	for i, q := range req.Questions {
		a, err := ask.Selection(q, s.labels[i], "", s.source)
		if err != nil {
			f.t.Errorf("stub for %s: %v", req.ID, err)
			return nil, err
		}
		a.AnsweredAt = s.at
		answers[i] = a
	}
	return answers, nil
}

// blockFrontend never answers: it waits for ctx to end and reports why.
type blockFrontend struct {
	mu    sync.Mutex
	calls int
}

func (f *blockFrontend) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	<-ctx.Done()
	return nil, ask.CtxErr(ctx)
}

func (f *blockFrontend) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// turnProvider is a model that replies with its messages in order and
// records each request; it fails the test when called too often.
type turnProvider struct {
	t       *testing.T
	replies []agentloop.Message
	// before, if set, runs at the start of every call.
	before func(req agentloop.Request)

	mu    sync.Mutex
	calls []agentloop.Request
}

func (p *turnProvider) Name() string  { return "turns" }
func (p *turnProvider) Model() string { return "turns-1" }

func (p *turnProvider) Complete(ctx context.Context, req agentloop.Request, onText func(string)) (agentloop.Response, error) {
	if p.before != nil {
		p.before(req)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.calls)
	p.calls = append(p.calls, req)
	if n >= len(p.replies) {
		p.t.Errorf("model call %d, but only %d replies are scripted", n+1, len(p.replies))
		return agentloop.Response{}, &agentloop.ProviderError{Provider: "turns", Message: "no more replies"}
	}
	return agentloop.Response{Message: p.replies[n], StopReason: "end_turn", Usage: agentloop.Usage{InputTokens: 10, OutputTokens: 1}}, nil
}

func (p *turnProvider) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.calls)
}

// assistant is an assistant message with text and tool uses.
func assistant(text string, uses ...agentloop.Block) agentloop.Message {
	m := agentloop.Message{Role: agentloop.RoleAssistant}
	if text != "" {
		m.Content = append(m.Content, agentloop.Block{Type: agentloop.BlockText, Text: text})
	}
	return agentloop.Message{Role: m.Role, Content: append(m.Content, uses...)}
}

// askUse is an AskUserQuestion tool_use block.
func askUse(id, input string) agentloop.Block {
	return agentloop.Block{Type: agentloop.BlockToolUse, ID: id, Name: ask.ToolName, Input: json.RawMessage(input)}
}
