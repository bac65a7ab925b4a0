//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// With the team store, an agent stopped on one machine (its own HOME and
// state directory) is continued on another that has the project: a later
// CI job parks with askuser resume --wait, the answer comes from serve's
// page on the first machine, and the second continues the agent with the
// host's transcript the store kept (the second HOME has none of its own).
func TestLateAnswerTeamStoreOtherMachine(t *testing.T) {
	storeURL := pgtest.DB(t)
	for _, kind := range []string{"claude", "codex"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			h.env = append(h.env, "ASKUSER_STORE="+storeURL, "ASKUSER_MACHINE=machine-a-"+kind)
			id := h.stop(t, "inbox")
			homeB := t.TempDir()
			if err := os.MkdirAll(filepath.Join(homeB, ".codex"), 0o700); err != nil {
				t.Fatal(err)
			}
			envB := append(append([]string(nil), h.env...), "HOME="+homeB, "CODEX_HOME="+filepath.Join(homeB, ".codex"),
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
