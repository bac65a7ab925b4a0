package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// helpPage runs askuser with args (ending in --help, or help CMD) and
// returns what it printed on stdout.
func helpPage(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), append([]string{"askuser"}, args...), strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("askuser %s: exit %d, stderr %s", strings.Join(args, " "), code, errOut.String())
	}
	return out.String()
}

// flat makes every run of white space one space, so a check does not
// depend on where a help page wraps its lines.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// The bound askuser mcp puts on a call its host cannot be heard from is
// the real default of --ask-timeout, and help says why; askuser hook's
// --ask-timeout has no default bound of its own.
func TestHelpShowsTheRealAskTimeoutDefaults(t *testing.T) {
	mcp := flat(helpPage(t, "mcp", "--help"))
	for _, want := range []string{
		"(default: 25m for a call without a progress token, none for a call with one)",
		"Claude Code 2.1.330 aborts a call after 30 minutes without a reply or progress",
	} {
		if !strings.Contains(mcp, want) {
			t.Errorf("askuser mcp --help lacks %q:\n%s", want, mcp)
		}
	}
	hook := flat(helpPage(t, "hook", "--help"))
	if !strings.Contains(hook, "(default: none; --timeout bounds the whole hook)") {
		t.Errorf("askuser hook --help does not say what bounds a question without --ask-timeout:\n%s", hook)
	}
	for name, page := range map[string]string{"mcp": mcp, "hook": hook} {
		if strings.Contains(page, "default: 0s") {
			t.Errorf("askuser %s --help shows a default of 0s", name)
		}
	}
}

// Help offers each command only the flags and values it accepts: hook
// serves no page and reads no JSON lines, ask and the MCP server have no
// session to suspend into, resume takes no new prompts.
func TestHelpOffersOnlyWhatTheCommandAccepts(t *testing.T) {
	for _, tc := range []struct {
		cmd         string
		want, never []string
	}{
		{"hook", []string{"survey", "file", "auto"}, []string{"--listen", "web", "elicit", "stdio", "suspend"}},
		{"mcp", []string{"survey", "file", "auto", "elicit", "web", "--listen"}, []string{"stdio", "suspend"}},
		{"ask", []string{"survey", "stdio", "file", "auto", "web", "--listen"}, []string{"elicit", "suspend"}},
		{"run", []string{"survey", "stdio", "file", "auto", "web", "suspend", "--input-format"}, []string{"elicit"}},
		{"resume", []string{"survey", "stdio", "file", "auto", "web", "suspend"}, []string{"elicit", "--input-format"}},
	} {
		page := helpPage(t, tc.cmd, "--help")
		for _, w := range tc.want {
			if !strings.Contains(page, w) {
				t.Errorf("askuser %s --help does not offer %q", tc.cmd, w)
			}
		}
		for _, n := range tc.never {
			if strings.Contains(page, n) {
				t.Errorf("askuser %s --help offers %q, which it refuses", tc.cmd, n)
			}
		}
	}
}
