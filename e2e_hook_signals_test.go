//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHookAnswersEverySignal: a hook must always answer. askuser hook,
// asking at the terminal, is sent each signal that ends a process
// politely: SIGTERM and SIGINT (a host giving up, Ctrl+C), SIGHUP (the
// terminal hung up) and SIGQUIT (Ctrl+\). Each time it prints a deny on
// standard output and exits 0, so the call does not run; before, SIGHUP
// and SIGQUIT killed it with nothing printed.
func TestHookAnswersEverySignal(t *testing.T) {
	t.Parallel()
	input, err := os.ReadFile("testdata/questions/auth.json")
	if err != nil {
		t.Fatal(err)
	}
	event := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":` + string(input) + "}"
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			out, outPath := outFile(t)
			p := startTTYIn(t, repoRoot(t), strings.NewReader(event), out, nil, "hook", "--plain")
			p.expect("  2. JWT")
			p.expect(">")
			if err := p.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code, _ := p.exit()
			got, _ := os.ReadFile(outPath)
			if code != 0 || !strings.Contains(string(got), `"permissionDecision":"deny"`) {
				t.Errorf("after %v: exit %d, stdout %q; want exit 0 and a deny\nscreen:\n%s", sig, code, got, p.screen.String())
			}
		})
	}
}

// TestFirstSIGTERMEndsReads: a host that starts askuser and never closes
// its standard input does not keep the first SIGTERM from ending it. The
// hook exits 2 (the code Claude Code treats as blocking) and ask exits 130,
// each saying why; before, both waited for their input whatever the
// signals.
func TestFirstSIGTERMEndsReads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"hook", "--frontend", "auto"}, 2},
		{[]string{"ask", "--frontend", "auto", "-"}, 130},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			t.Parallel()
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			cmd := exec.Command(askuserBin(), tc.args...)
			cmd.Env = baseEnv(t)
			var stderr bytes.Buffer
			cmd.Stdin, cmd.Stderr = r, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			r.Close()
			done := make(chan struct{})
			var werr error
			t.Cleanup(reap(cmd, &werr, done))
			waitReadingStdin(t, cmd.Process.Pid)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(waitLimit):
				t.Fatalf("the first SIGTERM did not end askuser %s; stderr %q", tc.args[0], stderr.String())
			}
			if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(stderr.String(), "interrupted by SIGTERM") {
				t.Errorf("exit %d (%v), stderr %q; want exit %d saying it was interrupted", code, werr, stderr.String(), tc.code)
			}
		})
	}
}

// waitReadingStdin waits until a thread of process pid is blocked
// reading its standard input (the read system call on descriptor 0).
// askuser installs its signal handlers before it reads anything, so a
// signal sent then is handled, not fatal.
func waitReadingStdin(t *testing.T, pid int) {
	t.Helper()
	waitInSyscall(t, pid, syscall.SYS_READ, 0, "askuser never read its standard input")
}

// waitInSyscall waits until a thread of process pid is blocked in system
// call nr on descriptor fd (Linux's /proc/PID/task/*/syscall), and fails
// saying never when it is not within waitLimit. Where there is no such
// file the test is skipped.
func waitInSyscall(t *testing.T, pid, nr, fd int, never string) {
	t.Helper()
	want := strconv.Itoa(nr) + " 0x" + strconv.FormatInt(int64(fd), 16) + " "
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(5 * time.Millisecond) {
		tasks, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/syscall")
		if err != nil || len(tasks) == 0 {
			t.Skipf("no /proc here to see what askuser waits in (%v)", err)
		}
		for _, task := range tasks {
			if b, err := os.ReadFile(task); err == nil && strings.HasPrefix(string(b), want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal(never)
		}
	}
}

// TestServeUnderNohup: SIGHUP ends a command as SIGTERM does, except when
// it was ignored when askuser started (nohup askuser serve &): catching it
// then would undo nohup. Such a serve outlives a hangup, and stops at
// SIGINT.
func TestServeUnderNohup(t *testing.T) {
	t.Parallel()
	p := &bgAskuser{stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command("sh", "-c", `trap "" HUP; exec "$0" serve`, askuserBin())
	p.cmd.Env = baseEnv(t)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var werr error
	t.Cleanup(reap(p.cmd, &werr, p.done))
	u := p.url(t)
	_ = p.cmd.Process.Signal(syscall.SIGHUP)
	inboxClient(t, u) // it still serves
	select {
	case <-p.done:
		t.Fatalf("serve ended at a SIGHUP it was started ignoring: %s", p.stderr)
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.exit(t); code != 0 || !strings.Contains(p.stderr.String(), "stopped serving") {
		t.Errorf("after SIGINT: exit %d, stderr %s", code, p.stderr)
	}
}
