package frontend

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

// timeNow is the time just before an Ask, set a millisecond back so a
// coarse clock cannot make a correct AnsweredAt look early.
func timeNow() time.Time { return time.Now().Add(-time.Millisecond) }

func opts(labels ...string) []ask.Option {
	o := make([]ask.Option, len(labels))
	for i, l := range labels {
		o[i] = ask.Option{Label: l, Description: "about " + l}
	}
	return o
}

func TestAutoAsk(t *testing.T) {
	auto := Auto{Reason: "CI has no terminal"}
	qs := []ask.Question{
		{Question: "Which package manager do you prefer?", Header: "Package Mgr", Options: opts("npm", "pnpm (Recommended)", "yarn")},
		{Question: "Which features should we enable?", Header: "Features", MultiSelect: true, Options: opts("TypeScript (Recommended)", "Tailwind CSS", "ESLint (Recommended)")},
		{Question: "Where should we deploy?", Header: "Region", Options: opts("us-east", "eu-west")},
	}
	got, err := auto.Ask(context.Background(), ask.Request{ID: "r1", Questions: qs})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"pnpm"}, {"TypeScript", "ESLint"}, {"us-east"}}
	if len(got) != len(want) {
		t.Fatalf("got %d answers, want %d", len(got), len(want))
	}
	for i, a := range got {
		if !slices.Equal(a.Selected, want[i]) || a.Source != ask.SourcePolicy || a.Reason != auto.Reason {
			t.Errorf("answer %d: %q from %s (%q); want %q from policy (%q)", i, a.Selected, a.Source, a.Reason, want[i], auto.Reason)
		}
	}
}

func TestAutoContextDone(t *testing.T) {
	qDB := ask.Question{Question: "Which database should we use?", Header: "Database", Options: opts("PostgreSQL", "SQLite")}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got, err := (Auto{}).Ask(ctx, ask.Request{Questions: []ask.Question{qDB}}); !errors.Is(err, ask.ErrCancelled) || got != nil {
		t.Errorf("cancelled: %+v, %v; want ErrCancelled", got, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), -1)
	defer cancel()
	if _, err := (Auto{}).Ask(ctx, ask.Request{Questions: []ask.Question{qDB}}); !errors.Is(err, ask.ErrTimeout) {
		t.Errorf("deadline passed: %v; want ErrTimeout", err)
	}
}
