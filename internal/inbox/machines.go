package inbox

import (
	"errors"
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// Where a late answer runs. With a team store, askuser serve lists and
// answers the sessions of every machine, but resumes one in the
// background only where it can run: on the machine it ran on, in a
// directory that exists here. Its working tree and its MCP servers' state
// are there, not in the store. Otherwise the answer waits in the
// session's mailbox, and askuser resume on that machine (or the next CI
// job there) takes it.

// ErrElsewhere is wrapped by Resume's error for a session that resumes on
// another machine, or in a directory this one lacks.
var ErrElsewhere = errors.New("it resumes elsewhere")

// elsewhere says where session sum resumes when serve may not resume it
// here ("on build-7 in /src/app"), or "" when it may.
func (in *Inbox) elsewhere(sum session.Summary) string {
	if sum.Machine != "" && sum.Machine != in.machine {
		return resumesOn(sum)
	}
	if sum.Cwd == "" {
		return "" // an older session, which recorded no directory: here
	}
	if fi, err := os.Stat(sum.Cwd); err != nil || !fi.IsDir() {
		return resumesOn(sum)
	}
	return ""
}

// resumesOn words where a session runs, for a person.
func resumesOn(sum session.Summary) string {
	machine := sum.Machine
	if machine == "" {
		machine = "the machine it ran on"
	}
	where := "on " + ask.Display(machine)
	if sum.Cwd != "" {
		where += " in " + ask.Display(sum.Cwd)
	}
	return where
}

// elsewhereError is Resume's refusal of a session that resumes elsewhere:
// a relay.ElsewhereError too, so a chat says where it continues.
func elsewhereError(id, where string) error {
	return fmt.Errorf("%w: %w", ErrElsewhere, &relay.ElsewhereError{Session: id, Where: where})
}
