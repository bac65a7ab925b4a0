package ask

import (
	"errors"
	"fmt"
	"testing"
)

func TestAsPartial(t *testing.T) {
	deferred := fmt.Errorf("%w: the file has no entry", ErrDeferred)
	some := &PartialError{Answers: make([]Answer, 2), Given: []bool{false, true}, Err: deferred}
	if pe, ok := AsPartial(fmt.Errorf("ask: %w", some)); !ok || pe != some {
		t.Errorf("AsPartial of a wrapped partial deferral = %v, %v", pe, ok)
	}
	if !errors.Is(some, ErrDeferred) {
		t.Error("a partial deferral is not ErrDeferred")
	}
	for name, err := range map[string]error{
		"none given":   &PartialError{Answers: make([]Answer, 2), Given: []bool{false, false}, Err: deferred},
		"not deferred": &PartialError{Answers: make([]Answer, 1), Given: []bool{true}, Err: ErrNoAnswer},
		"mismatched":   &PartialError{Answers: make([]Answer, 1), Given: []bool{true, true}, Err: deferred},
		"plain":        deferred,
	} {
		if _, ok := AsPartial(err); ok {
			t.Errorf("%s: AsPartial found answers to keep", name)
		}
	}
}
