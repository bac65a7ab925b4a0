package frontend

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// funcFE is a frontend made of a function, concurrent or not.
type funcFE struct {
	conc bool
	ask  func(ctx context.Context, req ask.Request) ([]ask.Answer, error)
}

func (f funcFE) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	return f.ask(ctx, req)
}
func (f funcFE) Concurrent() bool { return f.conc }

// answerNow answers with label at once, as a person would.
func answerNow(label string) funcFE {
	return funcFE{ask: func(_ context.Context, req ask.Request) ([]ask.Answer, error) {
		a, err := ask.Selection(req.Questions[0], []string{label}, "", ask.SourcePerson)
		return []ask.Answer{a}, err
	}}
}

// after runs f once started is closed.
func after(started chan struct{}, f funcFE) funcFE {
	return funcFE{conc: f.conc, ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		<-started
		return f.ask(ctx, req)
	}}
}

// waitOut blocks until it is withdrawn, records why, and takes a moment
// to return, as a terminal prompt restoring the terminal does. started is
// closed once it is asked.
type waitOut struct {
	mu       sync.Mutex
	cause    error
	returned atomic.Bool
	started  chan struct{}
}

func newWaitOut() *waitOut { return &waitOut{started: make(chan struct{})} }

func (w *waitOut) fe() funcFE {
	return funcFE{ask: func(ctx context.Context, _ ask.Request) ([]ask.Answer, error) {
		close(w.started)
		<-ctx.Done()
		w.mu.Lock()
		w.cause = context.Cause(ctx)
		w.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		w.returned.Store(true)
		return nil, ask.CtxErr(ctx)
	}}
}

func checkPicked(t *testing.T, answers []ask.Answer, label string) {
	t.Helper()
	if len(answers) != 1 || len(answers[0].Selected) != 1 || answers[0].Selected[0] != label || answers[0].Source != ask.SourcePerson {
		t.Errorf("got %+v, want %s chosen by a person", answers, label)
	}
}

func TestRaceFirstAnswerWins(t *testing.T) {
	slow := newWaitOut()
	r := NewRace(Racer{"survey", slow.fe()}, Racer{"web", after(slow.started, answerNow("Blue"))})
	answers, err := r.Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	if err != nil {
		t.Fatal(err)
	}
	checkPicked(t, answers, "Blue")
	if !slow.returned.Load() {
		t.Error("Ask returned before the losing frontend had returned (a prompt could still hold the terminal)")
	}
	if slow.cause == nil || slow.cause.Error() != "answered through web" {
		t.Errorf("the loser was withdrawn with cause %v, want \"answered through web\"", slow.cause)
	}
}

func TestRaceNoAnswerDropsOut(t *testing.T) {
	noTTY := funcFE{ask: func(context.Context, ask.Request) ([]ask.Answer, error) {
		return nil, fmt.Errorf("%w: no terminal to ask on", ask.ErrNoAnswer)
	}}
	late := funcFE{ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		time.Sleep(30 * time.Millisecond) // after the other dropped out
		return answerNow("Red").ask(ctx, req)
	}}
	answers, err := NewRace(Racer{"survey", noTTY}, Racer{"web", late}).Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	if err != nil {
		t.Fatalf("one frontend could not answer, the other did: got %v", err)
	}
	checkPicked(t, answers, "Red")

	other := funcFE{ask: func(context.Context, ask.Request) ([]ask.Answer, error) {
		return nil, fmt.Errorf("%w: the answers file has no entry for Color", ask.ErrNoAnswer)
	}}
	_, err = NewRace(Racer{"survey", noTTY}, Racer{"file", other}).Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	want := "no answer: none of the frontends could answer (survey: no terminal to ask on; file: the answers file has no entry for Color)"
	if !errors.Is(err, ask.ErrNoAnswer) || err.Error() != want {
		t.Errorf("every frontend dropped out:\n got %v\nwant %s", err, want)
	}
}

