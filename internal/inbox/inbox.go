package inbox

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// InboxConfig configures askuser serve's inbox.
type InboxConfig struct {
	Store *session.Store
	// Answers is where answers given on the page go: the answer mailbox.
	Answers Answers
	// Resume returns the command that resumes session id in the
	// background, taking the answers waiting in its mailbox; args say
	// how it asks the rest (askuser resume ID -p --frontend inbox
	// --relay-defer).
	Resume func(id session.ID, args ...string) *exec.Cmd
	// DescribeExit words a resume's exit code for the page.
	DescribeExit func(code int) string
	// Poll is how often the state directory is looked at for changes
	// made by other processes; 0 is a second.
	Poll time.Duration
	// Log, when set, receives a line per answer given on the page and per
	// resume started and ended (askuser serve's standard error).
	Log io.Writer
	// RetryBase is the wait before the second resume for an answer given
	// on the page, when the first did not take it; the third waits four
	// times as long (retry.go). 0 is 10 s.
	RetryBase time.Duration
	// Machine names this machine (session.Meta.Machine): a session that
	// ran on another is answered here, and resumed there (machines.go).
	Machine string
}

// Answers is how the inbox hands a person's answers on: through the
// answer mailbox of each set (askuser serve wires it to the relay's).
type Answers interface {
	// Post gives set w of session id its answer; a set answered already
	// gets an error wrapping session.ErrAlreadyAnswered.
	Post(id string, w session.Waiting, d session.Delivery) error
	// Get returns the answer waiting for set w, given but not taken yet.
	Get(id string, w session.Waiting) (session.Delivery, bool)
	// Live reports whether a run of session id waits on set w through
	// the inbox now (askuser run --frontend inbox): the page answers it
	// though the session is in use, and the run takes the answer.
	Live(id string, w session.Waiting) bool
}

// ByPage names who answers on the page, for the mailbox.
const ByPage = "a person on the inbox page"

// Inbox is askuser serve: a page of every session in the state directory
// that waits on a question or an approval, and of the others, read-only.
// Answering a set posts the answer to the set's mailbox; a run waiting on
// it there takes it, else askuser resume runs in the background and takes
// it (see resumer); the session's page follows its progress.
type Inbox struct {
	srv       *Server
	store     *session.Store
	answers   Answers
	machine   string
	runs      *resumer
	log       *eventLog
	retryBase time.Duration
	stop      chan struct{}
	wg        sync.WaitGroup
}

// NewInbox serves the inbox until Close.
func NewInbox(cfg InboxConfig, opts Options) (*Inbox, error) {
	h := newHub()
	srv, err := newServer(opts, h)
	if err != nil {
		return nil, err
	}
	log := newEventLog(cfg.Log)
	in := &Inbox{srv: srv, store: cfg.Store, answers: cfg.Answers, machine: cfg.Machine, runs: newResumer(cfg.Resume, cfg.DescribeExit, h, log.say), log: log,
		retryBase: cfg.RetryBase, stop: make(chan struct{})}
	if in.retryBase <= 0 {
		in.retryBase = defaultRetryBase
	}
	in.runs.ended = in.afterResume
	showHome := func(w http.ResponseWriter, r *http.Request) {
		f := parseFilter(r.URL.Query())
		data, err := in.home(f)
		if err != nil {
			refuse(w, http.StatusInternalServerError, err.Error())
			return
		}
		// The live update fetches the same page, filters and all.
		writePage(w, r, page.PageData{Title: "askuser: inbox", Heading: "Inbox", Fragment: "/fragment" + f.query(f.Page)}, "inbox", data)
	}
	srv.mux.HandleFunc("GET /{$}", showHome)
	srv.mux.HandleFunc("GET /fragment", showHome)
	srv.mux.HandleFunc("GET /s/{id}", in.showSession)
	srv.mux.HandleFunc("GET /s/{id}/fragment", in.showSession)
	srv.mux.HandleFunc("POST /s/{id}/answer/{key}", in.answer)
	srv.mux.HandleFunc("GET /s/{id}/input/{key}", in.showInput)
	srv.mux.HandleFunc("GET /q/{key}", in.showAsked)
	srv.mux.HandleFunc("GET /q/{key}/fragment", in.showAsked)
	srv.mux.HandleFunc("POST /q/{key}/answer/{card}", in.answerAsked)
	srv.mux.HandleFunc("GET /q/{key}/input/{card}", in.showAskedInput)
	poll := cfg.Poll
	if poll <= 0 {
		poll = time.Second
	}
	in.wg.Add(1)
	// The first fingerprint is taken before NewInbox returns: a change made
	// just after (a run starting to wait) is then a change, not the start.
	go in.watch(poll, in.fingerprint())
	go in.sweep()
	srv.start()
	return in, nil
}

