package frontend

import (
	"context"
	"errors"
	"strings"
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

// A resumed run asks its sets again in no fixed order: with
// HoldForLaterSets, a line for a set not open yet waits for it, even past
// the end of input, where it would otherwise be refused.
func TestStdioHoldForLaterSets(t *testing.T) {
	g := newRig(t, StdioConfig{SuspendAtEnd: true, HoldForLaterSets: true})
	first := g.ask(context.Background(), oneQ("q1", "Color", "Red", "Blue"))
	g.expectQuestion("q1")
	g.send(`{"id":"q2","source":"person","answers":{"Size":"Large"}}`, `{"id":"q3","source":"person","answers":{"Shape":"Round"}}`)
	second := g.ask(context.Background(), oneQ("q2", "Size", "Small", "Large"))
	g.expectQuestion("q2")
	checkSummary(t, answered(t, second), []string{"Size: Large (person)"})
	g.in.Close()
	if r := wait(t, first); !errors.Is(r.err, ask.ErrDeferred) {
		t.Errorf("q1, never answered: got %v, want ErrDeferred", r.err)
	}
	// Asked only after the end of input: the line kept for it answers it.
	third, err := g.s.Ask(bounded(t), oneQ("q3", "Shape", "Round", "Square"))
	if err != nil {
		t.Fatal(err)
	}
	checkSummary(t, summary(t, third), []string{"Shape: Round (person)"})
	g.expectQuestion("q3") // and no error line about the lines kept
	g.noMoreOutput()

	// Without it, the line for a set not open is refused, as before.
	h := newRig(t, StdioConfig{})
	h.askOpen(oneQ("q1", "Color", "Red", "Blue"))
	h.send(`{"id":"q2","answers":{"Size":"Large"}}`)
	if m := h.next(); m["type"] != "error" || !strings.Contains(m["error"].(string), `no open question set has id "q2"`) {
		t.Errorf("got %v, want an error line", m)
	}
}

// Concurrent sub-agents and resumed sets open in no fixed order: with
// HoldForLaterSets, a line without "id" that fits none of the open sets
// waits for a set it fits, and one that never finds a set is named in the
// error of the set left unanswered.
func TestStdioHoldsIDLessLineForLaterSet(t *testing.T) {
	g := newRig(t, StdioConfig{SuspendAtEnd: true, HoldForLaterSets: true})
	first := g.ask(context.Background(), oneQ("db", "Database", "Postgres", "SQLite"))
	g.expectQuestion("db")
	g.send(`{"source":"person","answers":{"Auth":"JWT"}}`, `{"source":"person","answers":{"Databse":"SQLite"}}`)
	second := g.ask(context.Background(), oneQ("auth", "Auth", "OAuth", "JWT"))
	g.expectQuestion("auth")
	checkSummary(t, answered(t, second), []string{"Auth: JWT (person)"})
	g.in.Close()
	r := wait(t, first)
	if !errors.Is(r.err, ask.ErrDeferred) || !strings.Contains(r.err.Error(), "held for a question set that was never asked: stdin line 2") {
		t.Errorf("db, never answered: got %v, want ErrDeferred naming stdin line 2", r.err)
	}

	// Without it, a line that fits no open set is refused at once.
	h := newRig(t, StdioConfig{})
	h.askOpen(oneQ("db", "Database", "Postgres", "SQLite"))
	h.send(`{"answers":{"Auth":"JWT"}}`)
	if m := h.next(); m["type"] != "error" || !strings.Contains(m["error"].(string), `no question of this set is called "Auth"`) {
		t.Errorf("got %v, want an error line", m)
	}
}

// A resumed run says which sets it will ask again (Expected): a line for
// one not open yet waits for it, by id or, without one, by its headers,
// while a line that fits nothing is still refused at once.
func TestStdioExpectedSets(t *testing.T) {
	db, auth := oneQ("db", "Database", "Postgres", "SQLite"), oneQ("auth", "Auth", "OAuth", "JWT")
	g := newRig(t, StdioConfig{Expected: []ask.Request{db, auth}})
	first := g.ask(context.Background(), db)
	g.expectQuestion("db")
	g.send(`{"source":"person","answers":{"Auth":"JWT"}}`, `{"answers":{"Databse":"SQLite"}}`)
	if m := g.next(); m["type"] != "error" || !strings.Contains(m["error"].(string), `stdin line 2`) {
		t.Errorf("got %v, want an error line about line 2", m)
	}
	second := g.ask(context.Background(), auth)
	g.expectQuestion("auth")
	checkSummary(t, answered(t, second), []string{"Auth: JWT (person)"})
	g.send(`{"answers":{"Database":"SQLite"}}`)
	checkSummary(t, answered(t, first), []string{"Database: SQLite (program)"})
}
