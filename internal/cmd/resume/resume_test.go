package resume

import (
	"slices"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// TestWaitOptions: --wait asks through the inbox unless --frontend says
// otherwise, and --timeout bounds each wait as --ask-timeout with
// --on-timeout error does; the flags reach the Options before anything
// runs (runF).
func TestWaitOptions(t *testing.T) {
	for _, tc := range []struct {
		args                []string
		frontend, onTimeout string
		ask                 time.Duration
	}{
		{[]string{"resume", "--wait", "3f2a"}, "inbox", "suspend", 0},
		{[]string{"resume", "3f2a", "--wait", "--timeout", "5m"}, "inbox", "error", 5 * time.Minute},
		{[]string{"resume", "--wait", "--frontend", "slack", "3f2a"}, "slack", "suspend", 0},
		{[]string{"resume", "3f2a"}, "", "suspend", 0},
	} {
		var got *Options
		newCmd := func(f *cmdutil.Factory) *cli.Command {
			return NewCmdResume(f, func(o *Options) error { got = o; return waitOptions(o) })
		}
		code, _, stderr := cmdtest.RunIn(t, nil, tc.args, newCmd)
		if code != cmdutil.ExitOK || got == nil {
			t.Fatalf("%q: exit %d: %s", tc.args, code, stderr)
		}
		if fl := got.Flags; fl.Asking.Frontend != tc.frontend || fl.OnTimeout != tc.onTimeout || fl.AskTimeout != tc.ask || len(got.Args) != 1 || got.Args[0] != "3f2a" {
			t.Errorf("%q: frontend %q, on-timeout %q, ask-timeout %s, args %q", tc.args, fl.Asking.Frontend, fl.OnTimeout, fl.AskTimeout, got.Args)
		}
	}
	newCmd := func(f *cmdutil.Factory) *cli.Command { return NewCmdResume(f, waitOptions) }
	if code, _, stderr := cmdtest.RunIn(t, nil, []string{"resume", "--wait", "--timeout", "5m", "--ask-timeout", "1m", "x"}, newCmd); code != cmdutil.ExitUsage {
		t.Errorf("--timeout with --ask-timeout: exit %d, %s", code, stderr)
	}
	if code, _, _ := cmdtest.RunIn(t, nil, []string{"resume", "--timeout", "5m", "x"}, newCmd); code != cmdutil.ExitUsage {
		t.Errorf("--timeout without --wait: exit %d", code)
	}
}

// The agent's own flags follow a -- after the id; an id after a first --
// (serve's way) stays an id.
func TestAgentFlags(t *testing.T) {
	for _, c := range []struct {
		in          []string
		args, extra []string
	}{
		{[]string{"ID"}, []string{"ID"}, nil},
		{[]string{"ID", "--", "--model", "x"}, []string{"ID"}, []string{"--model", "x"}},
		{[]string{"--mcp-config=x"}, []string{"--mcp-config=x"}, nil}, // an id, refused as one
		{[]string{"a", "b"}, []string{"a", "b"}, nil},
	} {
		args, extra := agentFlags(c.in)
		if !slices.Equal(args, c.args) || !slices.Equal(extra, c.extra) {
			t.Errorf("agentFlags(%q) = %q, %q; want %q, %q", c.in, args, extra, c.args, c.extra)
		}
	}
}
