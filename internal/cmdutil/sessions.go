package cmdutil

import (
	"fmt"
	"os"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// Sessions are chosen without an id by the directory they were started
// in, on this machine: a person resumes the agent of the project they
// stand in, never another project's, nor another machine's in a directory
// of the same name (a team store holds every machine's), by accident.
// Every failure to choose is a usage error, as an unknown id is.

// IsHere reports whether session s was started in directory here of this
// machine (one that recorded no machine is this one's).
func IsHere(s session.Summary, here, machine string) bool {
	return (s.Machine == "" || s.Machine == machine) && session.SameDir(s.Cwd, here)
}

// ListHere lists the store's sessions with the current directory.
func ListHere(store *session.Store) (string, []session.Summary, error) {
	here, err := os.Getwd()
	if err != nil {
		return "", nil, fmt.Errorf("find the current directory: %w", err)
	}
	list, err := store.List()
	return here, list, err
}

// AskedFor is what a waiting set asks, for a listing: its questions'
// headers, or for an approval the tool waiting to run ("approval of
// mcp__fs__write_file"), which its header, Approve, does not say.
func AskedFor(w session.Waiting) []string {
	if w.Kind == ask.KindApproval && w.Tool != "" {
		return []string{"approval of " + w.Tool}
	}
	return w.Headers
}
