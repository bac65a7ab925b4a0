package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// The process benchmarks of issue 33 (a lean process) besides
// BenchmarkProcessVersion, BenchmarkProcessRunPrint and BenchmarkBinarySize:
// `askuser hook` deciding a call an answers-file rule allows, which a
// Claude Code session runs once per tool call, and the run -p session on
// the OpenAI-compatible provider. scripts/bench.sh -l runs them and
// scripts/benchsummary -lean prints the table.

// hookAllowInput is a Claude Code PreToolUse event for a Bash call that
// hookAllowRules allows.
const (
	hookAllowInput = `{"session_id":"bench","transcript_path":"/dev/null","cwd":"/tmp","hook_event_name":"PreToolUse",` +
		`"tool_name":"Bash","tool_use_id":"toolu_bench","tool_input":{"command":"git status --short","description":"Show the working tree"}}`
	hookAllowRules = "approvals:\n  allow: [\"Bash(git status:*)\"]\n  deny: [\"Bash(rm:*)\"]\n"
)

// BenchmarkProcessHook runs askuser hook on a PreToolUse event that an
// answers-file rule allows: the whole of what askuser costs on each tool
// call of a Claude Code session that has it as its PreToolUse hook.
func BenchmarkProcessHook(b *testing.B) {
	rules := filepath.Join(b.TempDir(), "rules.yaml")
	if err := os.WriteFile(rules, []byte(hookAllowRules), 0o644); err != nil {
		b.Fatal(err)
	}
	p := benchProc{
		path:  releaseBins(b).askuser,
		args:  []string{"hook", "--answers", rules},
		env:   []string{"XDG_STATE_HOME=" + b.TempDir()},
		stdin: hookAllowInput,
		want:  `"permissionDecision":"allow"`,
	}
	benchProcess(b, func(*testing.B) benchProc { return p })
}

// BenchmarkProcessRunPrintOpenAI is BenchmarkProcessRunPrint's state=disk
// session on the OpenAI-compatible provider, against a loopback fake
// Chat Completions API.
func BenchmarkProcessRunPrintOpenAI(b *testing.B) {
	input, err := os.ReadFile("testdata/questions/auth.json")
	if err != nil {
		b.Fatal(err)
	}
	state := b.TempDir()
	fakes := newFakeRuns(b, input, checkRunServed)
	fakes.serve = fakeprovider.NewOpenAI
	benchProcess(b, func(b *testing.B) benchProc {
		srv := fakes.next(b)
		return benchProc{
			path: releaseBins(b).askuser,
			args: []string{"run", "-p", "--provider", "openai", "--base-url", srv.URL, "--api-key", "bench",
				"--model", "gpt-bench", "--frontend", "auto", "--state-dir", state, "Add authentication to my app"},
			env:  []string{"NO_COLOR=1"},
			want: runPrintDone,
		}
	})
	fakes.done(b)
}
