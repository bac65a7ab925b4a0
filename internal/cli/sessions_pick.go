package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// Sessions are chosen without an id by the directory they were started
// in, on this machine: a person resumes the agent of the project they
// stand in, never another project's, nor another machine's in a directory
// of the same name (a team store holds every machine's), by accident.
// Every failure to choose is a usage error, as an unknown id is.

// isHere reports whether session s was started in directory here of this
// machine (one that recorded no machine is this one's).
func isHere(s session.Summary, here, machine string) bool {
	return (s.Machine == "" || s.Machine == machine) && session.SameDir(s.Cwd, here)
}

// pickWaiting returns the most recent session waiting on an answer (to a
// question or an approval) in the current directory that no process holds, and a line saying which it
// took and what waits.
func pickWaiting(store *session.Store, machine string) (id, said string, err error) {
	here, list, err := listHere(store)
	if err != nil {
		return "", "", err
	}
	var found *session.Summary
	busy, elsewhere, more := 0, 0, 0
	where := "in other directories"
	for i, s := range list {
		switch {
		case s.Status != session.StatusWaiting:
		case !isHere(s, here, machine):
			elsewhere++
			if s.Machine != "" && s.Machine != machine {
				where = "in other directories or on other machines"
			}
		case s.InUse:
			busy++
		case found == nil:
			found = &list[i]
		default:
			more++
		}
	}
	if found == nil {
		why := fmt.Sprintf("no session waits on a question or an approval in %s", here)
		if busy > 0 {
			why = fmt.Sprintf("the %d session%s waiting in %s %s in use by another askuser process (asking there now)", busy, plural(busy), here, map[bool]string{true: "is", false: "are"}[busy == 1])
		}
		if elsewhere > 0 {
			why += fmt.Sprintf("; %d wait%s %s: askuser sessions --waiting lists them, askuser resume ID answers one", elsewhere, pluralVerb(elsewhere), where)
		} else {
			why += "; askuser sessions lists every session"
		}
		return "", "", usageErrorf("%s", why)
	}
	said = fmt.Sprintf("askuser: resuming session %s, the most recent waiting here (%s, on %s): %s", found.ID,
		ago(time.Since(found.Updated)), waitingOn(*found), ask.Display(found.Title))
	if more > 0 {
		said += fmt.Sprintf("\naskuser: %d more wait%s here; askuser sessions --waiting --dir . lists them", more, pluralVerb(more))
	}
	return found.ID, said, nil
}

// pickLatestHere returns the most recently updated session of the current
// directory (damaged ones aside), and a line saying which it took.
func pickLatestHere(store *session.Store, machine string) (id, said string, err error) {
	here, list, err := listHere(store)
	if err != nil {
		return "", "", err
	}
	for _, s := range list {
		if s.Err == "" && isHere(s, here, machine) {
			return s.ID, fmt.Sprintf("askuser: continuing session %s, the most recent here (%s, %s): %s",
				s.ID, s.StatusWords(), ago(time.Since(s.Updated)), ask.Display(s.Title)), nil
		}
	}
	why := fmt.Sprintf("--continue: no session was started in %s yet", here)
	if len(list) > 0 {
		why += "; askuser sessions lists those of other directories (and older ones, which recorded none), and askuser run --resume ID continues one"
	}
	return "", "", usageErrorf("%s", why)
}

// listHere lists the store's sessions with the current directory.
func listHere(store *session.Store) (string, []session.Summary, error) {
	here, err := os.Getwd()
	if err != nil {
		return "", nil, fmt.Errorf("find the current directory: %w", err)
	}
	list, err := store.List()
	return here, list, err
}

// waitingOn names what a session waits on: the headers of its questions,
// and the tools waiting for approval.
func waitingOn(s session.Summary) string {
	var headers []string
	for _, w := range s.Questions {
		headers = append(headers, askedFor(w)...)
	}
	if len(headers) == 0 {
		return "a tool call"
	}
	return clip(ask.Display(strings.Join(headers, ", ")), 60)
}

func pluralVerb(n int) string {
	if n == 1 {
		return "s"
	}
	return ""
}
