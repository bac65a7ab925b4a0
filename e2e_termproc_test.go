// The pty and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/termtest"
)

// Keys besides those of e2e_tty_test.go.
const (
	keyEsc   = "\x1b"
	keyCtrlD = "\x04"
	keyTab   = "\t"
	keyLeft  = "\x1b[D"
)

// termProc is a program running on a terminal of a chosen size, drawn by
// internal/termtest: a goroutine draws everything written as it comes,
// with a recorded scrollback, and tests wait for a settled screen rather
// than for bytes. Like ttyProc, the program is the session leader with
// the terminal as its controlling terminal (so Ctrl+C is a signal there
// outside raw mode).
type termProc struct {
	t      *testing.T
	tm     *termtest.Term
	screen *termtest.Screen
	cmd    *exec.Cmd
	done   chan struct{}
	err    error
}

// termSize is a terminal's size.
type termSize struct{ cols, rows int }

func sizeName(sz termSize) string {
	return strconv.Itoa(sz.cols) + "x" + strconv.Itoa(sz.rows)
}

// baseEnv is the environment every program gets: a terminal, no colour
// (a test that wants colour adds NO_COLOR=, and the last value wins), its
// own home and state.
func baseEnv(t *testing.T) []string {
	return []string{"PATH=" + binDir + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1",
		"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
}

// startProc starts prog on a new terminal of size sz; env is added to
// baseEnv. stdout is where its standard output goes: nil for the terminal.
func startProc(t *testing.T, sz termSize, dir string, stdout *os.File, env []string, prog string, args ...string) *termProc {
	t.Helper()
	tm := termtest.New(t, sz.cols, sz.rows)
	p := &termProc{t: t, tm: tm, screen: tm.Screen, done: make(chan struct{})}
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(baseEnv(t), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tm.TTY, tm.TTY, tm.TTY
	if stdout != nil {
		cmd.Stdout = stdout
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", prog, err)
	}
	p.cmd = cmd
	// Registered after the terminal's: runs first, so the program is gone
	// before its terminal is closed.
	t.Cleanup(reap(cmd, &p.err, p.done))
	return p
}

// askuser starts askuser on a 100×50 terminal.
func startAskuser(t *testing.T, dir string, env []string, args ...string) *termProc {
	t.Helper()
	return startProc(t, termSize{100, 50}, dir, nil, env, askuserBin(), args...)
}

// expect waits until s has been written (it may have scrolled away since)
// or is on the screen.
func (p *termProc) expect(s string) {
	p.t.Helper()
	p.tm.Wait("\""+s+"\"", func(sc *termtest.Screen) bool {
		return strings.Contains(sc.String(), s) || strings.Contains(sc.Raw(), s)
	})
}

// prompt waits for a prompt showing s and for the terminal to be put in
// raw mode, so keys sent next reach the prompt as keys.
func (p *termProc) prompt(s string) {
	p.t.Helper()
	p.tm.WaitText(s)
	p.tm.WaitRaw()
}

// send types keys, one write per key so an escape sequence arrives whole.
func (p *termProc) send(keys ...string) {
	p.t.Helper()
	p.tm.Send(keys...)
}

// exit waits for the program to exit and returns its exit code and
// whether the terminal was back in the mode it started in at that
// moment. It then closes the terminal, so the screen holds every byte.
func (p *termProc) exit() (code int, restored bool) {
	p.t.Helper()
	select {
	case <-p.done:
	case <-time.After(waitLimit):
		p.t.Fatalf("the program did not exit\nscreen:\n%s", p.screen.Dump())
	}
	restored = p.tm.Restored()
	p.tm.Close()
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode(), restored
	} else if p.err != nil {
		p.t.Fatalf("wait: %v", p.err)
	}
	return 0, restored
}
