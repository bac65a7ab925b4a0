package main

import (
	"os"
	"testing"

	"github.com/askuser/askuser/internal/clients"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// BenchmarkProcessClaudeCodePrint is BenchmarkProcessRunPrint's session
// run by Claude Code 2.1.197 (claude -p) on the same loopback fake API,
// with the same two turns: the model calls AskUserQuestion, then ends.
// In -p mode without a permission-prompt tool Claude Code does not offer
// AskUserQuestion and returns an error as the tool result; the work is
// the same (two model calls, one tool call and its result, a session
// transcript on disk). scripts/benchsummary compares it with askuser's
// run. It skips when Claude Code is not installed
// (scripts/install-clients.sh), and fails under CI=true.
func BenchmarkProcessClaudeCodePrint(b *testing.B) {
	claude := clients.Claude(b, clients.ClaudeOld)
	input, err := os.ReadFile("testdata/questions/auth.json")
	if err != nil {
		b.Fatal(err)
	}
	home, dir := b.TempDir(), b.TempDir()
	fakes := newFakeRuns(b, input, checkClaudeServed)
	benchProcess(b, func(b *testing.B) benchProc {
		srv := fakes.next(b)
		return benchProc{
			path:    claude,
			args:    []string{"-p", "Add authentication to my app"},
			fullEnv: clients.ClaudeEnv(home, srv.URL),
			dir:     dir,
			want:    runPrintDone,
		}
	})
	fakes.done(b)
}

// checkClaudeServed fails the benchmark unless Claude Code used both turns
// and sent back one tool result.
func checkClaudeServed(b *testing.B, srv *fakeprovider.Server) {
	b.Helper()
	if n := srv.Remaining(); n != 0 {
		b.Fatalf("claude left %d scripted turns unused", n)
	}
	if results := srv.ToolResults(); len(results) != 1 {
		b.Fatalf("tool results %+v: want one", results)
	}
}
