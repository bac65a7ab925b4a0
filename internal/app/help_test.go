package app

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// helpPage runs askuser with args (ending in --help, or help CMD) and
// returns what it printed on stdout.
func helpPage(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := Run(context.Background(), append([]string{"askuser"}, args...), strings.NewReader(""), &out, &errOut); code != cmdutil.ExitOK {
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
// serves no page and reads no JSON lines, ask has no session to suspend
// into (hook and mcp suspend into their host's), resume takes no new
// prompts.
func TestHelpOffersOnlyWhatTheCommandAccepts(t *testing.T) {
	for _, tc := range []struct {
		cmd         string
		want, never []string
	}{
		{"hook", []string{"survey", "file", "auto", "suspend"}, []string{"--listen", "web", "elicit", "stdio"}},
		{"mcp", []string{"survey", "file", "auto", "elicit", "web", "--listen", "suspend"}, []string{"stdio"}},
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

// helpAt renders askuser's help for args (ending in --help) on a terminal
// of the given width.
func helpAt(t *testing.T, width int, args ...string) string {
	t.Helper()
	ios, out, errOut := iostreams.Test("")
	ios.SetStdoutTTY(true)
	ios.SetWidth(width)
	app := New(cmdutil.NewFactory(ios, func(string) string { return "" }))
	if err := app.RunContext(context.Background(), cmdutil.Interspersed(app, append([]string{"askuser"}, args...))); err != nil {
		t.Fatalf("askuser %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// helpPages lists the arguments that show every help page: the app's,
// every visible command's and subcommand's, and help's own form.
func helpPages(t *testing.T) [][]string {
	pages := [][]string{{"--help"}, {"help", "run"}, {"help", "sessions", "rm"}}
	app := New(cmdutil.NewFactory(iostreams.New(nil, nil, nil), func(string) string { return "" }))
	for _, c := range app.Commands {
		if c.Hidden {
			continue
		}
		pages = append(pages, []string{c.Name, "--help"})
		for _, s := range c.Subcommands {
			pages = append(pages, []string{c.Name, s.Name, "--help"})
		}
	}
	return pages
}

// Every help page fits the terminal: no line is wider than it, except a
// line that is one unbreakable token, and no word is split to make it fit
// (a narrow page holds the same words as a wide one).
func TestHelpWrapsToTheTerminal(t *testing.T) {
	for _, args := range helpPages(t) {
		wide := words(helpAt(t, 200, args...))
		for _, width := range []int{60, 80, 120} {
			page := helpAt(t, width, args...)
			for i, line := range strings.Split(page, "\n") {
				if n := len([]rune(line)); n > width && len(strings.Fields(line)) > 1 {
					t.Errorf("askuser %s at width %d, line %d is %d wide:\n%s", strings.Join(args, " "), width, i+1, n, line)
				}
			}
			for w := range words(page) {
				if !wide[w] {
					t.Errorf("askuser %s at width %d has %q, which the page at width 200 does not: a word was split", strings.Join(args, " "), width, w)
				}
			}
		}
	}
}

// words is the set of words of a page; a shell line continuation is not one.
func words(page string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(page) {
		if w != `\` {
			set[w] = true
		}
	}
	return set
}

// help run reads by group: its flags are listed under their categories.
func TestHelpGroupsFlags(t *testing.T) {
	page := helpAt(t, 80, "help", "run")
	last := -1
	for _, heading := range []string{"\n   Asking\n", "\n   Timeouts and notices\n", "\n   Output\n", "\n   Model\n", "\n   Tools and approvals\n", "\n   Session\n"} {
		i := strings.Index(page, heading)
		if i < 0 || i < last {
			t.Errorf("help run: the flag group %q is missing or out of order:\n%s", strings.TrimSpace(heading), page)
		}
		last = i
	}
	if !strings.Contains(page, "   -f, --frontend NAME") {
		t.Errorf("help run does not list --frontend as -f, --frontend NAME:\n%s", page)
	}
}

func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		text                string
		width, indent, hang int
		want                []string
	}{
		// Breaks at spaces only, the next lines at the hanging column.
		{"one two three four", 12, 2, 4, []string{"  one two", "    three", "    four"}},
		// A word longer than a line gets a line of its own, whole.
		{"see https://example.com/a/very/long/path now", 16, 0, 2, []string{"see", "  https://example.com/a/very/long/path", "  now"}},
		// Runs of spaces inside a line are kept; at a break they go.
		{"term   what it is", 40, 0, 0, []string{"term   what it is"}},
		{"term   what", 8, 0, 0, []string{"term", "what"}},
		{"", 10, 3, 3, []string{"   "}},
	} {
		if got := wrap(tc.text, tc.width, tc.indent, tc.hang); !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d, %d, %d) = %q, want %q", tc.text, tc.width, tc.indent, tc.hang, got, tc.want)
		}
	}
}

func TestShellWords(t *testing.T) {
	got := shellWords(`echo '{"a": 1}' | askuser run "Add auth  now" > out.txt`)
	want := []string{"echo", `'{"a": 1}'`, "|", "askuser", "run", `"Add auth  now"`, ">", "out.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("shellWords = %q, want %q", got, want)
	}
}

// Each command's help lists the exit codes it can return, and only those
// (which codes those are is checked against the end-to-end scripts by
// TestScripts); the app's own page has the whole table.
func TestHelpListsEachCommandsExitCodes(t *testing.T) {
	commandExits := cmdutil.CommandExitCodes()
	app := New(cmdutil.NewFactory(iostreams.New(nil, nil, nil), func(string) string { return "" }))
	for _, c := range app.Commands {
		if c.Hidden {
			if _, ok := commandExits[c.Name]; ok {
				t.Errorf("hidden command %s has exit codes in its (unseen) help", c.Name)
			}
			continue
		}
		want, ok := commandExits[c.Name]
		if !ok {
			t.Errorf("command %s lists no exit codes", c.Name)
			continue
		}
		// (urfave/cli reads "help --help" as the app's help.)
		if got := listedExits(helpPage(t, "help", c.Name)); !slices.Equal(got, want) {
			t.Errorf("askuser help %s lists exit codes %v, want %v", c.Name, got, want)
		}
	}
	if got := listedExits(helpPage(t, "--help")); len(got) != len(cmdutil.ExitTable()) {
		t.Errorf("askuser --help lists exit codes %v, want the whole table", got)
	}
}

// listedExits are the codes in a help page's EXIT CODES section.
func listedExits(page string) []int {
	_, section, _ := strings.Cut(page, "\nEXIT CODES:\n")
	section, _, _ = strings.Cut(section, "\n\n")
	var codes []int
	for _, line := range strings.Split(section, "\n") {
		var code int
		var name string
		if n, _ := fmt.Sscanf(line, "   %d %s", &code, &name); n == 2 {
			codes = append(codes, code)
		}
	}
	return codes
}
