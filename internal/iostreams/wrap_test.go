package iostreams

import (
	"bytes"
	"strings"
	"testing"
)

// wrapped writes chunks through a wordWrapper of the given width and
// returns what reached the terminal.
func wrapped(width int, hold bool, chunks ...string) string {
	var b bytes.Buffer
	ww := newWordWrapper(&b, func() int { return width }, func() bool { return true }, hold)
	for _, c := range chunks {
		ww.Write([]byte(c))
	}
	return b.String()
}

func TestWordWrapBreaksAtWords(t *testing.T) {
	for _, c := range []struct {
		name   string
		width  int
		hold   bool
		chunks []string
		want   string
	}{
		{"fits", 40, false, []string{"a short line\n"}, "a short line\n"},
		{"breaks before the word that crosses", 20, false,
			[]string{"askuser demo: the agent's folder is /tmp/x\n"},
			"askuser demo: the\nagent's folder is\n/tmp/x\n"},
		{"a continuation keeps the line's indent", 20, false,
			[]string{"   Selected: PostgreSQL and SQLite too\n"},
			"   Selected:\n   PostgreSQL and\n   SQLite too\n"},
		{"a word longer than a line gets a line of its own", 10, false,
			[]string{"see /a/very/long/path/here now\n"},
			"see\n/a/very/long/path/here now\n"}, // its own line, then on as the terminal wrapped it
		{"streamed words split across writes stay whole", 20, true,
			[]string{"This is askuser's de", "mo: a scripted mod", "el, no API key needed.\n"},
			"This is askuser's\ndemo: a scripted\nmodel, no API key\nneeded.\n"},
		{"wide characters take two cells", 10, false,
			[]string{"日本語 日本語\n"}, "日本語\n日本語\n"},
		{"line breaks in the text start over", 12, false,
			[]string{"one two\nthree four five\n"}, "one two\nthree four\nfive\n"},
		{"without hold a write ends what it holds", 40, false,
			[]string{"Continue? [y/N] "}, "Continue? [y/N] "},
	} {
		if got := wrapped(c.width, c.hold, c.chunks...); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestWordWrapOnlyOnATerminal(t *testing.T) {
	var b bytes.Buffer
	on := false
	ww := newWordWrapper(&b, func() int { return 10 }, func() bool { return on }, false)
	long := strings.Repeat("word ", 10) + "\n"
	ww.Write([]byte(long))
	if b.String() != long {
		t.Errorf("not a terminal: got %q, want it unchanged", b.String())
	}
	b.Reset()
	on = true
	ww.Write([]byte(long))
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if len(l) > 10 {
			t.Errorf("on a terminal of 10 columns, line %q is longer", l)
		}
	}
}

// TestStreamsWrapForAPerson: ErrOut and TextOut wrap on a terminal; Out,
// which carries data, never does.
func TestStreamsWrapForAPerson(t *testing.T) {
	var out, errOut bytes.Buffer
	s := New(strings.NewReader(""), &out, &errOut)
	s.SetStdoutTTY(true)
	s.SetStderrTTY(true)
	s.SetWidth(12)
	line := "one two three four\n"
	s.ErrOut.Write([]byte(line))
	s.TextOut().Write([]byte(line))
	s.Out.Write([]byte(line))
	want := "one two\nthree four\n"
	if errOut.String() != want {
		t.Errorf("ErrOut: %q, want %q", errOut.String(), want)
	}
	if got := out.String(); got != want+line {
		t.Errorf("TextOut then Out: %q, want %q", got, want+line)
	}
}

// TestVerbatimLinesAreNeverBroken: what a person copies (a command, a
// file to paste) is written whole through Verbatim, and the prose after
// it wraps as before.
func TestVerbatimLinesAreNeverBroken(t *testing.T) {
	var errOut bytes.Buffer
	s := New(strings.NewReader(""), &bytes.Buffer{}, &errOut)
	s.SetStderrTTY(true)
	s.SetWidth(12)
	cmd := "Answer at a terminal:  askuser resume 0b7e6f1e-2c1d-4c7a-9d55-3f5a8c2e1b90\n"
	Verbatim(s.ErrOut).Write([]byte(cmd))
	s.ErrOut.Write([]byte("one two three four\n"))
	if want := cmd + "one two\nthree four\n"; errOut.String() != want {
		t.Errorf("got %q, want %q", errOut.String(), want)
	}
	var plain bytes.Buffer
	if Verbatim(&plain) != &plain {
		t.Error("Verbatim of a writer askuser did not make is not that writer")
	}
}
