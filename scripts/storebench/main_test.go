package main

import (
	"slices"
	"strings"
	"testing"
)

// -phases picks the phases in the order given, once each; a phase it
// does not know, or a count that cannot work, is an error naming it.
func TestCheckFlags(t *testing.T) {
	for _, c := range []struct {
		runs, waiting, lists int
		phases               string
		want                 []string
		err                  string
	}{
		{50, 1000, 5, "live,suspended", []string{phaseLive, phaseSuspended}, ""},
		{5, 50, 1, " suspended , live,suspended", []string{phaseSuspended, phaseLive}, ""},
		{5, 0, 1, "suspended", []string{phaseSuspended}, ""},
		{5, 50, 1, "live,suspend", nil, `no phase "suspend"; give live, suspended or both`},
		{5, 50, 1, "", nil, `no phase ""`},
		{5, 50, 1, strings.Repeat("x", 100), nil, `no phase "` + strings.Repeat("x", 60) + `";`},
		{0, 50, 1, "live", nil, "got 0, 1 and 50"},
		{5, -1, 1, "live", nil, "-waiting at least 0"},
	} {
		o := options{runs: c.runs, waiting: c.waiting, lists: c.lists}
		err := checkFlags(&o, c.phases)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("-phases %q: %v", c.phases, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("-runs %d -waiting %d -phases %q: error %v, want one saying %q", c.runs, c.waiting, c.phases, err, c.err)
		case !slices.Equal(o.phases, c.want) && c.err == "":
			t.Errorf("-phases %q: phases %q, want %q", c.phases, o.phases, c.want)
		}
	}
}
