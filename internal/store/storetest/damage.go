package storetest

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel"
)

// Damage makes the registry entry under key unreadable in the store under
// test, keeping the session it names readable: the entry then holds the
// set of another key, as a planted or a mixed-up entry does.
type Damage func(t *testing.T, key, otherKey string)

// RemoveBesideDamage: removing a session withdraws its sets, though
// another session's registry entry is damaged; damage of one of its own
// entries is reported. It is a case of the contract that needs a hand
// inside the store, so each store's tests call it with their Damage.
func RemoveBesideDamage(t *testing.T, procs Procs, damage Damage) {
	st := procs()
	ctx := ctxT(t)
	reg := st.Registry()
	gone, other := string(idGone), string(idHeld)
	newSession(t, st, idGone, "p").Close()
	newSession(t, st, idHeld, "q").Close()
	goneKey, otherKey, otherBad := channel.Key(gone, "toolu_1"), channel.Key(other, "toolu_1"), channel.Key(other, "toolu_2")
	Register(t, reg, goneKey, gone)
	Register(t, reg, otherKey, other)
	Register(t, reg, otherBad, other)
	damage(t, otherBad, otherKey)

	if _, err := procs().Remove(gone); err != nil {
		t.Errorf("removing a session beside another's damaged registry entry: %v", err)
	}
	if e, err := reg.Get(ctx, goneKey); err != nil || e.Outcome.State != channel.Withdrawn {
		t.Errorf("the removed session's set: %+v, %v; want it withdrawn", e.Outcome, err)
	}
	if e, err := reg.Get(ctx, otherKey); err != nil || !e.Pending() {
		t.Errorf("the other session's set: %+v, %v; want it waiting", e.Outcome, err)
	}
	_, err := procs().Remove(other)
	if err == nil || !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), otherBad) {
		t.Errorf("removing a session whose own entry is damaged: %v; want the damage named", err)
	}
	if e, err := reg.Get(ctx, otherKey); err != nil || e.Outcome.State != channel.Withdrawn {
		t.Errorf("its intact set: %+v, %v; want it withdrawn all the same", e.Outcome, err)
	}
}
