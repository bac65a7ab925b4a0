package resume

import (
	"fmt"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/session"
)

// pickWaiting returns the most recent session waiting on an answer (to a
// question or an approval) in the current directory that no process holds,
// and a line saying which it took and what waits. (Sessions are chosen by
// the directory they were started in, on this machine: cmdutil.IsHere.)
func pickWaiting(store *session.Store, machine string) (id, said string, err error) {
	here, list, err := cmdutil.ListHere(store)
	if err != nil {
		return "", "", err
	}
	var found *session.Summary
	busy, elsewhere, more := 0, 0, 0
	where := "in other directories"
	for i, s := range list {
		switch {
		case s.Status != session.StatusWaiting:
		case !cmdutil.IsHere(s, here, machine):
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
			why = fmt.Sprintf("the %d session%s waiting in %s %s in use by another askuser process (asking there now)", busy, cmdutil.Plural(busy), here, map[bool]string{true: "is", false: "are"}[busy == 1])
		}
		if elsewhere > 0 {
			why += fmt.Sprintf("; %d wait%s %s: askuser sessions --waiting lists them, askuser resume ID answers one", elsewhere, cmdutil.PluralVerb(elsewhere), where)
		} else {
			why += "; askuser sessions lists every session"
		}
		return "", "", cmdutil.UsageErrorf("%s", why)
	}
	said = fmt.Sprintf("askuser: resuming session %s, the most recent waiting here (%s, on %s): %s", found.ID,
		cmdutil.Ago(time.Since(found.Updated)), waitingOn(*found), ask.Display(found.Title))
	if more > 0 {
		said += fmt.Sprintf("\naskuser: %d more wait%s here; askuser sessions --waiting --dir . lists them", more, cmdutil.PluralVerb(more))
	}
	return found.ID, said, nil
}

// waitingOn names what a session waits on: the headers of its questions,
// and the tools waiting for approval.
func waitingOn(s session.Summary) string {
	var headers []string
	for _, w := range s.Questions {
		headers = append(headers, cmdutil.AskedFor(w)...)
	}
	if len(headers) == 0 {
		return "a tool call"
	}
	return cmdutil.Clip(ask.Display(strings.Join(headers, ", ")), 60)
}
