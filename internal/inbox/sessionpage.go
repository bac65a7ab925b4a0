package inbox

import (
	"net/http"
	"strings"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// showSession is a session's page: its summary, a card for every set it
// waits on and for those answered here, the Progress box of what
// askuser resume did with them, its result and its transcript.
func (in *Inbox) showSession(w http.ResponseWriter, r *http.Request) {
	sess, err := in.loadSession(r)
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	sum := sess.Summary()
	id := string(sess.Meta.ID)
	d := page.SessionData{ID: id, Prompt: strings.TrimSpace(ask.DisplayBlock(sum.FirstPrompt)), Where: ask.Display(sum.Cwd), Machine: ask.Display(sum.Machine),
		Status: sum.StatusWords(), StatusClass: statusClass(sum.Status), Model: ask.Display(sess.Meta.Model),
		Created: sess.Meta.Created, Updated: sess.Updated, Transcript: transcript(sess.State.Messages)}
	if sum.CancelReason != "" {
		d.Status += ": " + ask.Display(sum.CancelReason)
	}
	what := session.WaitingWhat(sum.Questions, session.QuestionSets)
	run := in.runs.state(id)
	where := in.elsewhere(sum)
	failed := in.pendingCards(&d, sum.Questions, run, where)
	if where != "" && d.Open == 0 && sum.Status == session.StatusWaiting && len(sum.Questions) > 0 {
		d.Status, d.StatusClass = "answered — resumes "+where, "answered"
	}
	if run != nil {
		d.Run = &page.RunView{Lines: pageLines(readableLog(tail(run.log, maxLogBytes)))}
		if run.running {
			d.Status, d.StatusClass = "resuming", "resuming"
		}
		d.Run.Status = progressStatus(id, run, sum.Status, what, d.Open, failed)
	}
	if sum.Status == session.StatusFinished {
		d.Result = lastText(sess.State.Messages)
	}
	writePage(w, r, page.PageData{Title: "askuser: session " + id, Heading: "Session", Fragment: "/s/" + id + "/fragment"}, "session", d)
}

// pendingCards adds the cards of the sets the session waits on, then of
// those answered on this page since, the last answer of each once. A set
// whose answer waits in its mailbox (given here, or in a chat channel)
// shows it. failed reports an answer given here that the session has not
// taken though the resume that was to take it ended.
func (in *Inbox) pendingCards(d *page.SessionData, sets []session.Waiting, run *sessionRun, where string) (failed bool) {
	busy := (run == nil || !run.running) && in.store.InUse(d.ID)
	shown := map[string]bool{}
	for _, w := range sets {
		key := setKey(w.ID)
		shown[key] = true
		if v, ok := in.sentCard(d.ID, run, key, true, where); ok {
			failed = failed || !run.running && run.ended != ""
			d.Cards = append(d.Cards, v) // answered here, not taken yet
			continue
		}
		if v, ok := in.mailedCard(d.ID, run, w, where); ok {
			d.Cards = append(d.Cards, v) // answered elsewhere, not taken yet
			continue
		}
		v := in.openCard(d.ID, w.Request, w.AskedAt)
		if busy && !in.answers.Live(d.ID, w) {
			// Its own process asks it now, and does not wait on the
			// mailbox: answered here, the answer could not reach it.
			v.State, v.Note = page.StateBusy, "Asked right now by the askuser process that runs this session: answer it there, or here once it stops waiting."
		} else {
			d.Open++
		}
		d.Cards = append(d.Cards, v)
	}
	if run == nil {
		return failed
	}
	for i := len(run.sent) - 1; i >= 0; i-- {
		if key := setKey(run.sent[i].req.ID); !shown[key] {
			shown[key] = true
			v, _ := in.sentCard(d.ID, run, key, false, "")
			d.Cards = append(d.Cards, v)
		}
	}
	return failed
}

// showInput answers a card's "open the whole text": the detail of a set
// the session waits on, or of one answered on this page.
func (in *Inbox) showInput(w http.ResponseWriter, r *http.Request) {
	sess, err := in.loadSession(r)
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	key := r.PathValue("key")
	for _, wt := range sess.Waiting() {
		if setKey(wt.ID) == key {
			serveDetail(w, wt.Request)
			return
		}
	}
	if run := in.runs.state(string(sess.Meta.ID)); run != nil {
		for _, s := range run.sent {
			if setKey(s.req.ID) == key {
				serveDetail(w, s.req)
				return
			}
		}
	}
	refuse(w, http.StatusNotFound, "session "+string(sess.Meta.ID)+" has no question set at that address; reload its page")
}
