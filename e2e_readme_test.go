package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runReadme runs a README block with sh in the repository root, with the
// binary under test first on PATH.
func runReadme(t *testing.T, block string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", block)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ASKUSER_STATE_DIR="+t.TempDir(), "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "NO_COLOR=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("README's %q: %v\nstderr:\n%s", block, err, errOut.String())
	}
	return out.String(), errOut.String()
}

// TestReadmeJSONLinesExample runs README's JSON-lines example as written:
// its stdout is the tool result alone, so result=$(…) captures exactly
// that, and the question line a driving program would read is on stderr.
func TestReadmeJSONLinesExample(t *testing.T) {
	t.Parallel()
	block := readmeBlock(t, "### Piped: JSON lines", "sh")
	stdout, stderr := runReadme(t, block)
	const want = `No person answered the following questions; they were answered as marked:

1. Database (Which database should we use for this project?)
   Selected: PostgreSQL
   Answered by: a program over JSON lines (stdin), not confirmed to be a person

Proceeding with these selections. Treat the answers marked "Answered by" as defaults the user has not confirmed.
`
	if stdout != want {
		t.Errorf("README's %q printed on stdout:\n%s\nwant the result alone:\n%s", strings.TrimSpace(block), stdout, want)
	}
	if !strings.HasPrefix(stderr, `{"type":"question","id":"ask_`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr = %q, want the one question line", stderr)
	}
}

// TestReadmeInstall runs README's install command with the version and
// the destination replaced, and reads the version back. It is built with
// CGO_ENABLED=0, as this package's test binary is, so that it shares that
// build's compiled packages (a person's shell shares go run . demo's).
func TestReadmeInstall(t *testing.T) {
	t.Parallel()
	block := readmeBlock(t, "## Install", "sh")
	build, _, _ := strings.Cut(block, "\n")
	if !strings.HasPrefix(build, "go build ") || !strings.Contains(build, "-o ~/.local/bin/askuser .") {
		t.Fatalf("README's install command is %q; this test runs a go build into ~/.local/bin", build)
	}
	bin := filepath.Join(t.TempDir(), "bin", "askuser")
	build = strings.ReplaceAll(build, "$(git describe --tags --always --dirty)", "v9.8.7-readme")
	build = strings.ReplaceAll(build, "~/.local/bin/askuser", bin)
	cmd := exec.Command("sh", "-c", build)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("README's install command: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || string(out) != "askuser version v9.8.7-readme\n" {
		t.Errorf("--version after README's install = %q, %v", out, err)
	}
}
