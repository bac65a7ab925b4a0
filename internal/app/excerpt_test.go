package app

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// hugeValues are what a hostile or broken caller passes: 100 KB of one
// character, digits (which the numeric and duration parsers read
// furthest) and letters.
var hugeValues = []string{strings.Repeat("9", 100_000), strings.Repeat("x", 100_000)}

// commandPaths lists every command and subcommand of the app, with its
// flags, as the words that invoke it.
func commandPaths(cmds []*cli.Command, parent []string) (paths [][]string, flags [][]cli.Flag) {
	for _, c := range cmds {
		// demo hands its flags and prompt to run, tested as run's; it
		// is tested apart (its accepted runs take seconds to wind down).
		if c.Name == "help" || c.Name == "__complete" || c.Name == "demo" {
			continue
		}
		path := append(append([]string{}, parent...), c.Name)
		paths, flags = append(paths, path), append(flags, c.Flags)
		p, f := commandPaths(c.Subcommands, path)
		paths, flags = append(paths, p...), append(flags, f...)
	}
	return paths, flags
}

// Every value a person passes, to every flag and as every argument of
// every command, is quoted back in an error by at most ask.ExcerptChars
// characters: 100 KB on the command line never comes back whole on
// stderr. (stdout is data; a value accepted may appear there.)
func TestHugeValuesAreQuotedShort(t *testing.T) {
	dir := t.TempDir()
	for _, k := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL",
		"ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED", "ASKUSER_NOTIFY_CMD", "ASKUSER_BELL"} {
		t.Setenv(k, "")
	}
	t.Setenv("ASKUSER_STATE_DIR", dir)
	t.Setenv("HOME", dir)
	ios, _, _ := iostreams.Test("")
	paths, flags := commandPaths(New(cmdutil.NewFactory(ios, func(string) string { return "" })).Commands, nil)
	for i, path := range paths {
		var cases [][]string
		for _, v := range hugeValues {
			cases = append(cases, append(append([]string{}, path...), v), append(append([]string{}, path...), "--"+v))
			for _, f := range flags[i] {
				if _, isBool := f.(*cli.BoolFlag); isBool {
					continue
				}
				cases = append(cases, append(append([]string{}, path...), "--"+f.Names()[0], v))
			}
		}
		for _, args := range cases {
			stderr := runCancelled(args)
			if run := strings.Repeat(args[len(args)-1][:1], 61); strings.Contains(stderr, run) || len(stderr) > 4000 {
				t.Errorf("askuser %s: stderr of %d bytes quotes the value at length: %.300q…", describe(args), len(stderr), stderr)
			}
		}
	}
	for _, v := range hugeValues {
		if stderr := runCancelled([]string{"demo", "--state-dir", v}); strings.Contains(stderr, v[:61]) || len(stderr) > 4000 {
			t.Errorf("askuser demo --state-dir %.3s…: stderr of %d bytes quotes the value at length: %.300q…", v, len(stderr), stderr)
		}
	}
	// The environment is read the same way.
	for _, k := range []string{"ASKUSER_FRONTEND", "ASKUSER_ANSWERS", "ASKUSER_ON_UNANSWERED", "ASKUSER_BELL", "ASKUSER_STATE_DIR"} {
		for _, v := range hugeValues {
			t.Setenv(k, v)
			for _, cmd := range []string{"ask", "run", "resume", "sessions"} {
				if stderr := runCancelled([]string{cmd, "x"}); strings.Contains(stderr, v[:61]) || len(stderr) > 4000 {
					t.Errorf("%s=%.3s… askuser %s: stderr of %d bytes quotes the value at length: %.300q…", k, v, cmd, len(stderr), stderr)
				}
			}
			t.Setenv(k, "")
		}
		t.Setenv("ASKUSER_STATE_DIR", dir)
	}
}

// runCancelled runs askuser with args in this process, with no input and
// a context already cancelled, and returns its stderr. The values under
// test are read and checked before anything waits; a value that is
// accepted then ends the command at its first wait instead of, say,
// serving an inbox.
func runCancelled(args []string) string {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errOut strings.Builder
	Run(ctx, append([]string{"askuser"}, args...), strings.NewReader(""), &out, &errOut)
	return errOut.String()
}

// describe shortens args for a test message.
func describe(args []string) string {
	short := make([]string, len(args))
	for i, a := range args {
		short[i] = a
		if len(a) > 20 {
			short[i] = fmt.Sprintf("%.3s…(%d)", a, len(a))
		}
	}
	return strings.Join(short, " ")
}
