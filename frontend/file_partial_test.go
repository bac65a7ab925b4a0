package frontend

import (
	"errors"
	"testing"

	"github.com/askuser/askuser/ask"
)

// With unanswered: suspend, the answers the file gives to some questions
// of a set travel with the deferral, so a run keeps them.
func TestFileSuspendKeepsWhatItAnswers(t *testing.T) {
	f := parse(t, "unanswered: suspend\nanswers:\n  Region: {other: eu-west}\n")
	_, err := askFile(t, f, qDB, qRegion)
	pe, ok := ask.AsPartial(err)
	if !ok || !errors.Is(err, ask.ErrDeferred) {
		t.Fatalf("error %v: want a partial deferral", err)
	}
	if len(pe.Answers) != 2 || pe.Given[0] || !pe.Given[1] {
		t.Fatalf("given %v, want only Region (the second question)", pe.Given)
	}
	if a := pe.Answers[1]; a.Custom != "eu-west" || a.Source != ask.SourceFile || a.Via != testPath {
		t.Errorf("Region's kept answer %+v, want eu-west from %s", a, testPath)
	}
	// Nothing answered: a plain deferral; error policy: nothing kept.
	if _, err := askFile(t, f, qDB); err == nil || !errors.Is(err, ask.ErrDeferred) {
		t.Errorf("nothing answered: %v, want a deferral", err)
	} else if _, ok := ask.AsPartial(err); ok {
		t.Error("a deferral with nothing answered carries answers")
	}
	f.SetUnanswered(ask.PolicyError)
	if _, err := askFile(t, f, qDB, qRegion); !errors.Is(err, ask.ErrNoAnswer) {
		t.Errorf("policy error: %v, want ErrNoAnswer", err)
	} else if _, ok := ask.AsPartial(err); ok {
		t.Error("policy error keeps answers: nothing will come back for them")
	}
}
