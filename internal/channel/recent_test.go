package channel_test

import (
	"slices"
	"testing"

	"github.com/askuser/askuser/internal/channel"
)

// A delivery id is new once; the oldest is forgotten once n are kept.
func TestRecentKeepsTheLastN(t *testing.T) {
	r := channel.NewRecent(2)
	if !r.Add("a") || r.Add("a") || !r.Has("a") {
		t.Fatal("a first id is not new once, then remembered")
	}
	if r.Add("") || r.Has("") {
		t.Error("an empty id was remembered")
	}
	r.Add("b")
	r.Add("c")
	if r.Has("a") || !r.Has("b") || !r.Has("c") {
		t.Error("two ids kept are not the last two")
	}
}

func TestRememberKeepsTheNewest(t *testing.T) {
	var ids []string
	for _, id := range []string{"a", "b", "", "b", "c"} {
		ids = channel.Remember(ids, id, 2)
	}
	if !slices.Equal(ids, []string{"b", "c"}) {
		t.Errorf("Remember kept %q, want the newest two, once each", ids)
	}
}