// sweep resumes the sessions that hold answers given on the page but not
// taken, and that no process holds: askuser serve was stopped (or killed)
// before their resume ran. Answers given in a chat channel are the
// relay's to resume.
func (in *Inbox) sweep() {
	list, err := in.store.List()
	if err != nil {
		return
	}
	for _, sum := range list {
		if sum.Status != session.StatusWaiting || sum.InUse || in.elsewhere(sum) != "" {
			continue
		}
		if !in.pageAnswered(sum.ID, sum.Questions) {
			continue
		}
		if id, err := session.ParseID(sum.ID); err == nil { // a session read without error is named by its id
			in.Resume(id, "an answer given on the page before askuser serve last stopped", resumeArgs...)
		}
	}
}

// URL is the address to open, token included.
func (in *Inbox) URL() string { return in.srv.URL() }

// Handler is the inbox's handler, guard included (for tests).
func (in *Inbox) Handler() http.Handler { return in.srv.Handler() }

// Resuming lists the sessions whose resume is still running; they go on
// after the inbox closes, each writing to its serve.log.
func (in *Inbox) Resuming() []string { return in.runs.running() }

// IsResuming reports whether a resume of session id runs now.
func (in *Inbox) IsResuming(id string) bool { return slices.Contains(in.runs.running(), id) }

// Resume resumes session id in the background to take an answer that
// reached its mailbox elsewhere (a chat channel), saying so in its log;
// args say how it asks the rest. One already running is followed by
// another. A session that resumes on another machine, or in a directory
// this one lacks, is not resumed: the error wraps ErrElsewhere and says
// where it resumes.
func (in *Inbox) Resume(id session.ID, why string, args ...string) error {
	sess, err := in.store.Load(string(id))
	if err != nil {
		return err
	}
	if where := in.elsewhere(sess.Summary()); where != "" {
		return elsewhereError(string(id), where)
	}
	in.runs.start(id, filepath.Join(in.store.SideDir(id), logName), why, args)
	return nil
}

// Close stops watching and serving.
func (in *Inbox) Close(ctx context.Context) error {
	close(in.stop)
	in.wg.Wait()
	return in.srv.Close(ctx)
}

// watch tells the pages when the state directory changed: a run started
// waiting, a resume wrote to its log, a session finished.
func (in *Inbox) watch(every time.Duration, last uint64) {
	defer in.wg.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-in.stop:
			return
		case <-t.C:
			if fp := in.fingerprint(); fp != last {
				last = fp
				in.srv.hub.bump()
			}
		}
	}
}

// fingerprint changes whenever the state directory or the team store
// does: a team store says so itself (session.Store.Version).
func (in *Inbox) fingerprint() uint64 {
	h := fnv.New64a()
	v, err := in.store.Version()
	fmt.Fprintf(h, "%s\x00%v\x00%d\n", v, err != nil, dirFingerprint(in.store.Dir))
	return h.Sum64()
}

// dirFingerprint sums the names, sizes and times of the journals, the
// inbox's logs, the registry's entries and the mailbox of the sets asked
// outside a session: it changes whenever one of them does.
func dirFingerprint(dir string) uint64 {
	h := fnv.New64a()
	sessions := filepath.Join(dir, "sessions")
	entries, _ := os.ReadDir(sessions)
	for _, e := range entries {
		path := filepath.Join(sessions, e.Name())
		if e.IsDir() {
			path = filepath.Join(path, logName)
		}
		stamp(h, path)
	}
	for _, sub := range []string{"relay", "mailbox"} {
		files, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		for _, path := range files {
			stamp(h, path)
		}
	}
	return h.Sum64()
}

// stamp adds a file's name, size and time to h.
func stamp(h io.Writer, path string) {
	if fi, err := os.Stat(path); err == nil {
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", path, fi.Size(), fi.ModTime().UnixNano())
	}
}

