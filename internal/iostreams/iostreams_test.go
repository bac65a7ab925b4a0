package iostreams

import (
	"os"
	"path/filepath"
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
