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
	ID, Href, Prompt, Where string
	Status, StatusClass     string
	// Who says who waits: the agent, sub-agents.
	Who string
	// Since is when it started waiting (waiting sessions) or was last
	// updated (the others).
	Since    time.Time
	Age      string
	Sets     int
	Headers  []string
	Resuming bool
	// Busy: another process holds the session (it runs, or asks there).
	Busy bool
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
	for _, w := range sets {
		row.Sets++
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
	ID, Prompt, Where, Status, StatusClass, Model string
	Created, Updated                              time.Time
	Cards                                         []cardView
	Open                                          int
	Run                                           *runView
	Result                                        string
	Transcript                                    []entryView
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
	d := sessionData{ID: id, Prompt: strings.TrimSpace(ask.DisplayBlock(sum.FirstPrompt)), Where: ask.Display(sum.Cwd),
		Status: sum.Status, StatusClass: statusClass(sum.Status), Model: ask.Display(sess.Meta.Model),
		Created: sess.Meta.Created, Updated: sess.Updated, Transcript: transcript(sess.State.Messages)}
	if sum.CancelReason != "" {
		d.Status += ": " + ask.Display(sum.CancelReason)
	}
	run := in.runs.state(id)
	busy := (run == nil || !run.running) && in.store.InUse(id)
	pending := map[string]bool{}
	for _, w := range sum.Questions { // sess.Waiting(), computed by Summary
		key := setKey(w.ID)
		pending[key] = true
		if v, ok := in.sentCard(id, run, key, true); ok {
			d.Cards = append(d.Cards, v) // answered here, not taken yet
			continue
		}
		if v, ok := in.mailedCard(id, run, w); ok {
			d.Cards = append(d.Cards, v) // answered elsewhere, not taken yet
			continue
		}
		v := in.openCard(id, w.Request, w.AskedAt)
		if busy && !in.answers.Live(id, w) {
			// Its own process asks it now: answered here, the answer
			// could not reach the session.
			v.State, v.Note = stateBusy, "Asked right now by the askuser process that runs this session: answer it there, or here once it stops waiting."
		} else {
			d.Open++
		}
		d.Cards = append(d.Cards, v)
	}
	if run != nil {
		for i := len(run.sent) - 1; i >= 0; i-- {
			if key := setKey(run.sent[i].req.ID); !pending[key] {
				pending[key] = true // once each, the last answer
				v, _ := in.sentCard(id, run, key, false)
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
	if sum.Status == session.StatusFinished {
		d.Result = lastText(sess.State.Messages)
	}
	writePage(w, r, pageData{Title: "askuser: session " + id, Heading: "Session", Fragment: "/s/" + id + "/fragment"}, "session", d)
}
