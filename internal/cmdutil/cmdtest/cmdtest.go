// Package cmdtest is test support, linked into no binary: it runs some of
// askuser's commands in the test's process as askuser runs them (in
// cmdutil.NewApp, through cmdutil.Execute), so a command's tests sit
// beside it and need no other command.
package cmdtest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/iostreams"
)

// New builds a command with a factory.
type New func(*cmdutil.Factory) *cli.Command

// Cmd is the command newCmd makes, running for real (no runF).
func Cmd[O any](newCmd func(*cmdutil.Factory, func(*O) error) *cli.Command) New {
	return func(f *cmdutil.Factory) *cli.Command { return newCmd(f, nil) }
}

// App is an application of cmds, built with f, as askuser's commands run.
func App(f *cmdutil.Factory, cmds ...New) *cli.App {
	var built []*cli.Command
	for _, c := range cmds {
		built = append(built, c(f))
	}
	return cmdutil.NewApp(f, built...)
}

// Run runs args (args[0] is "askuser") with the commands cmds, on the
// given streams and the process's environment, as askuser's main does,
// and returns the exit code: an error is printed on stderr as askuser
// prints it.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, cmds ...New) int {
	f := cmdutil.NewFactory(iostreams.New(stdin, stdout, stderr), os.Getenv)
	defer f.Close()
	return cmdutil.Execute(ctx, f, func(f *cmdutil.Factory) *cli.App { return App(f, cmds...) }, args)
}

// RunIn runs askuser's commands cmds with args (after "askuser") in an
// environment of vars alone, with no input, and returns the exit code and
// what it printed; the error's message is appended to stderr as it is,
// without askuser's "askuser: " in front.
func RunIn(t testing.TB, vars map[string]string, args []string, cmds ...New) (code int, stdout, stderr string) {
	t.Helper()
	ios, out, errOut := iostreams.Test("")
	f := cmdutil.NewFactory(ios, func(k string) string { return vars[k] })
	defer f.Close()
	app := App(f, cmds...)
	err := app.RunContext(context.Background(), cmdutil.Interspersed(app, append([]string{"askuser"}, args...)))
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return cmdutil.ExitCode(err), out.String(), errOut.String()
}

// WriteFile writes text to a file name in a folder of the test's own, and
// returns its path.
func WriteFile(t testing.TB, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// RulesFile is an answers file with approval rules (allow git status,
// deny rm), unanswered: error, and one answer (Database: PostgreSQL), for
// the tests of askuser hook and askuser mcp. Its rules come before its
// answers: line numbers in those tests count on it.
const RulesFile = `# rules before answers: line numbers below must stay right
approvals:
  allow: ["Bash(git status:*)"]
  deny:
    - "Bash(rm:*)"
unanswered: error
answers:
  Database: PostgreSQL
`
