package inbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

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

// showSession is a session's page: its summary, a card for every set it
// waits on and for those answered here, the Progress box of what
// askuser resume did with them, its result and its transcript.
func (in *Inbox) showSession(w http.ResponseWriter, r *http.Request) {
	sess, err := in.store.Load(r.PathValue("id"))
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	sum := sess.Summary()
	id := sess.Meta.ID
	d := sessionData{ID: id, Prompt: strings.TrimSpace(ask.DisplayBlock(sum.FirstPrompt)), Where: ask.Display(sum.Cwd),
		Status: sum.StatusWords(), StatusClass: statusClass(sum.Status), Model: ask.Display(sess.Meta.Model),
		Created: sess.Meta.Created, Updated: sess.Updated, Transcript: transcript(sess.State.Messages)}
	if sum.CancelReason != "" {
		d.Status += ": " + ask.Display(sum.CancelReason)
	}
	what := session.WaitingWhat(sum.Questions, session.QuestionSets)
	run := in.runs.state(id)
	failed := in.pendingCards(&d, sum.Questions, run)
	if run != nil {
		d.Run = &runView{Lines: readableLog(tail(run.log, maxLogBytes))}
		if run.running {
			d.Status, d.StatusClass = "resuming", "resuming"
		}
		d.Run.Status = progressStatus(run, sum.Status, what, d.Open, failed)
	}
	if sum.Status == session.StatusFinished {
		d.Result = lastText(sess.State.Messages)
	}
	writePage(w, r, pageData{Title: "askuser: session " + id, Heading: "Session", Fragment: "/s/" + id + "/fragment"}, "session", d)
}

// pendingCards adds the cards of the sets the session waits on, then of
// those answered on this page since, the last answer of each once. failed
// reports a set answered here that is pending still: the resume that
// carried its answer ended without the session taking it.
func (in *Inbox) pendingCards(d *sessionData, sets []session.Waiting, run *sessionRun) (failed bool) {
	busy := (run == nil || !run.running) && in.store.InUse(d.ID)
	shown := map[string]bool{}
	for _, w := range sets {
		key := setKey(w.ID)
		shown[key] = true
		sent, wasSent := in.sentCard(d.ID, run, key)
		if wasSent && sent.State == stateSent {
			d.Cards = append(d.Cards, sent)
			continue
		}
		v := in.openCard(d.ID, w.Request, w.AskedAt)
		if busy {
			// Its own process asks it now: answered here, the answer
			// could not reach the session.
			v.State, v.Note = stateBusy, "Asked right now by the askuser process that runs this session: answer it there, or here once it stops waiting."
		} else {
			d.Open++
		}
		if wasSent {
			failed = true
			v.Flash = "Your answer from " + sent.ClosedAt.Local().Format("15:04") + " did not reach the session: " +
				run.ended + ". Answer again; Progress below says what happened."
		}
		d.Cards = append(d.Cards, v)
	}
	if run == nil {
		return failed
	}
	for i := len(run.sent) - 1; i >= 0; i-- {
		if key := setKey(run.sent[i].req.ID); !shown[key] {
			shown[key] = true
			v, _ := in.sentCard(d.ID, run, key)
			d.Cards = append(d.Cards, v)
		}
	}
	return failed
}

// showInput answers a card's "open the whole text": the detail of a set
// the session waits on, or of one answered on this page.
func (in *Inbox) showInput(w http.ResponseWriter, r *http.Request) {
	sess, err := in.store.Load(r.PathValue("id"))
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
	if run := in.runs.state(sess.Meta.ID); run != nil {
		for _, s := range run.sent {
			if setKey(s.req.ID) == key {
				serveDetail(w, s.req)
				return
			}
		}
	}
	refuse(w, http.StatusNotFound, "session "+sess.Meta.ID+" has no question set at that address; reload its page")
}
