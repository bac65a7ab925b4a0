package completion

import (
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// TestCompleteSubcommands: a command's subcommands are completed, and
// their own flags after them.
func TestCompleteSubcommands(t *testing.T) {
	app := &cli.App{Name: "askuser", Commands: []*cli.Command{{Name: "sessions", Subcommands: []*cli.Command{
		{Name: "prune", Usage: "remove old sessions", Flags: []cli.Flag{&cli.DurationFlag{Name: "older-than"}, &cli.BoolFlag{Name: "dry-run"}}},
		{Name: "show", Usage: "show one"},
	}}}}
	f := cmdutil.NewFactory(nil, func(string) string { return "" })
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{"sessions", ""}, []string{"prune\tremove old sessions", "show\tshow one"}},
		{[]string{"sessions", "pr"}, []string{"prune\tremove old sessions"}},
		{[]string{"sessions", "prune", "--"}, []string{"--older-than", "--dry-run", "--help"}},
		{[]string{"sessions", "prune", "--older-than", ""}, nil},
	} {
		if got := complete(app, tc.words, f); !slices.Equal(got, tc.want) {
			t.Errorf("complete %q = %q, want %q", tc.words, got, tc.want)
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	for _, shell := range shells {
		code, out, _ := cmdtest.RunIn(t, nil, []string{"completion", shell}, cmdtest.Cmd(NewCmdCompletion))
		if code != cmdutil.ExitOK || !strings.Contains(out, "__complete") || !strings.Contains(out, "askuser completion "+shell) {
			t.Errorf("completion %s: exit %d, script:\n%s", shell, code, out)
		}
	}
	for _, args := range [][]string{{"completion"}, {"completion", "powershell"}, {"completion", "bash", "zsh"}} {
		if code, _, errOut := cmdtest.RunIn(t, nil, args, cmdtest.Cmd(NewCmdCompletion)); code != cmdutil.ExitUsage || !strings.Contains(errOut, "bash, zsh or fish") {
			t.Errorf("%q: exit %d, %q; want a usage error naming the shells", args, code, errOut)
		}
	}
}
