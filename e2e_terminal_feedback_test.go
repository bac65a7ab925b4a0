//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/fakeprovider"
	"github.com/askuser/askuser/internal/termtest"
)

// TestTerminalTimeout: a question under --ask-timeout shows the time
// left; when it runs out the prompt is withdrawn and one line says what
// happened.
func TestTerminalTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		policy string
		code   int
		line   string
		then   string
	}{
		{"auto", 0, "no answer within 2s: took the recommended option", "✔ Auth Method: OAuth 2.0 (recommended option, by policy)"},
		{"suspend", 6, "no answer within 2s: stopped to wait", "is waiting on 2 questions"},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			t.Parallel()
			p := startAskuser(t, repoRoot(t), nil, "run", "--ask-timeout", "2s", "--on-timeout", tc.policy,
				"--script", "testdata/auth-demo.yaml", "Add authentication to my app")
			p.prompt("Which authentication")
			p.tm.WaitText("s left • ↑↓ move")
			p.expect(tc.line)
			p.expect(tc.then)
			code, restored := p.exit()
			if code != tc.code || !restored {
				t.Fatalf("exit code %d (restored %v), want %d\nscreen:\n%s", code, restored, tc.code, p.screen.Dump())
			}
			screen := p.screen.String()
			if strings.Contains(screen, "esc cancel") || strings.Contains(screen, "❯") {
				t.Errorf("the prompt was not withdrawn:\n%s", p.screen.Dump())
			}
			if n := strings.Count(screen, tc.line); n != 1 {
				t.Errorf("%q shown %d times, want once:\n%s", tc.line, n, p.screen.Dump())
			}
		})
	}
}

// TestTerminalWorking: while the model works the terminal says so, on
// stderr, and the line is gone when the run ends; headless (-p) shows
// nothing of it.
func TestTerminalWorking(t *testing.T) {
	t.Parallel()
	t.Run("at a terminal", func(t *testing.T) {
		t.Parallel()
		srv := fakeprovider.NewAnthropic(fakeprovider.Turn{HangHeaders: true})
		defer srv.Close()
		p := startAskuser(t, t.TempDir(), []string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL}, "run", "Add authentication to my app")
		p.tm.Wait("the working line, counting", func(s *termtest.Screen) bool {
			return strings.Contains(s.String(), " working ") && !strings.Contains(s.String(), " working 0s")
		})
		p.send(keyCtrlC)
		code, _ := p.exit()
		if code != 130 {
			t.Fatalf("exit code %d, want 130\nscreen:\n%s", code, p.screen.Dump())
		}
		if strings.Contains(p.screen.String(), "working") {
			t.Errorf("the working line was left on the screen:\n%s", p.screen.Dump())
		}
	})
	t.Run("headless", func(t *testing.T) {
		t.Parallel()
		srv := fakeprovider.NewAnthropic(fakeprovider.Turn{HangHeaders: true})
		defer srv.Close()
		p := startAskuser(t, t.TempDir(), []string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL},
			"run", "-p", "--stream-idle-timeout", "1500ms", "--max-retries", "0", "Add authentication to my app")
		if code, _ := p.exit(); code != 1 {
			t.Fatalf("exit code %d, want 1 (the stalled server)\nscreen:\n%s", code, p.screen.Dump())
		}
		if raw := p.screen.Raw(); strings.Contains(raw, "working") {
			t.Errorf("-p showed the working line: %q", raw)
		}
	})
}

