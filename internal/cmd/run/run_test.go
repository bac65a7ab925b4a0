package run

import (
	"slices"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/cmdutil/cmdtest"
)

// TestNewCmdRunOptions: askuser run's flags and arguments reach its
// Options as typed, flags after the prompt included, and nothing runs
// (runF stops before the work).
func TestNewCmdRunOptions(t *testing.T) {
	var got *Options
	newCmd := func(f *cmdutil.Factory) *cli.Command {
		return NewCmdRun(f, func(o *Options) error { got = o; return nil })
	}
	code, _, stderr := cmdtest.RunIn(t, nil, []string{"run", "Add", "auth", "-p", "--resume", "3f2a", "--ask-timeout", "10m",
		"--on-timeout", "auto", "--allowedTools", "Bash(git status:*)", "--frontend", "inbox,survey", "--bell", "never"}, newCmd)
	if code != cmdutil.ExitOK || got == nil {
		t.Fatalf("exit %d, options %v: %s", code, got, stderr)
	}
	s := got.Start
	if !slices.Equal(s.Args, []string{"Add", "auth"}) || s.Resume != "3f2a" || !s.ResumeSet || s.Continue {
		t.Errorf("arguments and session: %+v", s)
	}
	fl := s.Flags
	if !fl.Print || fl.AskTimeout != 10*time.Minute || fl.OnTimeout != "auto" || fl.Bell != "never" || !fl.BellSet || fl.MaxTurns <= 0 {
		t.Errorf("flags: %+v", fl)
	}
	if !slices.Equal(fl.Tools.Allowed, []string{"Bash(git status:*)"}) || !fl.Tools.AllowedSet || fl.Tools.ModeSet {
		t.Errorf("tool flags: %+v", fl.Tools)
	}
	if fl.Asking.Frontend != "inbox,survey" || !fl.Asking.FrontendSet || !slices.Contains(fl.Asking.Accepted, "stdio") {
		t.Errorf("asking flags: %+v", fl.Asking)
	}
}
