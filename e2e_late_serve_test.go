// The askuser binary runs on these systems; so do the helpers reused.
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
)

// A late answer to an agent askuser ran (run --agent), given where a
// person is: a tap in a chat channel (the test channel's fake platform)
// or an answer on askuser serve's page. serve continues the session in
// the background, on this machine and in its folder, and posts what the
// agent did next beside the question. Every host, in parallel.
func TestLateAnswerThroughServe(t *testing.T) {
	for _, kind := range []string{"claude", "codex", "gemini", "opencode"} {
		for _, via := range []string{"tap", "page"} {
			t.Run(kind+"/"+via, func(t *testing.T) {
				t.Parallel()
				h := newLateHost(t, kind, nil)
				cr := newChanRig(t)
				h.state = cr.state
				// The rig's config folder is the chat channel's; the host's
				// stays in its HOME.
				h.env = append(append(h.env, cr.env...), "XDG_CONFIG_HOME="+filepath.Join(h.home, ".config"))
				serve := startBackground(t, h.env, "serve")
				pageURL := serve.url(t)
				frontend := "testchan"
				if via == "page" {
					frontend = "inbox"
				}
				id := h.stop(t, frontend)
				m := cr.message(t, "asking the waiting question", asking("Database"))
				by := "@alice on testchan"
				if via == "tap" {
					cr.tap(t, m, channeltest.Pick{Options: []int{1}})
				} else {
					base, token, _ := strings.Cut(pageURL, "?")
					webAnswer(t, base+"s/"+id+"?"+token, url.Values{"q0": {"1"}})
					by = "" // the page names no one
				}
				t.Cleanup(func() {
					if t.Failed() {
						logs, _ := filepath.Glob(filepath.Join(cr.state, "sessions", "*.d", "serve.log"))
						for _, l := range logs {
							b, _ := os.ReadFile(l)
							t.Logf("%s:\n%s", l, b)
						}
						t.Logf("serve:\n%s", serve.stderr)
					}
				})
				if via == "tap" {
					// What the agent did next is posted beside the question.
					if done := cr.replied(t, m); !strings.Contains(done.Replies[0], "Using SQLite.") {
						t.Errorf("the reply beside the question:\n%s", done.Replies[0])
					}
				}
				// The background resume has ended (nothing of it outlives the test).
				for deadline := time.Now().Add(waitLimit); !strings.Contains(serve.stderr.String(), "askuser resume ended: exit 0"); time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("the background resume did not end well (%d model turns left)", h.srv.Remaining())
					}
				}
				if kind == "claude" {
					h.answered(t, "", serve.stderr.String())
				} else {
					want := "The user answered: SQLite"
					if by != "" {
						want += " (via " + by
					}
					h.answered(t, want, serve.stderr.String())
				}
				code, stdout, _ := h.askuser(t, nil, "sessions")
				if code != 0 || !strings.Contains(stdout, id[:8]) {
					t.Errorf("askuser sessions:\n%s", stdout)
				}
			})
		}
	}
}
