package sessions

import (
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

func TestParseAge(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"7d": 7 * 24 * time.Hour, "36h": 36 * time.Hour, "90m": 90 * time.Minute, "1d12h": 36 * time.Hour, "0d30s": 30 * time.Second,
	} {
		if got, err := parseAge("--older-than", in); err != nil || got != want {
			t.Errorf("parseAge(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, msg := range map[string]string{
		"7":            `"7" has no unit; add a unit, for example 7d (days) or 7h`,
		"7days":        `"7days" is not an age`,
		"":             `"" is not an age`,
		"0d":           `"0d" is not more than zero`,
		"-3h":          `"-3h" is not more than zero`,
		"d":            `"d" is not an age`,
		"99999999999d": `is too long`,
	} {
		_, err := parseAge("--older-than", in)
		if err == nil || cmdutil.ExitCode(err) != cmdutil.ExitUsage || !strings.Contains(err.Error(), msg) {
			t.Errorf("parseAge(%q) err %v (exit %d), want a usage error with %q", in, err, cmdutil.ExitCode(err), msg)
		}
	}
}

func TestShortIDs(t *testing.T) {
	all := []session.Summary{{ID: "3f2a9c1d-aaaa-4000-8000-000000000000"}, {ID: "3f2a9c1d-abbb-4000-8000-000000000000"}, {ID: "77777777-0000-4000-8000-000000000000"}, {ID: "short"}}
	got := shortIDs(all[:3], all)
	want := []string{"3f2a9c1d-aa", "3f2a9c1d-ab", "77777777"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("shortIDs = %q, want %q", got, want)
			break
		}
	}
	if got := shortIDs(all[3:], all); got[0] != "short" {
		t.Errorf("a short id was cut to %q", got[0])
	}
	// A damaged journal's name that is no id is taken by rm only whole,
	// so it is shown whole.
	damaged := []session.Summary{{ID: "notes-from-monday"}, {ID: "3f2a9c1d-aaaa-4aaa-8aaa-aaaaaaaaaaaa"}}
	if got := shortIDs(damaged, damaged); got[0] != "notes-from-monday" || got[1] != "3f2a9c1d" {
		t.Errorf("shortIDs = %q, want the name that is no id whole", got)
	}
}

// With a team store, "here" is this directory of this machine: another
// machine's session in a directory of the same name is not here, and is
// listed under its machine's name.
func TestSessionsHereIsThisMachine(t *testing.T) {
	here := t.TempDir()
	mine := session.Summary{Cwd: here, Machine: "laptop"}
	theirs := session.Summary{Cwd: here, Machine: "build-7"}
	older := session.Summary{Cwd: here} // recorded no machine: this one's
	if !cmdutil.IsHere(mine, here, "laptop") || cmdutil.IsHere(theirs, here, "laptop") || !cmdutil.IsHere(older, here, "laptop") {
		t.Errorf("isHere: mine %v, theirs %v, older %v", cmdutil.IsHere(mine, here, "laptop"), cmdutil.IsHere(theirs, here, "laptop"), cmdutil.IsHere(older, here, "laptop"))
	}
	if got := showDir(mine, here, "laptop"); got != "." {
		t.Errorf("this machine's session here shows as %q", got)
	}
	if got := showDir(theirs, here, "laptop"); got != "build-7:"+cmdutil.ClipLeft(here, 30) {
		t.Errorf("another machine's session shows as %q", got)
	}
}
