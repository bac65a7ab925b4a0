//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// askuser killed with SIGKILL (the test build's ASKUSER_TEST_CRASH_AT) at
// every step of a host run and of its continue where a crash could lose
// or repeat something: the next askuser resume finds where the agent
// stopped, continues it, and nothing runs twice. Claude Code with a Bash
// call whose command appends a line to a file (it must be there once),
// Codex with a question (the continuation prompt must be sent once), and
// Gemini CLI and OpenCode at one step of each.
func TestLateAnswerCrash(t *testing.T) {
	steps := []struct{ step, when string }{
		{"recorded", "run"}, {"suspended", "run"}, {"exited", "run"},
		{"answered", "resume"}, {"continuing", "resume"}, {"started", "resume"},
	}
	for _, kind := range []string{"claude", "codex", "gemini", "opencode"} {
		for _, s := range steps {
			if (kind == "gemini" || kind == "opencode") && s.step != "suspended" && s.step != "started" {
				continue // one step of a run and one of a continue: the rest as Codex's
			}
			t.Run(kind+"/"+s.step, func(t *testing.T) {
				t.Parallel()
				h := crashHost(t, kind)
				crash := []string{"ASKUSER_TEST_CRASH_AT=" + s.step}
				args := append([]string{"run", "--agent", kind, "--frontend", "inbox", "--ask-timeout", "1s", "--on-timeout", "suspend", "--"}, h.args...)
				runEnv, resumeEnv := crash, []string(nil)
				if s.when == "resume" {
					runEnv, resumeEnv = nil, crash
				}
				code, _, stderr := h.askuser(t, runEnv, args...)
				if want := map[string]int{"run": -1, "resume": 6}[s.when]; code != want {
					t.Fatalf("run: exit %d, want %d (-1: killed)\n%s", code, want, stderr)
				}
				id := h.onlySession(t)
				if s.when == "resume" {
					if code, _, stderr = h.askuser(t, resumeEnv, "resume", id, "--answers", "answers.yaml"); code != -1 {
						t.Fatalf("resume: exit %d, want it killed at %s\n%s", code, s.step, stderr)
					}
				}
				// The agent askuser started may still be ending: resume waits
				// for it, and then goes on.
				code, stdout, stderr := h.askuser(t, nil, "resume", id, "--answers", "answers.yaml")
				if code != 0 {
					t.Fatalf("the resume after the crash: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
				}
				h.ranOnce(t, stdout+stderr)
				if code, _, _ = h.askuser(t, nil, "resume", id, "--answers", "answers.yaml"); code == 0 {
					t.Error("a second resume after the crash: exit 0, want nothing to continue")
				}
				h.ranOnce(t, stdout+stderr)
			})
		}
	}
}

// crashHost is kind's project for the crash test, with the answers file.
func crashHost(t *testing.T, kind string) *lateHost {
	var h *lateHost
	if kind == "claude" {
		bash := toolCall("toolu_bash", "Bash", `{"command":"python3 -c \"open('ran.txt','a').write('ran\\n'); print('wrote it')\"","description":"append a line"}`)
		h = newLateHost(t, kind, []fakeprovider.Turn{{ToolCalls: []fakeprovider.ToolCall{bash}}, {Text: "Appended."}})
		h.callID = "toolu_bash"
		writeFile(t, filepath.Join(h.dir, "answers.yaml"), "approvals:\n  allow: [\"Bash(python3:*)\"]\n")
	} else {
		h = newLateHost(t, kind, nil)
		writeFile(t, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
	}
	return h
}

var sessionIDs = regexp.MustCompile(`"id":"([0-9a-f-]{36})"`)

// onlySession is the id of the one session of the state directory.
func (h *lateHost) onlySession(t testing.TB) string {
	t.Helper()
	_, stdout, stderr := h.askuser(t, nil, "sessions", "--json")
	ids := sessionIDs.FindAllStringSubmatch(stdout, -1)
	if len(ids) != 1 {
		t.Fatalf("want one session: %s%s", stdout, stderr)
	}
	return ids[0][1]
}

// ranOnce checks the agent went on once with the answer: the Bash command
// appended its line once and the model read its output once; the
// continuation prompt was sent once. (Codex whose askuser was killed
// during the call may end its turn without another model call, so its
// script is not always used up.)
func (h *lateHost) ranOnce(t *testing.T, output string) {
	t.Helper()
	if h.kind == "claude" {
		if h.srv.Remaining() != 0 {
			t.Errorf("the model was called %d times fewer than scripted\n%s", h.srv.Remaining(), output)
		}
		if b, _ := os.ReadFile(filepath.Join(h.dir, "ran.txt")); string(b) != "ran\n" {
			t.Errorf("the command's file holds %q, want one line", b)
		}
		if r := peerResult(t, h.srv, h.callID, output); r.IsError || !strings.Contains(r.Content, "wrote it") {
			t.Errorf("the model read %+v", r)
		}
		return
	}
	n := 0
	for _, r := range h.srv.Requests() {
		if strings.Contains(string(r.Body), "Answered by: an answers file") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d requests carried the continuation prompt, want 1\n%s", n, output)
	}
}
