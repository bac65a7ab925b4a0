package inbox

import (
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// Bounds of the inbox's pages.
const (
	maxOtherSessions = 100
	maxPromptChars   = 160
)

// sessionRow is one session in the inbox's list.
type sessionRow struct {
	ID, Href, Prompt, Where string
	Status, StatusClass     string
	// Who says who waits: the agent, sub-agents.
	Who string
	// Since is when it started waiting (waiting sessions) or was last
	// updated (the others).
	Since time.Time
	Age   string
	// What says what it waits on: "2 question sets", "an approval of
	// mcp__fs__write_file".
	What     string
	Headers  []string
	Resuming bool
	// Busy: another process holds the session (it runs, or asks there).
	Busy bool
}

type homeData struct {
	Waiting, Others []sessionRow
	// Asked are the sets asked outside a session (askuser ask, mcp,
	// hook) that a process waits on now.
	Asked      []sessionRow
	MoreOthers int
	Dir        string
}

// home lists the waiting sessions, newest first, then the others.
func (in *Inbox) home() (homeData, error) {
	list, err := in.store.List()
	if err != nil {
		return homeData{}, err
	}
	now := time.Now()
	data := homeData{Dir: in.store.Dir, Asked: in.askedRows(now)}
	for _, sum := range list {
		row := sessionRow{ID: sum.ID, Href: "/s/" + sum.ID, Prompt: sum.Title, Where: ask.Display(sum.Cwd),
			Status: sum.Status, StatusClass: statusClass(sum.Status), Since: sum.Updated}
		if run := in.runs.state(sum.ID); run != nil && run.running {
			row.Resuming, row.Status, row.StatusClass = true, "resuming", "resuming"
		} else if sum.InUse {
			row.Busy = true
		}
		if sum.Err != "" {
			row.Prompt = "damaged: " + clipText(ask.Display(sum.Err), maxPromptChars)
		}
		if sum.Status == session.StatusWaiting && len(sum.Questions) > 0 {
			waitingRow(&row, sum.Questions)
			row.Age = ago(now, row.Since)
			data.Waiting = append(data.Waiting, row)
			continue
		}
		row.Age = ago(now, row.Since)
		if len(data.Others) == maxOtherSessions {
			data.MoreOthers++
			continue
		}
		data.Others = append(data.Others, row)
	}
	return data, nil
}

// waitingRow fills in what a waiting session waits on: the sets, their
// headers, who asks, and since when (the set waiting longest).
func waitingRow(row *sessionRow, sets []session.Waiting) {
	var agents []string
	mainAgent := false
	row.Since = time.Time{}
	row.What = session.WaitingWhat(sets, func(n int) string {
		if n == 1 {
			return "1 question set"
		}
		return session.QuestionSets(n)
	})
	for _, w := range sets {
		for _, h := range w.Headers {
			row.Headers = append(row.Headers, ask.Display(h))
		}
		if w.Agent == "" {
			mainAgent = true
		} else if a := ask.Display(w.Agent); !slices.Contains(agents, a) {
			agents = append(agents, a)
		}
		if !w.AskedAt.IsZero() && (row.Since.IsZero() || w.AskedAt.Before(row.Since)) {
			row.Since = w.AskedAt
		}
	}
	var who []string
	if mainAgent {
		who = append(who, "the agent")
	}
	for _, a := range agents {
		who = append(who, "sub-agent "+a)
	}
	row.Who = strings.Join(who, ", ")
}

// short cuts s to n characters, the last an ellipsis.
func short(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// statusClass is a status as a CSS class.
func statusClass(status string) string {
	first, _, _ := strings.Cut(status, " ")
	switch first {
	case "finished", "waiting", "running", "resuming", "error", "damaged", "interrupted", "cancelled":
		return first
	}
	return "other"
}