// answer takes a person's answer to a pending set of a session and hands
// it to askuser resume.
func (in *Inbox) answer(w http.ResponseWriter, r *http.Request) {
	sess, err := in.loadSession(r)
	if err != nil {
		refuse(w, http.StatusNotFound, ask.Display(err.Error()))
		return
	}
	sid := sess.Meta.ID
	id, key := string(sid), r.PathValue("key")
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
		if v, ok := in.sentCard(id, run, key, false, ""); ok {
			submitted(w, r, v, ErrAlreadyAnswered, back)
			return
		}
		refuse(w, http.StatusConflict, "this question set is no longer waiting (it was answered, or the session went on); reload the page")
		return
	}
	live := in.answers.Live(id, *set)
	if (run == nil || !run.running) && in.store.InUse(id) && !live {
		// The run itself, or a resume at a terminal, holds the journal
		// and does not wait on the mailbox: say so now.
		refuse(w, http.StatusConflict, "nothing was sent: session "+id+" is "+session.ErrInUse.Error()+
			" (it is running, or asking for "+page.KindLabelThis(set.Kind)+" there now); answer it there, or here once it stops waiting")
		return
	}
	// Only the questions still unanswered are asked again (a set answered
	// in parts); set.Request holds those.
	sum := sess.Summary()
	where := in.elsewhere(sum)
	answers, err := answersFromForm(set.Request, r.PostForm, time.Now())
	if err == nil {
		in.log.answered(sum, *set, answers)
		err = in.answers.Post(id, *set, session.Delivery{Answers: answers, By: ByPage, At: time.Now()})
		var first *session.AnsweredError
		if errors.As(err, &first) {
			in.log.say(id, "that answer was not used: "+err.Error())
			v := in.openCard(id, set.Request, set.AskedAt)
			v.State, v.Answers = page.StateAnswered, page.AnswerViews(first.First.Answers)
			v.Note = "Answered by " + ask.Display(first.First.By) + " at " + first.First.At.Local().Format("15:04") + "."
			submitted(w, r, v, answeredBy{first.First.By, first.First.At}, back)
			return
		}
	}
	if err == nil {
		in.runs.noteSent(sid, filepath.Join(in.store.SideDir(sid), logName), set.Request, set.AskedAt, answers)
		switch {
		case live || in.store.InUse(id):
			// The process that holds it takes the answer.
		case where != "":
			in.log.say(id, "answered — it resumes "+where+": askuser resume there takes the answer")
		default:
			in.runs.start(sid, filepath.Join(in.store.SideDir(sid), logName), "an answer given on the page by a person", resumeArgs)
		}
	}
	v, ok := in.sentCard(id, in.runs.state(id), key, true, where)
	if !ok {
		v = in.openCard(id, set.Request, set.AskedAt)
	}
	submitted(w, r, v, err, back)
}

// taking says who takes an answer waiting in the mailbox; where, if set,
// says the session resumes on another machine or in a directory this one
// lacks.
func taking(run *sessionRun, where string) string {
	switch {
	case run != nil && run.running:
		return "askuser resume is taking the answer to the session."
	case where != "":
		return "it resumes " + where + ": askuser resume there takes the answer."
	}
	return "the session takes it when it goes on."
}

// mailedCard is set w of session id as a card that shows the answer
// waiting in its mailbox, given elsewhere (a chat channel), if it has one.
func (in *Inbox) mailedCard(id string, run *sessionRun, w session.Waiting, where string) (page.CardView, bool) {
	d, ok := in.answers.Get(id, w)
	if !ok {
		return page.CardView{}, false
	}
	v := page.NewCardView(w.Request, setKey(w.ID), "/s/"+id, "", w.AskedAt)
	v.State, v.Answers, v.ClosedAt = page.StateSent, page.AnswerViews(d.Answers), d.At
	v.Note = "Answered by " + ask.Display(d.By) + " at " + d.At.Local().Format("15:04") + "; " + taking(run, where)
	return v, true
}

// openCard is a pending set as a card that takes an answer.
func (in *Inbox) openCard(id string, req ask.Request, askedAt time.Time) page.CardView {
	key := setKey(req.ID)
	return page.NewCardView(req, key, "/s/"+id, in.srv.guard.csrf, askedAt)
}

// sentCard is the last set with key answered on this page for session id,
// as a card that shows the answer and what became of it: waiting says the
// session has not taken it yet.
func (in *Inbox) sentCard(id string, run *sessionRun, key string, waiting bool, where string) (page.CardView, bool) {
	if run == nil {
		return page.CardView{}, false
	}
	for i := len(run.sent) - 1; i >= 0; i-- {
		s := run.sent[i]
		if setKey(s.req.ID) != key {
			continue
		}
		v := page.NewCardView(s.req, key, "/s/"+id, "", s.askedAt)
		v.Answers, v.ClosedAt = page.AnswerViews(s.answers), s.at
		if waiting {
			v.State, v.Note = page.StateSent, "Answered on this page at "+s.at.Local().Format("15:04")+"; "+taking(run, where)
		} else {
			v.State = page.StateAnswered
			v.Note = "Answered on this page at " + s.at.Local().Format("15:04") + "."
		}
		return v, true
	}
	return page.CardView{}, false
}
