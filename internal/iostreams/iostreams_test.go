package iostreams

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

func TestInKind(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "answers"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()

	for _, tc := range []struct {
		name   string
		in     *os.File
		want   InKind
		prompt bool
	}{
		{"pipe", r, InPipe, false},
		{"/dev/null", devnull, InNull, false},
		{"regular file", file, InPipe, false},
		{"terminal", tty, InTerminal, true},
	} {
		s := New(tc.in, os.Stdout, os.Stderr)
		if s.InKind() != tc.want || s.CanPrompt() != tc.prompt {
			t.Errorf("%s: kind %v, can prompt %v; want %v, %v", tc.name, s.InKind(), s.CanPrompt(), tc.want, tc.prompt)
		}
	}
	// A reader that is not a file (tests, embedding) counts as a pipe.
	if s := New(nil, nil, nil); s.InKind() != InPipe {
		t.Errorf("non-file stdin: kind %v, want a pipe", s.InKind())
	}
}

// IsIn tells the paths that name standard input from the others.
func TestIsIn(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	other, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	defer w2.Close()
	file := filepath.Join(t.TempDir(), "answers.yaml")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fromFile, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fromFile.Close()
	fd := func(f *os.File) string { return fmt.Sprintf("/dev/fd/%d", f.Fd()) }
	for _, c := range []struct {
		in   *os.File
		path string
		want bool
	}{
		{r, fd(r), true},       // /dev/stdin when stdin is this pipe
		{r, fd(other), false},  // <(…): another pipe
		{r, file, false},       // a file
		{fromFile, file, true}, // < answers.yaml --answers answers.yaml
		{r, "/no/such/file", false},
	} {
		if got := New(c.in, nil, nil).IsIn(c.path); got != c.want {
			t.Errorf("IsIn(%s) = %v, want %v", c.path, got, c.want)
		}
	}
	if New(strings.NewReader("x"), nil, nil).IsIn("/dev/stdin") {
		t.Error("a reader that is not a file named by /dev/stdin")
	}
}

// Terminal finds the terminal to draw on: stderr when it is one, else the
// input terminal itself.
func TestTerminalDrawsOnStderrOrInput(t *testing.T) {
	ptm, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer ptm.Close()
	defer tty.Close()
	s := New(tty, os.Stdout, tty)
	in, out, closeTTY, err := s.Terminal()
	if err != nil {
		t.Fatal(err)
	}
	defer closeTTY()
	if in != tty || out != tty {
		t.Errorf("Terminal() = %v, %v; want the pty for both", in.Name(), out.Name())
	}
}

func TestColorEnabled(t *testing.T) {
	for _, tc := range []struct {
		env   map[string]string
		tty   bool
		color bool
	}{
		{nil, true, true},
		{nil, false, false},
		{map[string]string{"NO_COLOR": "1"}, true, false},
		{map[string]string{"CLICOLOR": "0"}, true, false},
		{map[string]string{"TERM": "dumb"}, true, false},
		{map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, false, true},
		{map[string]string{"CLICOLOR_FORCE": "0"}, true, true},
	} {
		ios, _, _ := Test("")
		ios.Getenv = func(k string) string { return tc.env[k] }
		ios.SetStderrTTY(tc.tty)
		if got := ios.ColorEnabled(); got != tc.color {
			t.Errorf("env %v, stderr tty %v: colour %v, want %v", tc.env, tc.tty, got, tc.color)
		}
	}
}

func TestWidthAndOverrides(t *testing.T) {
	ios, _, _ := Test("")
	if w := ios.TerminalWidth(); w != 80 {
		t.Errorf("width %d without a terminal or COLUMNS, want 80", w)
	}
	ios.Getenv = func(k string) string { return map[string]string{"COLUMNS": "132"}[k] }
	if w := ios.TerminalWidth(); w != 132 {
		t.Errorf("width %d, want COLUMNS' 132", w)
	}
	ios.SetWidth(40)
	if w := ios.TerminalWidth(); w != 40 {
		t.Errorf("width %d after SetWidth(40)", w)
	}
	if ios.CanPrompt() {
		t.Error("a test stream on a string is a pipe, not a terminal")
	}
	ios.SetStdinTTY(true)
	if !ios.CanPrompt() {
		t.Error("SetStdinTTY(true) should let it prompt")
	}
	ios.SetNeverPrompt(true)
	if ios.CanPrompt() {
		t.Error("SetNeverPrompt(true) should stop prompting")
	}
	ios.SetColorEnabled(true)
	if !ios.ColorEnabled() {
		t.Error("SetColorEnabled(true)")
	}
}

// What reaches a person goes through the sanitiser; standard output stays
// exact for JSON.
func TestErrOutIsSanitised(t *testing.T) {
	ios, out, errOut := Test("")
	io.WriteString(ios.ErrOut, "anthropic: HTTP 500: \x1b]52;c;cHduZWQ=\x07boom\x1b[2J\n")
	io.WriteString(ios.TextOut(), "text \x1bc\tok\n")
	io.WriteString(ios.Out, "{\"text\":\"\\u001b\"}\n")
	if got := errOut.String(); got != "anthropic: HTTP 500: boom\n" {
		t.Errorf("stderr %q", got)
	}
	if got := out.String(); got != "text \tok\n{\"text\":\"\\u001b\"}\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestStatusOut(t *testing.T) {
	ios, _, errOut := Test("")
	if ios.StatusOut() != nil {
		t.Error("StatusOut for a standard error that is not a terminal")
	}
	ios.SetStderrTTY(true)
	w := ios.StatusOut()
	if w == nil {
		t.Fatal("no StatusOut at a terminal")
	}
	// Unsanitised: the "\r" a status line needs reaches the terminal.
	if _, err := w.Write([]byte("\rworking\x1b[K")); err != nil || errOut.String() != "\rworking\x1b[K" {
		t.Errorf("StatusOut wrote %q, %v", errOut.String(), err)
	}
}