// TestTerminalCompletion loads askuser's completion script into a real
// shell on a terminal (bash without the bash-completion package; zsh and
// fish when they are installed) and completes the id of a session that
// waits on a question, and a flag.
func TestTerminalCompletion(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	// A run with nothing to answer it stops to wait: exit 6.
	run := exec.Command(askuserBin(), "run", "--script", filepath.Join(repoRoot(t), "testdata", "auth-demo.yaml"), "Add authentication")
	run.Env = []string{"ASKUSER_STATE_DIR=" + state, "HOME=" + t.TempDir()}
	if out, err := run.CombinedOutput(); run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the waiting run: %v\n%s", err, out)
	}
	list, err := filepath.Glob(filepath.Join(state, "sessions", "*.jsonl"))
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %v %v", list, err)
	}
	id := strings.TrimSuffix(filepath.Base(list[0]), ".jsonl")

	for _, sh := range []struct {
		name string
		args []string
		load string
	}{
		{"bash", []string{"--norc", "--noprofile", "-i"}, "source <(askuser completion bash)"},
		{"zsh", []string{"-f", "-i"}, "autoload -U compinit && compinit -u && source <(askuser completion zsh)"},
		{"fish", []string{"--no-config", "-i"}, "askuser completion fish | source"},
	} {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			path, err := exec.LookPath(sh.name)
			if err != nil {
				t.Skipf("%s is not installed", sh.name)
			}
			home := t.TempDir()
			env := []string{"ASKUSER_STATE_DIR=" + state, "HOME=" + home, "PS1=$ ", "PROMPT=$ ", "XDG_CONFIG_HOME=" + home}
			p := startProc(t, termSize{120, 30}, t.TempDir(), nil, env, path, sh.args...)
			p.send(sh.load + "\r")
			if sh.name == "fish" {
				p.send("function fish_prompt; echo -n '$ '; end\r")
			}
			p.send("clear\r")
			p.tm.Wait("a clear prompt", func(s *termtest.Screen) bool { return strings.TrimSpace(s.String()) == "$" })
			p.send("askuser resume ", keyTab)
			p.tm.WaitText("$ askuser resume " + id)
			p.send("\x15") // ctrl+u: clear the line
			p.send("askuser run --fronte", keyTab)
			p.tm.WaitText("$ askuser run --frontend")
			p.send("\x15", "exit\r")
			p.exit()
		})
	}
}

// TestTerminalVersion builds askuser with README's -ldflags -X and reads
// the version back.
func TestTerminalVersion(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "askuser")
	build := exec.Command("go", "build", "-trimpath", "-tags", "urfave_cli_no_docs",
		"-ldflags", "-s -w -X github.com/askuser/askuser/internal/build.Version=v9.8.7-test", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || string(out) != "askuser version v9.8.7-test\n" {
		t.Errorf("--version = %q, %v", out, err)
	}
	if v := mcpServerVersion(t, bin); v != "v9.8.7-test" {
		t.Errorf("askuser mcp tells its host version %q, want v9.8.7-test", v)
	}
	// The test binary of this package is a plain local build.
	out, _ = exec.Command(askuserBin(), "--version").Output()
	plain, ok := strings.CutPrefix(strings.TrimSpace(string(out)), "askuser version ")
	if !ok || plain == "" {
		t.Errorf("--version = %q", out)
	}
	if v := mcpServerVersion(t, askuserBin()); v != plain {
		t.Errorf("askuser mcp tells its host version %q, want %q, as --version says", v, plain)
	}
}

// mcpServerVersion is the version askuser mcp (bin) reports in its
// initialize reply. Its stdin stays open until the reply is read: a host
// that hangs up first gets no reply.
func mcpServerVersion(t *testing.T, bin string) string {
	t.Helper()
	mcp := exec.Command(bin, "mcp", "--frontend", "auto")
	in, _ := mcp.StdinPipe()
	out, _ := mcp.StdoutPipe()
	if err := mcp.Start(); err != nil {
		t.Fatal(err)
	}
	defer mcp.Wait()
	defer in.Close()
	io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`+"\n")
	reply, err := bufio.NewReader(out).ReadBytes('\n')
	var init struct {
		Result struct {
			ServerInfo struct{ Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if jerr := json.Unmarshal(reply, &init); jerr != nil {
		t.Fatalf("askuser mcp initialize reply %q: %v (%v)", reply, jerr, err)
	}
	return init.Result.ServerInfo.Version
}
