package app

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/build"
	"github.com/askuser/askuser/internal/channelwire"
	"github.com/askuser/askuser/internal/cmd/completion"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
	"github.com/askuser/askuser/internal/session"
)

// run runs askuser in this process with an empty environment but for vars.
func runIn(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ios, out, errOut := iostreams.Test("")
	app := New(cmdutil.NewFactory(ios, func(k string) string { return vars[k] }))
	err := app.RunContext(context.Background(), cmdutil.Interspersed(app, append([]string{"askuser"}, args...)))
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return cmdutil.ExitCode(err), out.String(), errOut.String()
}

func TestComplete(t *testing.T) {
	dir := t.TempDir()
	store := &session.Store{Dir: dir}
	waiting := newSession(t, store, "Add authentication", true)
	finished := newSession(t, store, "Write the docs", false)
	vars := map[string]string{"ASKUSER_STATE_DIR": dir}
	for _, tc := range []struct {
		words []string
		want  []string
	}{
		{[]string{""}, []string{"ask", "run", "resume", "sessions", "cancel", "serve", "channels", "schema", "mcp", "hook", "demo", "completion", "help"}},
		{[]string{"re"}, []string{"resume"}},
		{[]string{"-"}, []string{"--help", "--version"}},
		{[]string{"run", "--fro"}, []string{"--frontend"}},
		// --frontend offers what the command's parser accepts, and only that.
		{[]string{"run", "--frontend", ""}, append([]string{"survey", "stdio", "file", "auto", "web", "inbox"}, channelwire.Names()...)},
		{[]string{"resume", "--frontend", ""}, append([]string{"survey", "stdio", "file", "auto", "web", "inbox"}, channelwire.Names()...)},
		{[]string{"run", "-f", "s"}, []string{"survey", "stdio", "slack"}},
		{[]string{"ask", "--frontend", "=", "a"}, []string{"auto"}}, // bash splits at "="
		{[]string{"ask", "--frontend", "="}, append([]string{"survey", "stdio", "file", "auto", "web", "inbox"}, channelwire.Names()...)},
		{[]string{"ask", "--frontend=f"}, []string{"--frontend=file"}}, // zsh and fish do not
		{[]string{"mcp", "--frontend", ""}, append([]string{"survey", "file", "auto", "elicit", "web", "inbox"}, channelwire.Names()...)},
		{[]string{"hook", "--frontend", ""}, append([]string{"survey", "file", "auto", "inbox"}, channelwire.Names()...)},
		{[]string{"hook", "--li"}, nil}, // hook serves no page
		{[]string{"mcp", "--li"}, []string{"--listen"}},
		{[]string{"resume", "--input"}, nil}, // resume answers pending questions only
		// The policies each command accepts: suspend needs a session.
		{[]string{"run", "--on-timeout", ""}, []string{"suspend", "auto", "error"}},
		{[]string{"ask", "--on-timeout", ""}, []string{"error", "auto"}},
		{[]string{"mcp", "--on-timeout", ""}, []string{"error", "auto", "suspend"}},
		{[]string{"run", "--on-unanswered", ""}, []string{"error", "auto", "suspend"}},
		{[]string{"ask", "--on-unanswered", ""}, []string{"error", "auto"}},
		{[]string{"hook", "--on-unanswered", ""}, []string{"error", "auto"}},
		{[]string{"run", "--permission-mode", ""}, []string{"default", "bypassPermissions"}},
		{[]string{"run", "--bell", "n"}, []string{"never"}},
		{[]string{"run", "--provider", ""}, []string{"anthropic", "openai", "script"}},
		{[]string{"resume", ""}, []string{waiting}},
		{[]string{"resume", waiting[:4]}, []string{waiting}},
		{[]string{"resume", "--verbose", ""}, []string{waiting}},
		{[]string{"run", "--resume", ""}, []string{finished}},
		{[]string{"resume", "--state-dir", t.TempDir(), ""}, nil},
		{[]string{"run", "--answers", "x"}, []string{completion.FilesMarker}},
		{[]string{"run", "--answers=x"}, []string{completion.FilesMarker}},
		{[]string{"ask", ""}, []string{completion.FilesMarker}},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}},
		{[]string{"help", "se"}, []string{"sessions", "serve"}},
		{[]string{"run", "--plain", ""}, nil},
		// cancel declines what waits; rm deletes any session.
		{[]string{"cancel", ""}, []string{waiting}},
		{[]string{"sessions", "rm", ""}, []string{finished, waiting}},
		{[]string{"sessions", "rm", waiting, ""}, []string{finished}},
		{[]string{"channels", "test", ""}, channelwire.Names()},
		{[]string{"channels", "test", "slack", ""}, nil},
		{[]string{"help", "sessions", ""}, []string{"rm", "prune"}},
		{[]string{"run", "--mcp-config", ""}, []string{completion.FilesMarker}},
		{[]string{"serve", "--token-file", ""}, []string{completion.FilesMarker}},
	} {
		code, out, errOut := runIn(t, vars, append([]string{completion.CompleteCommand}, tc.words...)...)
		if code != cmdutil.ExitOK {
			t.Fatalf("%q: exit %d: %s", tc.words, code, errOut)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if l != "" {
				value, _, _ := strings.Cut(l, "\t")
				got = append(got, value)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("complete %q = %q, want %q", tc.words, got, tc.want)
		}
	}
	// A session id comes with what it is, for zsh and fish to show.
	_, out, _ := runIn(t, vars, completion.CompleteCommand, "resume", "")
	if want := waiting + "\twaiting on a question: Add authentication\n"; out != want {
		t.Errorf("resume candidates %q, want %q", out, want)
	}
}

