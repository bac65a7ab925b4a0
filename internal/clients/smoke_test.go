package clients

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/fakeprovider"
)

// TestClaudeCodeSmoke proves the harness on each pinned version: Claude
// Code in -p mode, isolated, talks to the fake API only, and prints the
// scripted reply.
func TestClaudeCodeSmoke(t *testing.T) {
	for _, version := range ClaudeVersions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			const reply = "Smoke reply from the fake API."
			srv := fakeprovider.NewAnthropic(fakeprovider.Turn{Text: reply})
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := ClaudeCommand(ctx, t, version, t.TempDir(), srv.URL, "-p", "Say the smoke phrase.")
			cmd.Dir = t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			if err := cmd.Run(); err != nil {
				t.Fatalf("claude %s -p: %v\nstdout:\n%s\nstderr:\n%s", version, err, &stdout, &stderr)
			}
			t.Logf("claude %s -p took %v", version, time.Since(start).Round(time.Millisecond))
			if got := stdout.String(); got != reply+"\n" {
				t.Errorf("stdout = %q, want %q (stderr: %s)", got, reply+"\n", &stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the fake got %d model calls, want 1", len(reqs))
			}
			if ua := reqs[0].Header.Get("User-Agent"); !strings.Contains(ua, "claude-cli/"+version) {
				t.Errorf("User-Agent %q is not claude-cli/%s: the wrong binary ran", ua, version)
			}
			if !bytes.Contains(reqs[0].Body, []byte("Say the smoke phrase.")) {
				t.Errorf("the prompt did not reach the fake")
			}
		})
	}
}

// TestPeersSmoke proves the harness for Codex CLI (each pinned version),
// Gemini CLI and OpenCode: each, headless and isolated, talks to its fake
// API only and prints the scripted reply.
func TestPeersSmoke(t *testing.T) {
	const reply = "Smoke reply from the fake API."
	peers := []struct {
		name  string
		start func(*testing.T, context.Context, string) (*fakeprovider.Server, *exec.Cmd)
		agent string
	}{
		{"codex-" + CodexVersion, func(t *testing.T, ctx context.Context, home string) (*fakeprovider.Server, *exec.Cmd) {
			srv := fakeprovider.NewResponses(fakeprovider.Turn{Text: reply})
			return srv, CodexCommandAt(ctx, t, CodexVersion, home, srv.URL, "exec", "--skip-git-repo-check", "Say the smoke phrase.")
		}, "codex_exec/" + CodexVersion},
		{"codex-" + CodexLatest, func(t *testing.T, ctx context.Context, home string) (*fakeprovider.Server, *exec.Cmd) {
			srv := fakeprovider.NewResponses(fakeprovider.Turn{Text: reply})
			return srv, CodexCommandAt(ctx, t, CodexLatest, home, srv.URL, "exec", "--skip-git-repo-check", "Say the smoke phrase.")
		}, "codex_exec/" + CodexLatest},
		{"opencode", func(t *testing.T, ctx context.Context, home string) (*fakeprovider.Server, *exec.Cmd) {
			srv := fakeprovider.NewOpenAI(fakeprovider.Turn{Text: reply})
			return srv, OpenCodeCommand(ctx, t, home, srv.URL, "run", "Say the smoke phrase.")
		}, "opencode/" + OpenCodeVersion},
		{"gemini", func(t *testing.T, ctx context.Context, home string) (*fakeprovider.Server, *exec.Cmd) {
			srv := fakeprovider.NewGemini(fakeprovider.Turn{Text: reply})
			cmd := GeminiCommand(ctx, t, home, srv.URL, "--skip-trust", "-m", "gemini-fake", "-p", "Say the smoke phrase.")
			return srv, cmd
		}, "GeminiCLI-tui/" + GeminiVersion},
	}
	for _, p := range peers {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			srv, cmd := p.start(t, ctx, t.TempDir())
			defer srv.Close()
			cmd.Dir = t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s", p.name, err, &stdout, &stderr)
			}
			if got := stdout.String(); got != reply+"\n" {
				t.Errorf("stdout = %q, want %q (stderr: %s)", got, reply+"\n", &stderr)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the fake got %d model calls, want 1", len(reqs))
			}
			if ua := reqs[0].Header.Get("User-Agent"); !strings.Contains(ua, p.agent) {
				t.Errorf("User-Agent %q is not %s: the wrong binary ran", ua, p.agent)
			}
			if !bytes.Contains(reqs[0].Body, []byte("Say the smoke phrase.")) {
				t.Errorf("the prompt did not reach the fake")
			}
		})
	}
}
