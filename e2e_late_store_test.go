//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// With the team store, an agent stopped on one machine (its own HOME and
// state directory) is continued on another that has the project: a later
// CI job parks with askuser resume --wait, the answer comes from serve's
// page on the first machine, and the second continues the agent with the
// host's transcript the store kept (the second HOME has none of its own).
func TestLateAnswerTeamStoreOtherMachine(t *testing.T) {
	storeURL := pgtest.DB(t)
	for _, kind := range []string{"claude", "codex", "gemini", "opencode"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			h.env = append(h.env, "ASKUSER_STORE="+storeURL, "ASKUSER_MACHINE=machine-a-"+kind)
			id := h.stop(t, "inbox")
			// Machine b: the same user settings (the fake model, its key),
			// none of the sessions.
			homeB := t.TempDir()
			if err := os.MkdirAll(filepath.Join(homeB, ".codex"), 0o700); err != nil {
				t.Fatal(err)
			}
			copySettings(t, h.home, homeB, ".gemini/settings.json", ".config/opencode/opencode.json",
				".config/opencode/package.json", ".config/opencode/package-lock.json")
			envB := append(append([]string(nil), h.env...), "HOME="+homeB, "CODEX_HOME="+filepath.Join(homeB, ".codex"),
				"XDG_CONFIG_HOME="+filepath.Join(homeB, ".config"),
				"ASKUSER_STATE_DIR="+filepath.Join(t.TempDir(), "b"), "ASKUSER_MACHINE=machine-b-"+kind)
			wait := startBackground(t, envB, "resume", "--wait", id)
			for deadline := time.Now().Add(waitLimit); !strings.Contains(wait.stderr.String(), "team store"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("resume --wait on machine b does not say it waits: %s", wait.stderr)
				}
			}
			serve := startBackground(t, h.env, "serve")
			base, token, _ := strings.Cut(serve.url(t), "?")
			webAnswer(t, base+"s/"+id+"?"+token, url.Values{"q0": {"1"}})
			if code := wait.exit(t); code != 0 {
				t.Fatalf("resume --wait on machine b: exit %d\n%s\n%s", code, wait.stdout, wait.stderr)
			}
			if kind == "claude" {
				h.answered(t, "", wait.stderr.String())
				if m, _ := filepath.Glob(filepath.Join(homeB, ".claude", "projects", "*", "*.jsonl")); len(m) != 1 {
					t.Errorf("machine b's HOME holds transcripts %v, want the one brought from the store", m)
				}
			} else {
				h.answered(t, "The user answered: SQLite", wait.stderr.String())
			}
		})
	}
}

// copySettings copies the files named (relative to from) that exist to to.
func copySettings(t *testing.T, from, to string, names ...string) {
	t.Helper()
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(from, n))
		if err != nil {
			continue
		}
		writeFile(t, filepath.Join(to, n), string(b))
	}
	if err := os.MkdirAll(filepath.Join(to, ".config", "opencode", "node_modules"), 0o700); err != nil {
		t.Fatal(err)
	}
}

// A tap on machine b's serve, for a Claude Code session stopped on
// machine a: serve does not run it there, and says beside the question
// where it will continue; askuser resume --wait on machine a takes the
// tap's answer at once and continues the very call, and serve then posts
// what the agent did next.
func TestLateAnswerTeamStoreElsewhere(t *testing.T) {
	t.Parallel()
	storeURL := pgtest.DB(t)
	h := newLateHost(t, "claude", nil)
	cr := newChanRig(t)
	h.env = append(append(h.env, cr.env...), "XDG_CONFIG_HOME="+filepath.Join(h.home, ".config"),
		"ASKUSER_STORE="+storeURL, "ASKUSER_MACHINE=machine-a", "ASKUSER_STATE_DIR="+h.state)
	envB := append(append([]string(nil), h.env...), "ASKUSER_STATE_DIR="+filepath.Join(t.TempDir(), "b"), "ASKUSER_MACHINE=machine-b")
	serveB := serveChannels(t, envB, "testchan")
	id := h.stop(t, "testchan")
	m := cr.message(t, "asking the waiting question", asking("Database"))
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	where := cr.message(t, "saying where it continues", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 0 })
	if want := "The agent continues on machine-a in " + h.dir + ", once askuser resume " + id + " runs there"; !strings.Contains(where.Replies[0], want) {
		t.Errorf("the reply beside the question: %q, want %q\nserve b: %s", where.Replies[0], want, serveB.stderr)
	}
	if h.srv.Remaining() != 1 {
		t.Fatalf("machine b ran the agent: %d turns left", h.srv.Remaining())
	}
	code, stdout, stderr := h.askuser(t, nil, "resume", "--wait", id)
	if code != 0 {
		t.Fatalf("resume --wait on machine a: exit %d\n%s\n%s", code, stdout, stderr)
	}
	h.answered(t, "", stderr)
	done := cr.message(t, "with what the agent did next", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Replies) > 1 })
	if !strings.Contains(done.Replies[1], "Using SQLite.") {
		t.Errorf("the follow-up: %q", done.Replies[1])
	}
}