// newSession makes a session in store with prompt as its first prompt,
// waiting on a question or finished.
func newSession(t *testing.T, store *session.Store, prompt string, waiting bool) string {
	t.Helper()
	s, err := store.Create(session.Meta{FirstPrompt: prompt})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if waiting {
		// The model called the tool; nothing answered it yet.
		call := agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockToolUse, ID: "toolu_1", Name: ask.ToolName, Input: []byte(`{}`)}}}
		if err := s.Message(call); err != nil {
			t.Fatal(err)
		}
		if err := s.SetStatus(string(agentloop.StatusWaiting), "", 1, agentloop.Usage{}); err != nil {
			t.Fatal(err)
		}
	} else if err := s.SetStatus(string(agentloop.StatusSuccess), "", 1, agentloop.Usage{}); err != nil {
		t.Fatal(err)
	}
	return string(s.Meta.ID)
}

// TestHelpPages: help CMD is CMD --help; every page ends with examples.
func TestHelpPages(t *testing.T) {
	app := New(cmdutil.NewFactory(iostreams.New(nil, nil, nil), os.Getenv))
	for _, cmd := range app.Commands {
		if cmd.Hidden {
			continue
		}
		_, viaHelp, _ := runIn(t, nil, "help", cmd.Name)
		code, viaFlag, errOut := runIn(t, nil, cmd.Name, "--help")
		if code != cmdutil.ExitOK {
			t.Fatalf("%s --help: exit %d: %s", cmd.Name, code, errOut)
		}
		// (urfave/cli reads "help --help" as the app's help.)
		if viaHelp != viaFlag && cmd.Name != "help" {
			t.Errorf("help %s differs from %s --help:\n%s\n---\n%s", cmd.Name, cmd.Name, viaHelp, viaFlag)
		}
		checkExamples(t, cmd.Name, viaHelp)
	}
	_, top, _ := runIn(t, nil, "--help")
	checkExamples(t, "askuser", top)
	if code, _, errOut := runIn(t, nil, "help", "frobnicate"); code != cmdutil.ExitUsage || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("help frobnicate: exit %d, %q", code, errOut)
	}
}

// checkExamples requires a help page to end with two or three examples
// that run askuser (or load its completion).
func checkExamples(t *testing.T, name, page string) {
	t.Helper()
	_, tail, ok := strings.Cut(page, "\nEXAMPLES:\n")
	if !ok {
		t.Errorf("%s --help has no EXAMPLES section:\n%s", name, page)
		return
	}
	// A comment too long to sit beside its command stands above it, and a
	// command too long for a line goes on with a backslash.
	var lines []string
	joined := ""
	for _, l := range strings.Split(strings.TrimRight(tail, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if joined += l; strings.HasSuffix(l, `\`) {
			continue
		}
		lines, joined = append(lines, joined), ""
	}
	if len(lines) < 2 || len(lines) > 3 {
		t.Errorf("%s --help ends with %d examples, want 2 or 3:\n%s", name, len(lines), tail)
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); !strings.Contains(l, "askuser ") {
			t.Errorf("%s example %q does not run askuser", name, l)
		}
	}
}

func TestVersion(t *testing.T) {
	defer func(v string) { build.Version = v }(build.Version)
	build.Version = "v1.2.3"
	if code, out, _ := runIn(t, nil, "--version"); code != cmdutil.ExitOK || out != "askuser version v1.2.3\n" {
		t.Errorf("--version = %d %q", code, out)
	}
	// A test binary has no module version: a plain local build says dev.
	build.Version = ""
	if got := build.Current(); got != "dev" {
		t.Errorf("version() = %q without -X or a module version, want dev", got)
	}
}
