package clients

import (
	"bytes"
	"context"
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
