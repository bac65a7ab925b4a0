// Package clients finds the real MCP hosts and servers that
// scripts/install-clients.sh installs under .tools/ at the repository root
// (Claude Code, Codex CLI, Gemini CLI, OpenCode, the MCP reference
// servers), and prepares the environment each host runs in during a test.
//
// It is for tests only (it imports testing); the askuser binary never
// imports it.
//
// Invariants:
//   - The versions and directory names here are the ones the install script
//     pins; change both together.
//   - A client counts as installed only when its directory holds the
//     script's marker (.installed) naming the pinned package@version, so a
//     half-finished install is never used.
//   - A missing client skips the test with a message naming the install
//     script, except under CI=true, where it fails: CI installs every client
//     first, so a missing one there is a broken install, not a choice.
//   - Every host is kept off the network and away from the person's own
//     configuration: an isolated HOME, its fake API on loopback, and no
//     inherited variables that could point it elsewhere. ClaudeEnv turns
//     nonessential traffic off; CodexCommand turns plugins and analytics
//     off; GeminiCommand turns usage statistics and auto-update off;
//     OpenCodeCommand turns the models list, auto-update and the
//     background plugin install off (for each, strace saw no connection
//     but to loopback in a whole run).
//
// It is test support: no product package imports it (internal/archtest
// holds that), so no askuser binary links it.
package clients

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The pinned Claude Code versions: the oldest one askuser supports, the
// one its bridges were first built against, and the newest seen on npm.
// Their observed differences are in CONTRACTS.md and CONTRACTS-RESUME.md.
const (
	ClaudeOld    = "2.1.197"
	ClaudeNew    = "2.1.330"
	ClaudeLatest = "2.1.332"
)

// ClaudeVersions lists the pinned Claude Code versions, oldest first, for
// tests that run on each.
var ClaudeVersions = []string{ClaudeOld, ClaudeNew, ClaudeLatest}

// ServersVersion is the pinned version of the MCP reference servers.
const ServersVersion = "2026.8.31"

// InstallScript is what a person runs to install the clients.
const InstallScript = "scripts/install-clients.sh"

// tool is one installed package: its .tools directory, npm spec and binary.
type tool struct {
	name, dir, spec, bin string
}

func claudeTool(version string) tool {
	return tool{"Claude Code " + version, "claude-" + version, "@anthropic-ai/claude-code@" + version, "claude"}
}

var (
	filesystemTool = tool{"the MCP filesystem server", "server-filesystem-" + ServersVersion,
		"@modelcontextprotocol/server-filesystem@" + ServersVersion, "mcp-server-filesystem"}
	everythingTool = tool{"the MCP everything server", "server-everything-" + ServersVersion,
		"@modelcontextprotocol/server-everything@" + ServersVersion, "mcp-server-everything"}
)

// Claude returns the path of the pinned Claude Code binary of version, or
// skips (fails under CI=true) when it is not installed.
func Claude(tb testing.TB, version string) string {
	tb.Helper()
	return need(tb, claudeTool(version))
}

// FilesystemServer returns the path of @modelcontextprotocol/server-filesystem.
func FilesystemServer(tb testing.TB) string {
	tb.Helper()
	return need(tb, filesystemTool)
}

// EverythingServer returns the path of @modelcontextprotocol/server-everything.
func EverythingServer(tb testing.TB) string {
	tb.Helper()
	return need(tb, everythingTool)
}

func need(tb testing.TB, t tool) string {
	tb.Helper()
	root, err := repoRoot()
	if err == nil {
		var path string
		if path, err = lookup(filepath.Join(root, ".tools"), t); err == nil {
			return path
		}
	}
	msg := fmt.Sprintf("%s: %v; run %s", t.name, err, InstallScript)
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s (CI=true: a missing client is an error)", msg)
		return ""
	}
	tb.Skip(msg)
	return ""
}

// lookup finds t's binary under tools and checks the install marker.
func lookup(tools string, t tool) (string, error) {
	dir := filepath.Join(tools, t.dir)
	marker, err := os.ReadFile(filepath.Join(dir, ".installed"))
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("not installed (no %s)", filepath.Join(dir, ".installed"))
	}
	if err != nil {
		return "", err
	}
	if got := strings.TrimSpace(string(marker)); got != t.spec {
		return "", fmt.Errorf("%s holds %s, want %s", dir, got, t.spec)
	}
	bin := filepath.Join(dir, "bin", t.bin)
	info, err := os.Stat(bin)
	if err != nil {
		return "", fmt.Errorf("installed but its binary is missing: %w", err)
	}
	if info.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s is not executable", bin)
	}
	return bin, nil
}

// repoRoot walks up from the working directory (a test's package
// directory) to the directory holding go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// ClaudeCommand returns a command running the pinned Claude Code of
// version with args, against the fake Anthropic API at baseURL, with home
// as its HOME (ClaudeEnv) and stdin on /dev/null. The caller sets Dir and
// the outputs. WaitDelay bounds the wait for the pipes after the process
// ends, so a child Claude Code left behind cannot hang the test.
func ClaudeCommand(ctx context.Context, tb testing.TB, version, home, baseURL string, args ...string) *exec.Cmd {
	tb.Helper()
	cmd := exec.CommandContext(ctx, Claude(tb, version), args...)
	cmd.Env = ClaudeEnv(home, baseURL)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// ClaudeEnv returns the environment for running Claude Code against a fake
// Anthropic API at baseURL with home as its HOME: the current environment
// less every variable that could point it elsewhere or change its
// behaviour, plus the fake's address and key and two settings:
//   - CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 was seen to stop every
//     lookup of api.anthropic.com on both pinned versions
//     (DISABLE_TELEMETRY alone left one), so a run stays on loopback;
//   - MCP_CONNECTION_NONBLOCKING=0 makes 2.1.197 wait for its MCP servers
//     before the first model call. Without it the fake answers so fast that
//     a scripted MCP tool call gets "The MCP server 'S' is still
//     connecting" (2.1.330 waits by itself).
func ClaudeEnv(home, baseURL string) []string {
	return append(isolated(home),
		"ANTHROPIC_BASE_URL="+baseURL,
		"ANTHROPIC_API_KEY=sk-fake-clients",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"MCP_CONNECTION_NONBLOCKING=0",
	)
}

// dropped reports whether an inherited variable must not reach Claude Code.
func dropped(name string) bool {
	upper := strings.ToUpper(name)
	for _, prefix := range []string{"ANTHROPIC_", "CLAUDE", "MCP_", "OTEL_"} {
		if strings.HasPrefix(upper, prefix) {
			return true
		}
	}
	switch upper {
	case "HOME", "XDG_CONFIG_HOME", "ENABLE_TOOL_SEARCH", "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING",
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY":
		return true
	}
	return false
}
