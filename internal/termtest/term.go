//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package termtest

import (
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"golang.org/x/term"
)

// WaitLimit bounds every wait, so a broken prompt fails a test instead of
// hanging it.
const WaitLimit = 20 * time.Second

// quiet is how long the screen must stay unchanged before Wait trusts
// what it shows: long enough that a redraw caught halfway has finished.
const quiet = 60 * time.Millisecond

// Term is a pseudo-terminal of a given size with an emulated screen. TTY
// is the terminal end to give a program (or a prompt in this process);
// what is written to it is drawn on Screen as it arrives.
type Term struct {
	t      testing.TB
	TTY    *os.File
	ptm    *os.File
	Screen *Screen
	before *term.State
	drawn  chan struct{}
}

// New opens a terminal cols wide and rows high.
func New(t testing.TB, cols, rows int) *Term {
	t.Helper()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open pty: %v", err)
	}
	if err := pty.Setsize(tty, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		t.Fatalf("set pty size: %v", err)
	}
	before, err := term.GetState(int(tty.Fd()))
	if err != nil {
		t.Fatalf("get terminal mode: %v", err)
	}
	// The emulator's replies (to a cursor-position query) are typed in.
	tm := &Term{t: t, TTY: tty, ptm: ptm, Screen: newScreen(cols, rows, vt10x.WithWriter(ptm)), before: before, drawn: make(chan struct{})}
	go func() {
		_, _ = io.Copy(tm.Screen, ptm)
		close(tm.drawn)
	}()
	t.Cleanup(func() {
		tty.Close()
		ptm.Close()
	})
	return tm
}

// Send types keys, one write each, so an escape sequence arrives whole.
func (tm *Term) Send(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		if _, err := tm.ptm.WriteString(k); err != nil {
			tm.t.Fatalf("send %q: %v", k, err)
		}
	}
}

// Resize changes the terminal's size, as a person dragging the window.
func (tm *Term) Resize(cols, rows int) {
	tm.t.Helper()
	tm.Screen.Resize(cols, rows)
	if err := pty.Setsize(tm.TTY, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		tm.t.Fatalf("set pty size: %v", err)
	}
}

// ResizeReflow is Resize for a terminal that re-wraps its lines to the
// new width (see Screen.ResizeReflow).
func (tm *Term) ResizeReflow(cols, rows int) {
	tm.t.Helper()
	tm.Screen.ResizeReflow(cols, rows)
	if err := pty.Setsize(tm.TTY, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		tm.t.Fatalf("set pty size: %v", err)
	}
}

// Wait waits until cond holds for a screen that has stopped changing,
// and fails the test with the screen when it does not come.
func (tm *Term) Wait(what string, cond func(*Screen) bool) {
	tm.t.Helper()
	deadline := time.Now().Add(WaitLimit)
	for {
		n := tm.Screen.changes()
		if cond(tm.Screen) {
			time.Sleep(quiet)
			if tm.Screen.changes() == n {
				return
			}
			continue
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("waiting for %s\nscreen:\n%s", what, tm.Screen.Dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// WaitText waits until the screen shows every one of texts.
func (tm *Term) WaitText(texts ...string) {
	tm.t.Helper()
	tm.Wait(strings.Join(quoteAll(texts), ", "), func(s *Screen) bool {
		screen := s.String()
		for _, t := range texts {
			if !strings.Contains(screen, t) {
				return false
			}
		}
		return true
	})
}

// WaitRaw waits until the terminal has left the mode it started in: a
// prompt has put it in raw mode, so keys sent next arrive as keys.
func (tm *Term) WaitRaw() {
	tm.t.Helper()
	deadline := time.Now().Add(WaitLimit)
	for tm.Restored() {
		if time.Now().After(deadline) {
			tm.t.Fatalf("the terminal was not put in raw mode\nscreen:\n%s", tm.Screen.Dump())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Restored reports whether the terminal is in the mode it started in.
func (tm *Term) Restored() bool {
	tm.t.Helper()
	st, err := term.GetState(int(tm.TTY.Fd()))
	if err != nil {
		tm.t.Fatalf("get terminal mode: %v", err)
	}
	return reflect.DeepEqual(st, tm.before)
}

// Close closes the program's end and waits until everything written has
// been drawn.
func (tm *Term) Close() {
	tm.t.Helper()
	tm.TTY.Close()
	select {
	case <-tm.drawn:
	case <-time.After(WaitLimit):
		tm.t.Fatal("the terminal's output did not end after it was closed")
	}
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "\"" + s + "\""
	}
	return out
}
