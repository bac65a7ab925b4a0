package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// Helpers of the end-to-end tests with Codex CLI and Gemini CLI (and
// Claude Code: runPeer, peerResult).

// readmeBlock returns the first fenced block of lang in README's section
// under the heading line heading ("### Codex", "## Install"), up to the
// next heading, so a test runs what README gives, as written.
func readmeBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n"+heading+"\n")
	if ok {
		section, _, _ = strings.Cut(section, "\n## ")
		section, _, _ = strings.Cut(section, "\n### ")
	}
	_, block, found := strings.Cut(section, "\n```"+lang+"\n")
	block, _, closed := strings.Cut(block, "\n```")
	if !ok || !found || !closed {
		t.Fatalf("README has no ```%s block under %s", lang, heading)
	}
	return block + "\n"
}

// readmeCIBlock is readmeBlock with the answers file ci/answers.yaml
// added to askuser's args, as README says to do for CI.
func readmeCIBlock(t *testing.T, heading, lang string) string {
	t.Helper()
	block := readmeBlock(t, heading, lang)
	ci := strings.Replace(block, `"55m"]`, `"55m", "--answers", "ci/answers.yaml"]`, 1)
	if ci == block {
		t.Fatalf("README's %s block has no args ending \"55m\"] to add the answers file to:\n%s", heading, block)
	}
	return ci
}

// runPeer runs a peer's headless command in its own session (no
// controlling terminal, so askuser can never prompt the person running
// the tests) with askuser's build first on PATH, as README's blocks name
// it ("command": "askuser").
func runPeer(t *testing.T, name string, cmd *exec.Cmd) (stdout, stderr string) {
	t.Helper()
	cmd.Env = append(cmd.Env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s took %v", name, time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", name, err, &out, &errOut)
	}
	return out.String(), errOut.String()
}

func peerContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// fileAnswerText is askuser's result for e2eDBInput answered "SQLite" from
// the answers file at path.
func fileAnswerText(path string) string {
	return "No person answered the following questions; they were answered as marked:\n\n" +
		"1. Database (Which database should we use?)\n   Selected: SQLite\n" +
		"   Answered by: an answers file (" + path + "), set in advance, not chosen by a person at the time\n\n" +
		`Proceeding with these selections. Treat the answers marked "Answered by" as defaults the user has not confirmed.`
}

// peerResult returns the one tool result the model received for id;
// output, the client's, is shown when there is not exactly one.
func peerResult(t testing.TB, srv *fakeprovider.Server, id, output string) fakeprovider.ToolResultSeen {
	t.Helper()
	var found []fakeprovider.ToolResultSeen
	for _, tr := range srv.ToolResults() {
		if tr.ToolUseID == id {
			found = append(found, tr)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the model got %d tool results for %s, want 1: %+v\n%s", len(found), id, srv.ToolResults(), output)
	}
	return found[0]
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}