// Ctrl+C at the terminal is an answer of sorts: the person cancelled, so
// the set is given up everywhere.
func TestRaceCancelAtOneFrontendDecides(t *testing.T) {
	web := newWaitOut()
	ctrlC := after(web.started, funcFE{ask: func(context.Context, ask.Request) ([]ask.Answer, error) {
		return nil, fmt.Errorf("%w: Ctrl+C at the prompt", ask.ErrCancelled)
	}})
	_, err := NewRace(Racer{"web", web.fe()}, Racer{"survey", ctrlC}).Ask(bounded(t), oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrCancelled) || !strings.Contains(err.Error(), "Ctrl+C") {
		t.Fatalf("got %v, want the terminal's cancellation", err)
	}
	if !web.returned.Load() || !strings.HasPrefix(web.cause.Error(), "given up through survey") {
		t.Errorf("the web card was not withdrawn as given up (returned %v, cause %v)", web.returned.Load(), web.cause)
	}
}

func TestRaceParentCancelled(t *testing.T) {
	a, b := newWaitOut(), newWaitOut()
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		<-a.started
		<-b.started
		cancel(errors.New("interrupted by SIGINT"))
	}()
	_, err := NewRace(Racer{"web", a.fe()}, Racer{"survey", b.fe()}).Ask(ctx, oneQ("q1", "Color", "Red", "Blue"))
	if !errors.Is(err, ask.ErrCancelled) || !strings.Contains(err.Error(), "SIGINT") {
		t.Errorf("got %v, want the run's own cancellation", err)
	}
	if !a.returned.Load() || !b.returned.Load() {
		t.Error("Ask returned before both frontends had")
	}
}

// A frontend that asks one set at a time gets the sets in turn while a
// concurrent one holds them all; a set answered on the concurrent one
// while it queued never reaches the other.
func TestRaceQueuesForOneAtATime(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	var inside, most int
	terminal := funcFE{ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		mu.Lock()
		seen = append(seen, req.ID)
		inside++
		most = max(most, inside)
		mu.Unlock()
		<-ctx.Done()
		mu.Lock()
		inside--
		mu.Unlock()
		return nil, ask.CtxErr(ctx)
	}}
	release := map[string]chan struct{}{"q1": make(chan struct{}), "q2": make(chan struct{})}
	page := funcFE{conc: true, ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		select {
		case <-release[req.ID]:
			return answerNow("Red").ask(ctx, req)
		case <-ctx.Done():
			return nil, ask.CtxErr(ctx)
		}
	}}
	r := NewRace(Racer{"survey", terminal}, Racer{"web", page})
	if !r.Concurrent() {
		t.Fatal("a race with a concurrent frontend should be concurrent")
	}
	done := map[string]chan error{"q1": make(chan error, 1), "q2": make(chan error, 1)}
	for id, ch := range done {
		go func() {
			_, err := r.Ask(bounded(t), oneQ(id, "Color", "Red", "Blue"))
			ch <- err
		}()
	}
	first := ""
	for first == "" {
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		if len(seen) > 0 {
			first = seen[0]
		}
		mu.Unlock()
	}
	queued := map[string]string{"q1": "q2", "q2": "q1"}[first]
	close(release[queued]) // answered on the page while it waits for the terminal
	if err := wait(t, (<-chan error)(done[queued])); err != nil {
		t.Fatalf("%s: %v", queued, err)
	}
	close(release[first])
	if err := wait(t, (<-chan error)(done[first])); err != nil {
		t.Fatalf("%s: %v", first, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if most != 1 || len(seen) != 1 {
		t.Errorf("the one-at-a-time frontend saw %v, at most %d at once; want only %s, one at a time", seen, most, first)
	}
	if NewRace(Racer{"survey", terminal}).Concurrent() {
		t.Error("a race of one-at-a-time frontends should not be concurrent")
	}
}
