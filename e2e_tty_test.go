// The pty, expect and vt10x packages build on these systems only.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sync"
	"syscall"
	"testing"
	"time"

	expect "github.com/Netflix/go-expect"
	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"golang.org/x/term"
)

// Keys as a terminal sends them.
const (
	keyUp    = "\x1b[A"
	keyDown  = "\x1b[B"
	keySpace = " "
	keyEnter = "\r"
	keyCtrlC = "\x03"
)

// syncBuffer records the raw bytes the program wrote to the terminal.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// ttyProc is the askuser binary running on a pseudo-terminal, the way a
// person runs it: its stdin and stderr are the terminal (stdout too,
// unless redirected to a file), it is the session leader with the
// terminal as its controlling terminal, and an emulated screen (vt10x)
// draws what it writes and answers its cursor-position queries.
type ttyProc struct {
	t      *testing.T
	c      *expect.Console
	screen vt10x.Terminal
	raw    *syncBuffer
	cmd    *exec.Cmd
	// before is the terminal's mode (termios) before askuser started.
	before *term.State
	done   chan struct{}
	err    error
}

// startTTY starts askuser with args in dir on a new terminal. stdout is
// where its standard output goes: nil for the terminal.
func startTTY(t *testing.T, dir string, stdout *os.File, args ...string) *ttyProc {
	t.Helper()
	return startTTYEnv(t, dir, stdout, nil, args...)
}

// startTTYEnv is startTTY with extra environment variables (KEY=value).
func startTTYEnv(t *testing.T, dir string, stdout *os.File, env []string, args ...string) *ttyProc {
	t.Helper()
	return startTTYIn(t, dir, nil, stdout, env, args...)
}

// startTTYIn is startTTYEnv with standard input read from stdin instead
// of the terminal (nil: the terminal), as when a prompt is piped in.
func startTTYIn(t *testing.T, dir string, stdin io.Reader, stdout *os.File, env []string, args ...string) *ttyProc {
	t.Helper()
	p := newTTY(t)
	c := p.c

	cmd := exec.Command(askuserBin(), args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color", "NO_COLOR=1",
		"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.Tty(), c.Tty(), c.Tty()
	if stdout != nil {
		cmd.Stdout = stdout
	}
	ctty := 0 // the child's descriptor that is the terminal
	if stdin != nil {
		cmd.Stdin, ctty = stdin, 2
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: ctty}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start askuser: %v", err)
	}
	p.cmd = cmd
	t.Cleanup(reap(cmd, &p.err, p.done))
	return p
}

// outFile creates a file for a program's standard output, closed at the
// end of the test, and returns it and its path.
func outFile(t *testing.T) (*os.File, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, path
}

// newTTY opens a 100×50 terminal drawn on a vt10x screen, with no program
// on it yet: the caller starts one with the terminal as its controlling
// terminal and sets p.cmd.
func newTTY(t *testing.T) *ttyProc {
	t.Helper()
	// vt10x writes its replies to a second pty; go-expect copies them to
	// the program's input.
	replies, replyTTY, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	screen := vt10x.New(vt10x.WithWriter(replyTTY), vt10x.WithSize(100, 50))
	raw := &syncBuffer{}
	c, err := expect.NewConsole(
		expect.WithStdin(replies),
		expect.WithStdout(screen, raw),
		expect.WithCloser(replies, replyTTY),
		expect.WithDefaultTimeout(waitLimit),
	)
	if err != nil {
		t.Fatalf("new console: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := pty.Setsize(c.Tty(), &pty.Winsize{Rows: 50, Cols: 100}); err != nil {
		t.Fatalf("set pty size: %v", err)
	}
	p := &ttyProc{t: t, c: c, screen: screen, raw: raw, done: make(chan struct{})}
	p.before = p.termios()
	return p
}

// termios returns the terminal's current mode.
func (p *ttyProc) termios() *term.State {
	p.t.Helper()
	st, err := term.GetState(int(p.c.Tty().Fd()))
	if err != nil {
		p.t.Fatalf("get terminal mode: %v", err)
	}
	return st
}

// restored reports whether the terminal is in the mode it started in.
func (p *ttyProc) restored(st *term.State) bool { return reflect.DeepEqual(st, p.before) }

// expect waits for s in what askuser writes to the terminal.
func (p *ttyProc) expect(s string) {
	p.t.Helper()
	if out, err := p.c.ExpectString(s); err != nil {
		p.t.Fatalf("waiting for %q: %v\nread so far: %q\nscreen:\n%s", s, err, out, p.screen.String())
	}
}

// prompt waits for a prompt showing s and for the terminal to be put in
// raw mode, so keys sent next reach the prompt as keys.
func (p *ttyProc) prompt(s string) {
	p.t.Helper()
	p.expect(s)
	for deadline := time.Now().Add(waitLimit); p.restored(p.termios()); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Fatalf("terminal not put in raw mode after %q\nscreen:\n%s", s, p.screen.String())
		}
	}
}

// send types keys, one write per key so an escape sequence arrives whole.
func (p *ttyProc) send(keys ...string) {
	p.t.Helper()
	for _, k := range keys {
		if _, err := p.c.Send(k); err != nil {
			p.t.Fatalf("send %q: %v", k, err)
		}
	}
}

// exit waits for askuser to exit while reading what it writes, and
// returns its exit code and the terminal's mode at that moment. It then
// closes the terminal, so raw and the screen hold every byte written.
func (p *ttyProc) exit() (code int, after *term.State) {
	p.t.Helper()
	type end struct {
		after *term.State
		err   error
	}
	ends := make(chan end, 1)
	go func() {
		<-p.done
		st, err := term.GetState(int(p.c.Tty().Fd()))
		p.c.Tty().Close()
		ends <- end{st, err}
	}()
	if _, err := p.c.ExpectEOF(); err != nil {
		p.t.Fatalf("reading the terminal until askuser exits: %v\nscreen:\n%s", err, p.screen.String())
	}
	var e end
	select {
	case e = <-ends:
	case <-time.After(waitLimit):
		p.t.Fatalf("askuser did not exit\nscreen:\n%s", p.screen.String())
	}
	if e.err != nil {
		p.t.Fatalf("get terminal mode: %v", e.err)
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) {
		return ee.ExitCode(), e.after
	} else if p.err != nil {
		p.t.Fatalf("wait: %v", p.err)
	}
	return 0, e.after
}
