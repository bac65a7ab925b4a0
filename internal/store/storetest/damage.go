package storetest

import (
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Hand reaches inside the store under test, for the cases about damage
// that the session API cannot cause (a planted or half-restored file, a
// row edited by hand). Each store's tests give their own to RunDamage.
type Hand struct {
	// MisfileEntry makes the registry entry under key hold the set of
	// otherKey, keeping the session it names readable.
	MisfileEntry func(t *testing.T, key, otherKey string)
	// EmptyAnswer makes box's answer, posted, one whose answers are an
	// empty list.
	EmptyAnswer func(t *testing.T, box session.Box)
}

// RunDamage runs the damage cases against the store procs makes, reaching
// inside it with hand.
func RunDamage(t *testing.T, newStore func(t *testing.T) Procs, hand Hand) {
	t.Run("registry/remove beside another session's damage", func(t *testing.T) { removeBesideDamage(t, newStore(t), hand) })
	t.Run("mailbox/an answer with no answers is damaged", func(t *testing.T) { emptyAnswer(t, newStore(t), hand) })
}

// removeBesideDamage: removing a session withdraws its sets, though
// another session's registry entry is damaged; damage of one of its own
// entries is reported.
func removeBesideDamage(t *testing.T, procs Procs, hand Hand) {
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
	hand.MisfileEntry(t, otherBad, otherKey)

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

// emptyAnswer: an answer whose answers are an empty list is damaged, and
// the error says so (not "<nil>"), to Get, Wait and a second Post alike.
func emptyAnswer(t *testing.T, procs Procs, hand Hand) {
	st := procs()
	ctx := ctxT(t)
	box := session.Box{Key: channel.Key("", "ask_empty")}
	if err := st.Mailbox().Post(ctx, box, delivery("@alice on Slack")); err != nil {
		t.Fatal(err)
	}
	hand.EmptyAnswer(t, box)
	const want = "is damaged (it holds no answers)"
	_, ok, err := procs().Mailbox().Get(ctx, box)
	if ok || err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Get: %v, %v; want an error saying %q", ok, err, want)
	}
	if _, err := procs().Mailbox().Wait(ctx, box); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Wait: %v; want an error saying %q", err, want)
	}
	if err := procs().Mailbox().Post(ctx, box, delivery("@bob on Slack")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a second Post: %v; want an error saying %q", err, want)
	}
}
