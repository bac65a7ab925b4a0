package inbox

import (
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// Bounds of the inbox's pages.
const (
	maxOtherSessions = 100
	maxPromptChars   = 160
)

// home lists the waiting sessions the filter matches, a page of them,
// newest first, then the others.
func (in *Inbox) home(f listFilter) (page.HomeData, error) {
	list, err := in.store.List()
	if err != nil {
		return page.HomeData{}, err
	}
	now := time.Now()
	data := page.HomeData{Dir: in.store.Dir, Filter: f.view(), Filtered: f.active(), Ages: ages, Asked: rows(in.askedRows(now))}
	if in.store.Backend != nil {
		data.Store = in.store.Backend.Where("")
	}
	var waiting []sessionRow
	for _, sum := range list {
		row := sessionRow{SessionRow: page.SessionRow{ID: sum.ID, Href: "/s/" + sum.ID, Prompt: sum.Title, Where: ask.Display(sum.Cwd), Machine: ask.Display(sum.Machine),
			Status: sum.Status, StatusClass: statusClass(sum.Status), Since: sum.Updated}, sum: sum}
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
			row.Age = page.Ago(now, row.Since)
			waiting = append(waiting, row)
			continue
		}
		row.Age = page.Ago(now, row.Since)
		if !f.match(sum, row.Since, now) || f.Page > 1 {
			continue
		}
		if len(data.Others) == min(maxOtherSessions, f.PerPage) {
			data.MoreOthers++
			continue
		}
		data.Others = append(data.Others, row.SessionRow)
	}
	data.WaitingTotal = len(waiting)
	data.Machines = countMachines(waiting, f)
	waiting = slices.DeleteFunc(waiting, func(r sessionRow) bool { return !f.match(r.sum, r.Since, now) })
	waiting, data.Pager = paginate(waiting, f)
	for i := range waiting {
		in.answeredElsewhere(&waiting[i])
	}
	data.Waiting = rows(waiting)
	return data, nil
}

// sessionRow is a session's row of the list (page.SessionRow) with the
// summary it was made from, which the filter and answeredElsewhere read.
type sessionRow struct {
	page.SessionRow
	sum session.Summary
}

// rows are rs as the page shows them.
func rows(rs []sessionRow) []page.SessionRow {
	out := make([]page.SessionRow, len(rs))
	for i, r := range rs {
		out[i] = r.SessionRow
	}
	return out
}

// answeredElsewhere marks a waiting session whose every set has its
// answer in the mailbox, and that resumes on another machine: it is not
// waiting for a person any more, but for that machine.
func (in *Inbox) answeredElsewhere(row *sessionRow) {
	where := in.elsewhere(row.sum)
	if where == "" || row.Busy || row.Resuming {
		return
	}
	for _, w := range row.sum.Questions {
		if _, ok := in.answers.Get(row.ID, w); !ok {
			return
		}
	}
	row.Resumes = where
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
