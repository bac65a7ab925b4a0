package frontend

import (
	"context"
	"errors"
	"testing"

	"github.com/askuser/askuser/ask"
)

// With SuspendAtEnd, the end of In answers what was sent and defers the
// rest: askuser serve answers some of a session's sets and closes stdin,
// and the others must stay pending rather than fail the run.
func TestStdioSuspendAtEnd(t *testing.T) {
	g := newRig(t, StdioConfig{SuspendAtEnd: true})
	first := g.ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	g.expectQuestion("q1")
	second := g.ask(context.Background(), oneQ("q2", "Size", "Small", "Large"))
	g.expectQuestion("q2")
	g.send(`{"id":"q1","source":"person","answers":{"Color":"Blue"}}`)
	checkSummary(t, answered(t, first), []string{"Color: Blue (person)"})
	g.in.Close()
	r := wait(t, second)
	if !errors.Is(r.err, ask.ErrDeferred) || errors.Is(r.err, ask.ErrNoAnswer) {
		t.Fatalf("unanswered set at the end of input: got %v, want ErrDeferred only", r.err)
	}
	want := "answer deferred: stdin closed before question set q2 (Size) was answered (--on-unanswered suspend)"
	if r.err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", r.err, want)
	}
}
