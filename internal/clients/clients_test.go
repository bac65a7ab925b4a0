package clients

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func install(t *testing.T, tools string, tl tool, marker string, mode os.FileMode) {
	t.Helper()
	bin := filepath.Join(tools, tl.dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, tl.bin), []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	if marker != "" {
		if err := os.WriteFile(filepath.Join(tools, tl.dir, ".installed"), []byte(marker+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLookup(t *testing.T) {
	tools := t.TempDir()
	old, newer := claudeTool(ClaudeOld), claudeTool(ClaudeNew)
	install(t, tools, old, old.spec, 0o755)
	got, err := lookup(tools, old)
	if want := filepath.Join(tools, "claude-2.1.197", "bin", "claude"); err != nil || got != want {
		t.Errorf("installed: lookup = %q, %v; want %q", got, err, want)
	}
	for _, c := range []struct {
		name    string
		marker  string
		mode    os.FileMode
		wantErr string
	}{
		{"no marker (an interrupted install)", "", 0o755, "not installed"},
		{"marker of another version", "@anthropic-ai/claude-code@2.1.100", 0o755, "want @anthropic-ai/claude-code@2.1.330"},
		{"binary not executable", newer.spec, 0o644, "not executable"},
	} {
		tools := t.TempDir()
		install(t, tools, newer, c.marker, c.mode)
		if got, err := lookup(tools, newer); err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: lookup = %q, %v; want an error with %q", c.name, got, err, c.wantErr)
		}
	}
	if _, err := lookup(tools, everythingTool); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("absent server: %v", err)
	}
}

// recorder is a testing.TB that records Skip and Fatal instead of acting.
type recorder struct {
	testing.TB
	skipped, fatal string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Skip(args ...any)                  { r.skipped = strings.TrimSpace(fmt.Sprintln(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

func TestMissingClientSkipsOrFailsUnderCI(t *testing.T) {
	missing := tool{"Claude Code 0.0.0", "claude-0.0.0", "@anthropic-ai/claude-code@0.0.0", "claude"}
	t.Setenv("CI", "")
	r := &recorder{TB: t}
	need(r, missing)
	if !strings.Contains(r.skipped, "Claude Code 0.0.0") || !strings.Contains(r.skipped, InstallScript) || r.fatal != "" {
		t.Errorf("outside CI: skipped %q, fatal %q; want a skip naming the client and %s", r.skipped, r.fatal, InstallScript)
	}
	t.Setenv("CI", "true")
	r = &recorder{TB: t}
	need(r, missing)
	if !strings.Contains(r.fatal, InstallScript) || !strings.Contains(r.fatal, "CI=true") || r.skipped != "" {
		t.Errorf("under CI: skipped %q, fatal %q; want a failure naming %s", r.skipped, r.fatal, InstallScript)
	}
}

func TestClaudeEnv(t *testing.T) {
	t.Setenv("ANTHROPIC_MODEL", "leak")
	t.Setenv("CLAUDE_CONFIG_DIR", "/leak")
	t.Setenv("CLAUDECODE", "1")
	t.Setenv("ASKUSER_KEEP", "kept")
	env := ClaudeEnv("/h", "http://127.0.0.1:1")
	joined := "\n" + strings.Join(env, "\n") + "\n"
	for _, want := range []string{"\nHOME=/h\n", "\nANTHROPIC_BASE_URL=http://127.0.0.1:1\n",
		"\nCLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1\n", "\nMCP_CONNECTION_NONBLOCKING=0\n", "\nASKUSER_KEEP=kept\n"} {
		if !strings.Contains(joined, want) {
			t.Errorf("env lacks %q", strings.TrimSpace(want))
		}
	}
	for _, leak := range []string{"ANTHROPIC_MODEL=", "CLAUDE_CONFIG_DIR=", "CLAUDECODE="} {
		if strings.Contains(joined, "\n"+leak) {
			t.Errorf("env passes on %s", leak)
		}
	}
	if n := strings.Count(joined, "\nHOME="); n != 1 {
		t.Errorf("HOME set %d times", n)
	}
}

// TestPeersEnv: Codex and Gemini CLI get neither the person's keys and
// endpoints nor their configuration.
func TestPeersEnv(t *testing.T) {
	for _, leak := range []string{"OPENAI_BASE_URL", "OPENAI_API_KEY", "CODEX_HOME", "AZURE_OPENAI_API_KEY", "GEMINI_API_KEY",
		"GOOGLE_API_KEY", "GOOGLE_CLOUD_PROJECT", "GOOGLE_GEMINI_BASE_URL", "CLOUDSDK_CONFIG", "XDG_CONFIG_HOME", "HTTPS_PROXY"} {
		t.Setenv(leak, "leak")
	}
	t.Setenv("ASKUSER_KEEP", "kept")
	joined := "\n" + strings.Join(isolated("/h", "OPENAI_", "CODEX_", "AZURE_OPENAI_", "GEMINI_", "GOOGLE_", "CLOUDSDK_"), "\n") + "\n"
	if !strings.Contains(joined, "\nHOME=/h\n") || !strings.Contains(joined, "\nASKUSER_KEEP=kept\n") || strings.Count(joined, "\nHOME=") != 1 {
		t.Errorf("env lacks HOME=/h once or ASKUSER_KEEP:\n%s", joined)
	}
	if strings.Contains(joined, "=leak\n") {
		t.Errorf("env passes on a variable of the person's:\n%s", joined)
	}
}

// TestOpenCodeEnv: OpenCode gets neither the person's keys, config and
// data folders nor a PWD naming another folder than the one it runs in.
func TestOpenCodeEnv(t *testing.T) {
	for _, leak := range []string{"OPENCODE_CONFIG", "OPENCODE_CONFIG_CONTENT", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "OPENAI_API_KEY", "PWD"} {
		t.Setenv(leak, "leak")
	}
	joined := "\n" + strings.Join(OpenCodeEnv("/h"), "\n") + "\n"
	if !strings.Contains(joined, "\nHOME=/h\n") || strings.Contains(joined, "=leak\n") {
		t.Errorf("env:\n%s", joined)
	}
}
