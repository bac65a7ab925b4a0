package inbox

import (
	"net/http"
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
	maxLogBytes      = 16 << 10
)

// sessionRow is one session in the inbox's list.
type sessionRow struct {
	ID, Href, Prompt    string
	Status, StatusClass string
	// Who says who waits: the agent, sub-agents.
	Who string
	// Since is when it started waiting (waiting sessions) or was last
	// updated (the others).
	Since    time.Time
	Age      string
	Sets     int
	Headers  []string
	Resuming bool
}

type homeData struct {
	Waiting, Others []sessionRow
	MoreOthers      int
	Dir             string
}

// home lists the waiting sessions, newest first, then the others.
func (in *Inbox) home() (homeData, error) {
	list, err := in.store.List()
	if err != nil {
		return homeData{}, err
	}
	now := time.Now()
	data := homeData{Dir: in.store.Dir}
	for _, sum := range list {
		row := sessionRow{ID: sum.ID, Href: "/s/" + sum.ID, Prompt: clipText(ask.Display(sum.FirstPrompt), maxPromptChars),
			Status: sum.Status, StatusClass: statusClass(sum.Status), Since: sum.Updated}
		if run := in.runs.state(sum.ID); run != nil && run.running {
			row.Resuming, row.Status, row.StatusClass = true, "resuming", "resuming"
		}
		if sum.Err != "" {
			row.Prompt = "damaged: " + clipText(ask.Display(sum.Err), maxPromptChars)
		}
		if sum.Pending > 0 && sum.Err == "" {
			if sess, err := in.store.Load(sum.ID); err == nil && len(sess.State.PendingQuestions()) > 0 {
				waitingRow(&row, sess)
				row.Age = ago(now, row.Since)
				data.Waiting = append(data.Waiting, row)
				continue
			}
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
// headers, who asks, and since when.
func waitingRow(row *sessionRow, sess *session.Session) {
	var agents []string
	mainAgent := false
	row.Since = time.Time{}
	for _, req := range sess.State.PendingQuestions() {
		row.Sets++
		for _, q := range req.Questions {
			row.Headers = append(row.Headers, ask.Display(q.Header))
		}
		if req.Agent == "" {
			mainAgent = true
		} else if a := ask.Display(req.Agent); !slices.Contains(agents, a) {
			agents = append(agents, a)
		}
		if at, ok := sess.State.AskedAt[req.ID]; ok && (row.Since.IsZero() || at.Before(row.Since)) {
			row.Since = at
		}
	}
	if row.Since.IsZero() {
		row.Since = sess.Updated
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

// statusClass is a status as a CSS class.
func statusClass(status string) string {
	first, _, _ := strings.Cut(status, " ")
	switch first {
	case "finished", "waiting", "running", "resuming", "error", "damaged", "interrupted", "cancelled":
		return first
	}
	return "other"
}

// sessionData is a session's page.
type sessionData struct {
	ID, Prompt, Status, StatusClass, Model string
	Created, Updated                       time.Time
	Cards                                  []cardView
	Open                                   int
	Run                                    *runView
	Result                                 string
	Transcript                             []entryView
}

type runView struct {
	Status string
	Log    string
}

func (in *Inbox) showSession(w http.ResponseWriter, r *http.Request) {
	sess, err := in.store.Load(r.PathValue("id"))
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	sum := sess.Summary()
	id := sess.Meta.ID
	d := sessionData{ID: id, Prompt: ask.DisplayBlock(sum.FirstPrompt), Status: sum.Status, StatusClass: statusClass(sum.Status),
		Model: ask.Display(sess.Meta.Model), Created: sess.Meta.Created, Updated: sess.Updated,
		Transcript: transcript(sess.State.Messages)}
	run := in.runs.state(id)
	pending := map[string]bool{}
	for _, req := range sess.State.PendingQuestions() {
		key := setKey(req.ID)
		pending[key] = true
		if v, ok := in.sentCard(id, run, key); ok && v.State == stateSent {
			d.Cards = append(d.Cards, v)
			continue
		}
		d.Cards = append(d.Cards, in.openCard(id, req, sess.State.AskedAt[req.ID]))
		d.Open++
	}
	if run != nil {
		for i := len(run.sent) - 1; i >= 0; i-- {
			if key := setKey(run.sent[i].req.ID); !pending[key] {
				pending[key] = true // once each, the last answer
				v, _ := in.sentCard(id, run, key)
				d.Cards = append(d.Cards, v)
			}
		}
		d.Run = &runView{Log: ask.DisplayBlock(tail(run.log, maxLogBytes))}
		switch {
		case run.running:
			d.Status, d.StatusClass = "resuming", "resuming"
			d.Run.Status = "askuser resume is running since " + run.started.Local().Format("15:04:05") + "."
		case run.ended != "":
			d.Run.Status = "askuser resume ended: " + run.ended + "."
		}
	}
	if sum.Status == "finished" {
		d.Result = lastText(sess.State.Messages)
	}
	writePage(w, r, pageData{Title: "askuser: session " + id, Heading: "Session", Fragment: "/s/" + id + "/fragment"}, "session", d)
}
