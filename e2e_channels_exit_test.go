// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// A process that answers through a channel and ends shows the outcome on
// the widget before it exits, for a bounded time; what it could not show
// is shown by the next process to hold the channel (e2e_channels_test.go
// has the rig).

// The platform stops answering updates just as alice's tap answers a
// resume: the resume still exits 0, within its bound, saying the outcome
// was left for later; askuser serve, started once the platform is back,
// shows it.
func TestChannelOutcomeLeftForServeWhenThePlatformIsDown(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the suspended run", asking("Database"))
	cr.srv.Hang("/update", true)
	resume := startBackground(t, cr.env, "resume", id, "-p", "--output-format", "json", "--frontend", "testchan")
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := resume.exit(t); code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, resume.stderr)
	}
	if !strings.Contains(resume.stderr.String(), "could not update question "+m.Key+" before askuser stopped") {
		t.Errorf("the resume does not say the outcome is left for later:\n%s", resume.stderr)
	}
	if got := cr.srv.Messages()[m.ID-1]; len(got.Updates) != 0 {
		t.Fatalf("updated while the platform was down: %q", got.Updates)
	}
	cr.srv.Hang("/update", false)
	cr.startServe(t)
	cr.shownAnswered(t, m)
}

// The resume is killed (kill -9) after it took alice's tap and before the
// platform took the update: askuser serve shows the outcome.
func TestChannelOutcomeLeftForServeWhenKilled(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the suspended run", asking("Database"))
	cr.srv.Hang("/update", true)
	resume := startBackground(t, cr.env, "resume", id, "-p", "--output-format", "json", "--frontend", "testchan")
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	cr.waitFile(t, filepath.Join(cr.state, "relay", m.Key+".json"), `"state":"answered"`)
	kill(t, resume)
	cr.srv.Hang("/update", false)
	cr.startServe(t)
	cr.shownAnswered(t, m)
}

// shownAnswered requires message m to show, once, that alice answered it.
func (cr *chanRig) shownAnswered(t *testing.T, m channeltest.Message) {
	t.Helper()
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if len(u.Updates) != 1 || !strings.HasPrefix(u.Updates[0], "Answered: SQLite — by @alice on testchan, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}
}
