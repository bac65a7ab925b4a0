package cli

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/askuser/askuser/agentloop"
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
	ExitCancelled = 130
)

var exitTable = []struct {
	code       int
	name, text string
}{
	{ExitOK, "ok", "answered; the run finished"},
	{ExitError, "error", "unexpected failure: I/O, a provider failing after retries, a corrupt session"},
	{ExitUsage, "usage", "bad flags or arguments"},
	{ExitInvalid, "invalid", "invalid question input or answers file"},
	{ExitNoAnswer, "no-answer", "no way to get an answer: stdin ended, the answers file lacks the question, no terminal"},
	{ExitMaxTurns, "max-turns", "the run stopped at --max-turns"},
	{ExitWaiting, "waiting", "the run stopped to wait: a question or an approval is pending; answer it with askuser resume"},
	{ExitTimeout, "timeout", "nobody answered within --timeout / --ask-timeout"},
	{ExitCancelled, "cancelled", "interrupted (Ctrl+C) or cancelled at the prompt"},
}

// runEnds is how each way a run can end is reported: the subtype of its
// result (Claude Code's names where it has one) and its exit code. It is
// the one mapping from a run's status to an exit code.
var runEnds = map[agentloop.Status]struct {
	subtype string
	code    int
}{
	agentloop.StatusSuccess:   {"success", ExitOK},
	agentloop.StatusWaiting:   {"waiting_on_question", ExitWaiting},
	agentloop.StatusMaxTurns:  {"error_max_turns", ExitMaxTurns},
	agentloop.StatusTimeout:   {"error_ask_timeout", ExitTimeout},
	agentloop.StatusCancelled: {"error_cancelled", ExitCancelled},
	agentloop.StatusError:     {"error_during_execution", ExitError},
}

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
var commandExits = map[string][]int{
	"":           {ExitOK, ExitUsage},
	"ask":        {ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitTimeout, ExitCancelled},
	"run":        runExits,
	"resume":     runExits,
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

// runExits are a run's: every code of the table.
var runExits = []int{ExitOK, ExitError, ExitUsage, ExitInvalid, ExitNoAnswer, ExitMaxTurns, ExitWaiting, ExitTimeout, ExitCancelled}

// exitsOf lists the exit codes command ("askuser" and its name: "sessions
// rm" is its parent's) can return.
func exitsOf(command string) []int {
	name, _, _ := strings.Cut(command, " ")
	return commandExits[name]
}

// CommandExitCodes returns, for each visible command by name ("" for
// askuser itself), the exit codes its help lists; for the end-to-end
// tests.
func CommandExitCodes() map[string][]int {
	return maps.Clone(commandExits)
}

// exitError carries an explicit exit code.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode attaches an exit code to err.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// usageErrorf is a usage error (exit 2).
func usageErrorf(format string, args ...any) error {
	return withCode(ExitUsage, fmt.Errorf(format, args...))
}

// exitCode maps an error to the table; it is the only place that does.
func exitCode(err error) int {
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
