package app

import (
	"slices"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

func TestInterspersed(t *testing.T) {
	app := New(cmdutil.NewFactory(iostreams.New(nil, nil, nil), func(string) string { return "" }))
	for _, tc := range []struct {
		in, want []string
	}{
		// Flags after the argument move in front of it, with their values.
		{[]string{"askuser", "resume", "ID", "--answers", "a.yaml", "-p"},
			[]string{"askuser", "resume", "--answers", "a.yaml", "-p", "--", "ID"}},
		// --flag=value and bool flags take no extra argument.
		{[]string{"askuser", "run", "do it", "--max-turns=3", "--print"},
			[]string{"askuser", "run", "--max-turns=3", "--print", "--", "do it"}},
		// "-" (stdin) is an argument, not a flag.
		{[]string{"askuser", "ask", "-", "--json"},
			[]string{"askuser", "ask", "--json", "--", "-"}},
		// After "--" everything is an argument, even what looks like a flag.
		{[]string{"askuser", "run", "--print", "--", "--not-a-flag"},
			[]string{"askuser", "run", "--print", "--", "--not-a-flag"}},
		// Already in order: unchanged.
		{[]string{"askuser", "ask", "--frontend", "auto", "q.json"},
			[]string{"askuser", "ask", "--frontend", "auto", "--", "q.json"}},
		// A subcommand's flags are its own, after its name; the parent's
		// stay before it.
		{[]string{"askuser", "sessions", "prune", "--older-than", "7d", "--finished"},
			[]string{"askuser", "sessions", "prune", "--older-than", "7d", "--finished"}},
		{[]string{"askuser", "sessions", "rm", "ID", "--state-dir", "d"},
			[]string{"askuser", "sessions", "rm", "--state-dir", "d", "--", "ID"}},
		{[]string{"askuser", "sessions", "--json", "--waiting"},
			[]string{"askuser", "sessions", "--json", "--waiting"}},
		// No command, or an unknown one: left for urfave/cli to report.
		{[]string{"askuser", "--help"}, []string{"askuser", "--help"}},
		{[]string{"askuser", "frobnicate", "--x"}, []string{"askuser", "frobnicate", "--x"}},
		// Completion words are text to complete: never reordered, no "--".
		{[]string{"askuser", "__complete", "resume", "ID", "--fr"}, []string{"askuser", "__complete", "resume", "ID", "--fr"}},
		{[]string{"askuser", "resume", "ID", "--generate-bash-completion"}, []string{"askuser", "resume", "ID", "--generate-bash-completion"}},
	} {
		if got := cmdutil.Interspersed(app, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("interspersed(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
