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
	"github.com/askuser/askuser/internal/fakeprovider"
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

// resume --wait parks on a host session and continues it when the answer
// comes from serve's page; askuser cancel declines a host session's
// question, and its resume tells the model so (Claude Code: in the very
// call; Codex: in the continuation prompt).
func TestLateAnswerWaitAndCancel(t *testing.T) {
	for _, kind := range []string{"claude", "codex"} {
		t.Run(kind+"/wait", func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			id := h.stop(t, "inbox")
			serve := startBackground(t, h.env, "serve")
			pageURL := serve.url(t)
			wait := startBackground(t, h.env, "resume", "--wait", id)
			for deadline := time.Now().Add(waitLimit); !strings.Contains(wait.stderr.String(), "answer in the inbox"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("resume --wait does not say it waits: %s", wait.stderr)
				}
			}
			// The page offers the set while resume --wait holds it.
			base, token, _ := strings.Cut(pageURL, "?")
			webAnswer(t, base+"s/"+id+"?"+token, url.Values{"q0": {"1"}})
			if code := wait.exit(t); code != 0 {
				t.Fatalf("resume --wait: exit %d\n%s\n%s", code, wait.stdout, wait.stderr)
			}
			if kind == "claude" {
				h.answered(t, "", wait.stderr.String())
			} else {
				h.answered(t, "The user answered: SQLite", wait.stderr.String())
			}
			if strings.Contains(serve.stderr.String(), "askuser resume started") {
				t.Errorf("serve resumed the session resume --wait held:\n%s", serve.stderr)
			}
		})
		t.Run(kind+"/cancel", func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			id := h.stop(t, "inbox")
			if code, _, stderr := h.askuser(t, nil, "cancel", id, "--reason", "not this sprint"); code != 0 {
				t.Fatalf("cancel: exit %d: %s", code, stderr)
			}
			code, stdout, stderr := h.askuser(t, nil, "sessions")
			if code != 0 || !strings.Contains(stdout, "cancelled") {
				t.Errorf("askuser sessions does not list %s as cancelled:\n%s%s", id, stdout, stderr)
			}
			if code, stdout, stderr = h.askuser(t, nil, "resume", id); code != 0 {
				t.Fatalf("resume: exit %d\n%s\n%s", code, stdout, stderr)
			}
			if kind == "claude" {
				if r := peerResult(t, h.srv, h.callID, stdout); !r.IsError || !strings.Contains(r.Content, "not this sprint") {
					t.Errorf("the model read %+v for its call", r)
				}
			} else {
				h.answered(t, "not this sprint", stdout+stderr)
			}
		})
	}
}

// Claude Code's Bash call waits for its approval as a question does: with
// nobody to approve it in time, claude -p stops with the call deferred and
// the command not run; alice's Allow in the chat, days later, runs it
// once, in the very call, and the model reads its output.
func TestLateAnswerClaudeBashApproval(t *testing.T) {
	t.Parallel()
	bash := toolCall("toolu_bash", "Bash", `{"command":"echo made > made-by-bash.txt && echo wrote it","description":"make a file"}`)
	h := newLateHost(t, "claude", []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{bash}}, {Text: "Made it."}})
	h.callID = "toolu_bash"
	cr := newChanRig(t)
	h.state = cr.state
	h.env = append(append(h.env, cr.env...), "XDG_CONFIG_HOME="+filepath.Join(h.home, ".config"))
	serve := startBackground(t, h.env, "serve")
	serve.url(t)
	h.stop(t, "testchan")
	made := filepath.Join(h.dir, "made-by-bash.txt")
	if _, err := os.Stat(made); err == nil {
		t.Fatal("the command ran before anyone approved it")
	}
	m := cr.message(t, "asking for the approval", asking("Approve"))
	cr.tap(t, m, channeltest.Pick{Options: []int{0}}) // Allow
	if done := cr.replied(t, m); !strings.Contains(done.Replies[0], "Made it.") {
		t.Errorf("the reply beside the approval:\n%s", done.Replies[0])
	}
	if r := peerResult(t, h.srv, h.callID, serve.stderr.String()); r.IsError || !strings.Contains(r.Content, "wrote it") {
		t.Errorf("the model read %+v for its Bash call", r)
	}
	if b, err := os.ReadFile(made); err != nil || string(b) != "made\n" {
		t.Errorf("the command's file: %q, %v", b, err)
	}
}

// The same through Telegram's fake Bot API: @alice's press continues
// Claude Code's very call, or Codex's thread with the continuation prompt
// naming her, and serve replies beside the question with what the agent
// said.
func TestLateAnswerTelegram(t *testing.T) {
	for _, kind := range []string{"claude", "codex"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newLateHost(t, kind, nil)
			r := newTgRig(t)
			h.state = r.state
			h.env = append(append(h.env, r.env...), "XDG_CONFIG_HOME="+filepath.Join(h.home, ".config"))
			serveChannels(t, h.env, "telegram")
			h.stop(t, "telegram")
			m := r.message(t, "asking the waiting question", containing("Which database"))
			r.tap(t, tgAlice, m.ID, "SQLite")
			r.reply(t, m.ID, "Using SQLite.")
			if kind == "claude" {
				h.answered(t, "", "")
			} else {
				h.answered(t, "The user answered: SQLite (via @alice on Telegram", "")
			}
		})
	}
}
