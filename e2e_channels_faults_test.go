// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// askuser serve is killed (kill -9) after it sent a question, and again
// just as a tap's answer reaches the mailbox: each time the next serve
// goes on from the state directory, sends nothing twice, and the session
// gets its answer exactly once.
func TestChannelSurvivesServeKilled(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	serve := cr.startServe(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the waiting session", asking("Database"))
	cr.waitFile(t, filepath.Join(cr.state, "relay", m.Key+".json"), `"ref":{"id":1}`)
	kill(t, serve)
	serve = cr.startServe(t)
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	cr.replied(t, m)
	if n := countKey(cr.srv.Messages(), m.Key); n != 1 {
		t.Errorf("the question was sent %d times", n)
	}
	if j := cr.journal(t, id); strings.Count(j, `{"type":"answered",`) != 1 {
		t.Errorf("the call was not answered exactly once:\n%s", j)
	}

	// Killed between the tap's answer reaching the mailbox and the resume.
	id2 := cr.suspend(t)
	m2 := cr.message(t, "of the second session", func(x channeltest.Message) bool { return x.ID > m.ID && strings.Contains(x.Text, "Database:") })
	go cr.srv.Tap(waitLimit, "U-bob", "@bob", m2, channeltest.Pick{Options: []int{0}})
	cr.waitGlob(t, filepath.Join(cr.state, "sessions", id2+".d", "mailbox", "*.json"))
	kill(t, serve)
	cr.startServe(t)
	done := cr.replied(t, m2)
	if !strings.Contains(done.Replies[0], "Selected: PostgreSQL\n   Via: @bob on testchan") {
		t.Errorf("the reply beside the second question:\n%s", done.Replies[0])
	}
	if j := cr.journal(t, id2); strings.Count(j, `{"type":"answered",`) != 1 || strings.Count(j, `"selectedOptions":["PostgreSQL"]`) == 0 {
		t.Errorf("the second call was not answered exactly once with bob's answer:\n%s", j)
	}
	if n := countKey(cr.srv.Messages(), m2.Key); n != 1 {
		t.Errorf("the second question was sent %d times", n)
	}
}

func countKey(ms []channeltest.Message, key string) int {
	n := 0
	for _, m := range ms {
		if m.Key == key {
			n++
		}
	}
	return n
}

// kill kills p with SIGKILL and waits for it.
func kill(t *testing.T, p *bgAskuser) {
	t.Helper()
	_ = p.cmd.Process.Kill()
	p.exit(t)
}

// waitFile waits until the file at path holds want.
func (cr *chanRig) waitFile(t *testing.T, path, want string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %s", path, want)
		}
	}
}

// waitGlob waits until a file matches pattern.
func (cr *chanRig) waitGlob(t *testing.T, pattern string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(time.Millisecond) {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing matched %s", pattern)
		}
	}
}

// askuser cancel on a session whose question waits in the chat: the
// widget says it was cancelled, and why; a tap on it is refused, and
// nothing is resumed.
func TestChannelCancelShowsOnTheWidget(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.startServe(t)
	id := cr.suspend(t)
	m := cr.message(t, "of the waiting session", asking("Database"))
	cancel := exec.Command(askuserBin(), "cancel", id, "--reason", "not needed any more")
	cancel.Env = append(os.Environ(), cr.env...)
	if out, err := cancel.CombinedOutput(); err != nil {
		t.Fatalf("cancel: %v\n%s", err, out)
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if u.State != "cancelled" || !strings.HasPrefix(u.Updates[0], "Cancelled: the person declined to answer: not needed any more (") {
		t.Errorf("the widget shows %q (%s)", u.Updates, u.State)
	}
	if _, v, _ := cr.srv.Tap(waitLimit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{0}}); v.OK || !strings.HasPrefix(v.Text, "This question was cancelled") {
		t.Errorf("a tap after the cancel: %+v", v)
	}
	if logs, _ := filepath.Glob(filepath.Join(cr.state, "sessions", "*.d", "serve.log")); len(logs) != 0 {
		t.Errorf("a cancelled session was resumed: %v", logs)
	}
}

// askuser serve killed (kill -9) after the platform took a question's
// message and before serve noted it: the next serve cannot tell whether
// the message went out, so it sends the question again, saying so; the
// earlier copy still answers, once, and the new one shows the outcome.
func TestChannelSendRepeatedAfterAKillIsMarked(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.srv.StallSends(1)
	serve := cr.startServe(t)
	id := cr.suspend(t)
	first := cr.message(t, "taken by the platform", asking("Database"))
	cr.waitFile(t, filepath.Join(cr.state, "relay", first.Key+".json"), `"sending":`)
	kill(t, serve)
	cr.startServe(t)
	again := cr.message(t, "sent again", func(x channeltest.Message) bool { return x.ID > first.ID && x.Key == first.Key })
	if !strings.Contains(again.Text, "Sent again after askuser restarted: if an earlier copy of this question reached you, it works too.") ||
		strings.Contains(first.Text, "Sent again") {
		t.Errorf("the copies:\n%s\n---\n%s", first.Text, again.Text)
	}
	cr.tap(t, first, channeltest.Pick{Options: []int{1}})
	done := cr.replied(t, again)
	if !strings.Contains(done.Replies[0], "Selected: SQLite\n   Via: @alice on testchan") || !strings.HasPrefix(done.Updates[0], "Answered: SQLite — by @alice on testchan") {
		t.Errorf("the copy askuser knows: updates %q, replies %q", done.Updates, done.Replies)
	}
	if j := cr.journal(t, id); strings.Count(j, `{"type":"answered",`) != 1 {
		t.Errorf("the call was not answered exactly once:\n%s", j)
	}
	if n := countKey(cr.srv.Messages(), first.Key); n != 2 {
		t.Errorf("the question was sent %d times, want twice", n)
	}
}
