package inbox

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// InboxConfig configures askuser serve's inbox.
type InboxConfig struct {
	Store *session.Store
	// Resume returns the command that resumes session id reading JSON-lines
	// answers on its standard input, keeping the sets it gets no answer
	// for pending (askuser resume ID -p --frontend stdio --on-unanswered
	// suspend).
	Resume func(id string) *exec.Cmd
	// DescribeExit words a resume's exit code for the page.
	DescribeExit func(code int) string
	// Poll is how often the state directory is looked at for changes
	// made by other processes; 0 is a second.
	Poll time.Duration
	// Log, when set, receives a line per answer given on the page and per
	// resume started and ended (askuser serve's standard error).
	Log io.Writer
}

// Inbox is askuser serve: a page of every session in the state directory
// that waits on a question or an approval, and of the others, read-only.
// Answering a set hands the answer to askuser resume in the background
// (see resumer); the session's page follows its progress.
type Inbox struct {
	srv   *Server
	store *session.Store
	runs  *resumer
	log   *eventLog
	stop  chan struct{}
	wg    sync.WaitGroup
}

// NewInbox serves the inbox until Close.
func NewInbox(cfg InboxConfig, opts Options) (*Inbox, error) {
	h := newHub()
	srv, err := newServer(opts, h)
	if err != nil {
		return nil, err
	}
	log := newEventLog(cfg.Log)
	in := &Inbox{srv: srv, store: cfg.Store, runs: newResumer(cfg.Resume, cfg.DescribeExit, h, log.say), log: log, stop: make(chan struct{})}
	home := pageData{Title: "askuser: inbox", Heading: "Inbox", Fragment: "/fragment"}
	showHome := func(w http.ResponseWriter, r *http.Request) {
		data, err := in.home()
		if err != nil {
			refuse(w, http.StatusInternalServerError, err.Error())
			return
		}
		writePage(w, r, home, "inbox", data)
	}
	srv.mux.HandleFunc("GET /{$}", showHome)
	srv.mux.HandleFunc("GET /fragment", showHome)
	srv.mux.HandleFunc("GET /s/{id}", in.showSession)
	srv.mux.HandleFunc("GET /s/{id}/fragment", in.showSession)
	srv.mux.HandleFunc("POST /s/{id}/answer/{key}", in.answer)
	srv.mux.HandleFunc("GET /s/{id}/input/{key}", in.showInput)
	poll := cfg.Poll
	if poll <= 0 {
		poll = time.Second
	}
	in.wg.Add(1)
	go in.watch(poll)
	srv.start()
	return in, nil
}

// URL is the address to open, token included.
func (in *Inbox) URL() string { return in.srv.URL() }

// Handler is the inbox's handler, guard included (for tests).
func (in *Inbox) Handler() http.Handler { return in.srv.Handler() }

// Resuming lists the sessions whose resume is still running; they go on
// after the inbox closes, each writing to its serve.log.
func (in *Inbox) Resuming() []string { return in.runs.running() }

// Close stops watching and serving.
func (in *Inbox) Close(ctx context.Context) error {
	close(in.stop)
	in.wg.Wait()
	return in.srv.Close(ctx)
}

// watch tells the pages when the state directory changed: a run started
// waiting, a resume wrote to its log, a session finished.
func (in *Inbox) watch(every time.Duration) {
	defer in.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	last := fingerprint(in.store.Dir)
	for {
		select {
		case <-in.stop:
			return
		case <-t.C:
			if fp := fingerprint(in.store.Dir); fp != last {
				last = fp
				in.srv.hub.bump()
			}
		}
	}
}

// fingerprint sums the names, sizes and times of the journals and the
// inbox's logs: it changes whenever one of them does.
func fingerprint(dir string) uint64 {
	h := fnv.New64a()
	sessions := filepath.Join(dir, "sessions")
	entries, _ := os.ReadDir(sessions)
	for _, e := range entries {
		path := filepath.Join(sessions, e.Name())
		if e.IsDir() {
			path = filepath.Join(path, logName)
		}
		if fi, err := os.Stat(path); err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", path, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return h.Sum64()
}

// answer takes a person's answer to a pending set of a session and hands
// it to askuser resume.
func (in *Inbox) answer(w http.ResponseWriter, r *http.Request) {
	sess, err := in.store.Load(r.PathValue("id"))
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	id, key := sess.Meta.ID, r.PathValue("key")
	back := "/s/" + id
	var set *session.Waiting
	for _, wt := range sess.Waiting() {
		if setKey(wt.ID) == key {
			set = &wt
			break
		}
	}
	run := in.runs.state(id)
	if set == nil {
		if v, ok := in.sentCard(id, run, key); ok {
			submitted(w, r, v, ErrAlreadyAnswered, back)
			return
		}
		refuse(w, http.StatusConflict, "this question set is no longer waiting (it was answered, or the session went on); reload the page")
		return
	}
	if (run == nil || !run.running) && in.store.InUse(id) {
		// The run itself, or a resume at a terminal, holds the journal:
		// ours would fail, so say so now.
		refuse(w, http.StatusConflict, "nothing was sent: session "+id+" is "+session.ErrInUse.Error()+
			" (it is running, or asking for "+kindLabelThis(set.Kind)+" there now); answer it there, or here once it stops waiting")
		return
	}
	// Only the questions still unanswered are asked again (a set answered
	// in parts); set.Request holds those.
	answers, err := answersFromForm(set.Request, r.PostForm, time.Now())
	if err == nil {
		in.log.answered(sess.Summary(), *set, answers)
		err = in.runs.submit(id, filepath.Join(in.store.SideDir(id), logName), set.Request, set.AskedAt, answers)
		if err != nil {
			in.log.say(id, "that answer was not used: "+err.Error())
		}
	}
	v, ok := in.sentCard(id, in.runs.state(id), key)
	if !ok {
		v = in.openCard(id, set.Request, set.AskedAt)
	}
	submitted(w, r, v, err, back)
}

// openCard is a pending set as a card that takes an answer.
func (in *Inbox) openCard(id string, req ask.Request, askedAt time.Time) cardView {
	key := setKey(req.ID)
	return newCardView(req, key, "/s/"+id, in.srv.guard.csrf, askedAt)
}

// sentCard is the last set with key answered on this page for session id,
// as a card that shows the answer and what became of it.
func (in *Inbox) sentCard(id string, run *sessionRun, key string) (cardView, bool) {
	if run == nil {
		return cardView{}, false
	}
	for i := len(run.sent) - 1; i >= 0; i-- {
		s := run.sent[i]
		if setKey(s.req.ID) != key {
			continue
		}
		v := newCardView(s.req, key, "/s/"+id, "", s.askedAt)
		v.Answers, v.ClosedAt = answerViews(s.answers), s.at
		if run.sending[s.req.ID] {
			v.State = stateSent
			v.Note = "Answered on this page at " + s.at.Local().Format("15:04") + "; askuser resume is taking the answer to the session."
		} else {
			v.State = stateAnswered
			v.Note = "Answered on this page at " + s.at.Local().Format("15:04") + "."
		}
		return v, true
	}
	return cardView{}, false
}
