package cmdutil

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
)

// Exit codes: one table for every command, printed by --help and README.
const (
	ExitOK        = 0
	ExitError     = 1
	ExitUsage     = 2
	ExitInvalid   = 3
	ExitNoAnswer  = 4
	ExitMaxTurns  = 5
	ExitWaiting   = 6
	ExitTimeout   = 7
	ExitAgent     = 8
	ExitCancelled = 130
)

// Exit is one row of the exit-code table: the code, its name and what it
// means.
type Exit struct {
	Code       int
	Name, Text string
}

var exitTable = []Exit{
	{ExitOK, "ok", "answered; the run finished"},
	{ExitError, "error", "unexpected failure: I/O, a provider failing after retries, a corrupt session"},
	{ExitUsage, "usage", "bad flags or arguments"},
	{ExitInvalid, "invalid", "invalid question input or answers file"},
	{ExitNoAnswer, "no-answer", "no way to get an answer: stdin ended, the answers file lacks the question, no terminal"},
	{ExitMaxTurns, "max-turns", "the run stopped at --max-turns"},
	{ExitWaiting, "waiting", "the run stopped to wait: a question or an approval is pending; answer it with askuser resume"},
	{ExitTimeout, "timeout", "nobody answered within --timeout / --ask-timeout"},
	{ExitAgent, "agent", "the agent askuser runs (--agent) failed, or could not be continued; its own exit code and why are on stderr"},
	{ExitCancelled, "cancelled", "interrupted (Ctrl+C) or cancelled at the prompt"},
}

// ExitTable is the exit-code table, in order, as help prints it.
func ExitTable() []Exit { return slices.Clone(exitTable) }

// commandExits are the exit codes each command can return, by name (""
// is askuser with no command, or an unknown one; a subcommand returns its
// parent's), derived from their code paths. Each help page lists its
// command's, and TestScripts checks both ways: every code a script sees a
// command return is listed, and every listed code is seen.
//   - Every command exits 1 on a failure to write its output, and 2 on a
//     bad flag.
//   - hook never exits 1 (Claude Code would run the tool): its failures
//     block, with 2. help, too, has no failure of its own.
//   - ask has no session to wait in (no 6) and no model (no 5).
//   - mcp and serve run until their input ends or a signal, then exit 0.
//   - Only run and resume run another program's agent (run --agent, and
//     resume of its session): demo never exits 8.
var commandExits = map[string][]int{
	"":           {ExitOK, ExitUsage},
	"ask":        {ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitTimeout, ExitCancelled},
	"run":        agentExits,
	"resume":     agentExits,
	"demo":       runExits,
	"sessions":   {ExitOK, ExitError, ExitUsage},
	"cancel":     {ExitOK, ExitError, ExitUsage},
	"serve":      {ExitOK, ExitError, ExitUsage},
	"channels":   {ExitOK, ExitError, ExitUsage},
	"schema":     {ExitOK, ExitError, ExitUsage},
	"mcp":        {ExitOK, ExitError, ExitUsage},
	"hook":       {ExitOK, ExitUsage},
	"completion": {ExitOK, ExitError, ExitUsage},
	"help":       {ExitOK, ExitUsage},
}

// runExits are a run of askuser's own agent: every code of the table but
// the one for another program's agent.
var runExits = []int{ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitMaxTurns, ExitWaiting, ExitTimeout, ExitCancelled}

// agentExits are run's and resume's: a run's, and an agent's failure.
var agentExits = []int{ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitMaxTurns, ExitWaiting, ExitTimeout, ExitAgent, ExitCancelled}

// ExitsOf lists the exit codes command ("askuser" and its name: "sessions
// rm" is its parent's) can return.
func ExitsOf(command string) []int {
	name, _, _ := strings.Cut(command, " ")
	return commandExits[name]
}

// CommandExitCodes returns, for each visible command by name ("" for
// askuser itself), the exit codes its help lists; for help's test and the
// end-to-end tests.
func CommandExitCodes() map[string][]int {
	return maps.Clone(commandExits)
}

// DescribeExit words an exit code from the table, for askuser serve's
// page and log. A resume that stopped to wait is said as such: the
// table's "answer it with askuser resume" is not for a person whose page
// takes the answer.
func DescribeExit(code int) string {
	for _, x := range exitTable {
		if x.Code == code {
			text := x.Text
			if code == ExitWaiting {
				text = "the session stopped to wait for an answer"
			}
			return fmt.Sprintf("exit %d, %s: %s", code, x.Name, text)
		}
	}
	return fmt.Sprintf("exit %d", code)
}

// exitError carries an explicit exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// WithCode attaches an exit code to err.
func WithCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// UsageErrorf is a usage error (exit 2).
func UsageErrorf(format string, args ...any) error {
	return WithCode(ExitUsage, fmt.Errorf(format, args...))
}

// Quiet is an error whose message was already shown to the person (a run's
// printer described it, a hook printed it), so Execute does not print it
// again.
type Quiet struct{ Err error }

func (q Quiet) Error() string { return q.Err.Error() }
func (q Quiet) Unwrap() error { return q.Err }

// ExitCode maps an error to the table; it is the only place that does.
func ExitCode(err error) int {
	var ee *exitError
	var ve *ask.ValidationError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, ask.ErrCancelled):
		return ExitCancelled
	case errors.Is(err, ask.ErrTimeout):
		return ExitTimeout
	case errors.Is(err, ask.ErrDeferred):
		return ExitWaiting
	case errors.Is(err, ask.ErrNoAnswer):
		return ExitNoAnswer
	case errors.As(err, &ve), errors.Is(err, frontend.ErrBadAnswers):
		return ExitInvalid
	}
	return ExitError
}
