//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// BenchmarkLateAnswer measures, per host, the time from a late answer's
// arrival (askuser resume ID --answers FILE starts) to the host's
// continued request at the fake model: askuser's own loop (own: askuser
// run, continued by its own resume) beside Claude Code (claude -p
// --resume, the hook answering the very call), Codex (codex exec resume),
// Gemini CLI (gemini -r) and OpenCode (opencode run -s) with the
// continuation prompt. Each iteration first stops a fresh session
// (nobody answers within 1s; not timed). Reported as ms/continue; compare
// the hosts with own, measured in the same run:
//
//	go test -run '^$' -bench BenchmarkLateAnswer -benchtime 3x .
func BenchmarkLateAnswer(b *testing.B) {
	for _, kind := range []string{"own", "claude", "codex", "gemini", "opencode"} {
		b.Run(kind, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				h, id := stoppedForBench(b, kind)
				writeFile(b, filepath.Join(h.dir, "answers.yaml"), "answers:\n  Database: SQLite\n")
				before := len(h.srv.Requests())
				b.StartTimer()
				arrived := time.Now()
				code, stdout, stderr := h.askuser(b, nil, "resume", id, "--answers", "answers.yaml")
				b.StopTimer()
				reqs := h.srv.Requests()
				if code != 0 || len(reqs) <= before {
					b.Fatalf("resume: exit %d, %d new model requests\n%s\n%s", code, len(reqs)-before, stdout, stderr)
				}
				total += reqs[before].Time.Sub(arrived)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/continue")
		})
	}
}

// stoppedForBench is kind's project with a session stopped on its
// question; own is askuser's own loop on the fake Anthropic API.
func stoppedForBench(b *testing.B, kind string) (*lateHost, string) {
	if kind != "own" {
		h := newLateHost(b, kind, nil)
		return h, h.stop(b, "inbox")
	}
	srv := fakeprovider.NewAnthropic(fakeprovider.Turn{ToolCalls: []fakeprovider.ToolCall{toolCall("toolu_ask", "AskUserQuestion", lateDBInput)}},
		fakeprovider.Turn{Text: "Using SQLite."})
	b.Cleanup(srv.Close)
	h := &lateHost{kind: kind, srv: srv, dir: b.TempDir(), state: filepath.Join(b.TempDir(), "state")}
	h.env = append(os.Environ(), "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-fake", "ASKUSER_STATE_DIR="+h.state,
		"XDG_CONFIG_HOME="+b.TempDir(), "NO_COLOR=1", "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD=")
	code, _, stderr := h.askuser(b, nil, "run", "-p", "--frontend", "inbox", "--ask-timeout", "1s", "--on-timeout", "suspend", "pick a database")
	if code != 6 {
		b.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return h, h.onlySession(b)
}
