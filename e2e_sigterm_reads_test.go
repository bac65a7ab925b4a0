//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A cancelled CI job ends askuser within 3 s of its SIGTERM, whatever it
// waits on: a named pipe nobody writes to given as the answers file, the
// question file, the model script or the MCP configuration (each read
// within a 10 s deadline, which the signal used to wait out), standard
// input given as the answers file, JSON lines, or a web card.

// signalLimit is how soon after SIGTERM askuser must have ended.
const signalLimit = 3 * time.Second

// waitOpen waits until process pid has target open on a descriptor other
// than 0 (Linux's /proc/PID/fd): the read of it has begun.
func waitOpen(t *testing.T, pid int, target string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(5 * time.Millisecond) {
		fds, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/fd/*")
		for _, fd := range fds {
			if link, err := os.Readlink(fd); err == nil && link == target && filepath.Base(fd) != "0" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("askuser never opened %s", target)
		}
	}
}

func TestSIGTERMEndsEveryWait(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "nobody-writes.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(repoRoot(t), "testdata", "questions", "database.json")
	demo := filepath.Join(repoRoot(t), "testdata", "auth-demo.yaml")
	event := `{"hook_event_name":"PreToolUse","session_id":"s","cwd":"` + dir + `","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"make"}}`
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string // "" an open pipe nothing is written to
		// ready waits until askuser waits; nil: it waits on fifo.
		ready func(t *testing.T, p *exec.Cmd, stderr *syncBuffer)
		code  int
		// fullFD3 gives askuser a descriptor 3 whose pipe is full and
		// whose reader never reads.
		fullFD3 bool
	}{
		{name: "ask --answers FIFO", args: []string{"ask", db, "--answers", fifo}, code: 130},
		{name: "ask FIFO", args: []string{"ask", fifo, "--frontend", "auto"}, code: 130},
		{name: "mcp --answers FIFO", args: []string{"mcp", "--answers", fifo}, code: 130},
		{name: "hook --answers FIFO", args: []string{"hook", "--answers", fifo}, stdin: event, code: 2}, // blocks the call
		{name: "run --script FIFO", args: []string{"run", "-p", "--script", fifo, "go"}, code: 130},
		{name: "run --mcp-config FIFO", args: []string{"run", "-p", "--script", demo, "--frontend", "auto", "--mcp-config", fifo, "go"}, code: 130},
		{name: "ask --answers /dev/stdin", args: []string{"ask", db, "--answers", "/dev/stdin"}, code: 130,
			ready: func(t *testing.T, p *exec.Cmd, _ *syncBuffer) {
				stdin, err := os.Readlink("/proc/" + strconv.Itoa(p.Process.Pid) + "/fd/0")
				if err != nil {
					t.Skip(err)
				}
				waitOpen(t, p.Process.Pid, stdin)
			}},
		{name: "ask --frontend stdio", args: []string{"ask", db, "--frontend", "stdio"}, code: 130,
			ready: func(t *testing.T, p *exec.Cmd, _ *syncBuffer) { waitReadingStdin(t, p.Process.Pid) }},
		{name: "ask --protocol-fd 3, nobody reading it", args: []string{"ask", db, "--frontend", "stdio", "--protocol-fd", "3"}, code: 130, fullFD3: true,
			ready: func(t *testing.T, p *exec.Cmd, _ *syncBuffer) {
				waitInSyscall(t, p.Process.Pid, syscall.SYS_WRITE, 3, "askuser never blocked writing to its full descriptor 3")
			}},
		{name: "ask --frontend web", args: []string{"ask", db, "--frontend", "web"}, code: 130,
			ready: func(t *testing.T, _ *exec.Cmd, stderr *syncBuffer) {
				for deadline := time.Now().Add(waitLimit); !urlPattern.MatchString(stderr.String()); time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no URL: %s", stderr)
					}
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd := exec.Command(askuserBin(), tc.args...)
			cmd.Dir, cmd.Env = dir, append(baseEnv(t), "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=")
			stderr := &syncBuffer{}
			var stdout bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &stdout, stderr
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if tc.fullFD3 {
				cmd.ExtraFiles = []*os.File{fullPipe(t)}
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r.Close()
			if tc.stdin != "" {
				_, _ = w.WriteString(tc.stdin)
				w.Close()
			}
			done := make(chan struct{})
			var werr error
			t.Cleanup(reap(cmd, &werr, done))
			if tc.ready == nil {
				waitOpen(t, cmd.Process.Pid, fifo)
			} else {
				tc.ready(t, cmd, stderr)
			}
			sent := time.Now()
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(signalLimit):
				t.Fatalf("askuser still ran %s after SIGTERM; stderr %q", signalLimit, stderr.String())
			}
			took := time.Since(sent)
			if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(stderr.String()+stdout.String(), "SIGTERM") {
				t.Errorf("after %s: exit %d (%v), want %d saying SIGTERM\nstdout %q\nstderr %q", took, code, werr, tc.code, stdout.String(), stderr.String())
			}
		})
	}
}

// fullPipe is the write end of a pipe filled to capacity, whose read end
// this test keeps open and never reads.
func fullPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	// os.Pipe's ends are non-blocking: a write that would block fails at
	// once, so the pipe is full when one does.
	chunk := make([]byte, 4096)
	for {
		if err := w.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(chunk); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return w
			}
			t.Fatal(err)
		}
	}
}
