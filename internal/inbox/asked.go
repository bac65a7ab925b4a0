package inbox

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// Sets asked outside a session. askuser ask, askuser mcp and askuser hook
// have no session: a set of theirs asked through the inbox or a chat
// channel waits in the state directory's registry (relay/KEY.json) while
// its process waits on the set's answer mailbox, holding the set's wait
// lock. The inbox lists those still waited on, with what asked them and
// since when, and answers each on a page of its own, /q/KEY, by posting to
// the mailbox: the asking process takes the answer from there, and the
// relay shows it on the set's widgets. Nothing is resumed: the asker is
// alive, or the set no longer waits.

// askedKind says what kind of set it is, for a heading.
func askedKind(req ask.Request) string {
	switch req.Kind {
	case ask.KindApproval:
		return "an approval"
	case ask.KindElicitation:
		return "a form"
	}
	if len(req.Questions) == 1 {
		return "a question"
	}
	return "a question set"
}

// askedRows are the rows of the home page for the sets asked outside a
// session that a process waits on now, newest first.
func (in *Inbox) askedRows(now time.Time) []sessionRow {
	reg := in.store.Registry()
	entries, _ := reg.List(context.Background()) // a damaged entry is skipped
	var keys []string
	for _, e := range entries {
		if e.Session == "" && e.Pending() && len(e.Request.Questions) > 0 {
			keys = append(keys, e.Key)
		}
	}
	held := heldSets(reg, keys)
	var rows []sessionRow
	for _, e := range entries {
		if e.Session != "" || !e.Pending() || len(e.Request.Questions) == 0 || !held(e.Key) {
			continue
		}
		q := e.Request.Questions[0]
		first, _, _ := strings.Cut(strings.TrimSpace(q.Question), "\n")
		row := sessionRow{SessionRow: page.SessionRow{ID: e.Key, Href: "/q/" + e.Key, Prompt: short(ask.Display(first), maxPromptChars),
			Who: askedBy(e), Since: e.Created, Age: page.Ago(now, e.Created), What: askedKind(e.Request)}}
		for _, q := range e.Request.Questions {
			row.Headers = append(row.Headers, ask.Display(q.Header))
		}
		rows = append([]sessionRow{row}, rows...)
	}
	return rows
}

// heldSets says which of keys a process waits on: in one query where the
// store can (a team store's thousand sets), else set by set.
func heldSets(reg session.Registry, keys []string) func(string) bool {
	if many, ok := reg.(interface {
		HeldMany([]string) map[string]bool
	}); ok && len(keys) > 0 {
		held := many.HeldMany(keys)
		return func(k string) bool { return held[k] }
	}
	return reg.Held
}

// askedBy names what asked set e: its title ("askuser hook", "askuser mcp
// · claude-code").
func askedBy(e session.Entry) string {
	if t := ask.Display(e.Title); t != "" {
		return channel.Cut(t, 80)
	}
	return "askuser"
}

// askedEntry is the set under the path's key, if it was asked outside a
// session.
func (in *Inbox) askedEntry(w http.ResponseWriter, r *http.Request) (session.Entry, bool) {
	key := r.PathValue("key")
	e, err := in.store.Registry().Get(r.Context(), key)
	if err != nil || e.Session != "" || len(e.Request.Questions) == 0 {
		refuse(w, http.StatusNotFound, "no question waits at this address: it was answered and has gone, or the link is wrong; see the inbox's first page")
		return session.Entry{}, false
	}
	return e, true
}

// showAsked is the page of a set asked outside a session: its card, open
// while its asker waits on it.
func (in *Inbox) showAsked(w http.ResponseWriter, r *http.Request) {
	e, ok := in.askedEntry(w, r)
	if !ok {
		return
	}
	v, status := in.askedCard(r.Context(), e)
	d := page.AskedData{Key: e.Key, Who: askedBy(e), AskedAt: e.Created, Status: status, Card: v}
	title := "askuser: " + askedKind(e.Request) + " from " + d.Who
	writePage(w, r, page.PageData{Title: title, Heading: "Asked outside a session", Fragment: "/q/" + e.Key + "/fragment"}, "asked", d)
}

// askedCard is e as a card, and a line saying where it stands.
func (in *Inbox) askedCard(ctx context.Context, e session.Entry) (page.CardView, string) {
	href := "/q/" + e.Key
	v := page.NewCardView(e.Request, setKey(e.Request.ID), href, in.srv.guard.csrf, e.Created)
	who := askedBy(e)
	d, answered, _ := in.store.Mailbox().Get(ctx, session.Box{Key: e.Key})
	switch {
	case answered:
		v.State, v.Answers, v.ClosedAt = page.StateAnswered, page.AnswerViews(d.Answers), d.At
		v.Note = "Answered by " + ask.Display(d.By) + " at " + d.At.Local().Format("15:04") + "."
		if e.Pending() {
			v.State, v.Note = page.StateSent, v.Note[:len(v.Note)-1]+"; "+who+" takes it."
			return v, "answered; " + who + " takes the answer"
		}
		return v, "answered"
	case !e.Pending():
		v.State, v.Note, v.ClosedAt = page.StateWithdrawn, ask.Display(e.Outcome.Text), e.Outcome.At
		return v, e.Outcome.State
	case !in.store.Registry().Held(e.Key):
		v.State, v.Note = page.StateWithdrawn, who+" stopped waiting for this answer."
		return v, "no longer waiting"
	}
	return v, "waiting since " + e.Created.Local().Format("15:04") + " (" + page.Ago(time.Now(), e.Created) + ")"
}

// answerAsked takes a person's answer to a set asked outside a session
// and posts it to the set's mailbox, where its asker takes it.
func (in *Inbox) answerAsked(w http.ResponseWriter, r *http.Request) {
	e, ok := in.askedEntry(w, r)
	if !ok {
		return
	}
	back := "/q/" + e.Key
	if r.PathValue("card") != setKey(e.Request.ID) {
		refuse(w, http.StatusNotFound, "no question set has that address; reload the page")
		return
	}
	v, _ := in.askedCard(r.Context(), e)
	if !v.Open() {
		err := ErrWithdrawn
		if v.State == page.StateAnswered || v.State == page.StateSent {
			err = ErrAlreadyAnswered
		}
		submitted(w, r, v, err, back)
		return
	}
	answers, err := answersFromForm(e.Request, r.PostForm, time.Now())
	if err != nil {
		submitted(w, r, v, err, back)
		return
	}
	err = in.store.Mailbox().Post(context.WithoutCancel(r.Context()), session.Box{Key: e.Key},
		session.Delivery{Answers: answers, By: ByPage, At: time.Now()})
	var first *session.AnsweredError
	if err != nil && !errors.As(err, &first) {
		refuse(w, http.StatusInternalServerError, "your answer could not be recorded ("+ask.Display(err.Error())+"); nothing was sent: answer again")
		return
	}
	if first == nil {
		in.log.sayAsked(askedBy(e), "a person on the page "+short(askedSummary(e.Request, answers), maxLogAnswerChars))
	}
	v, _ = in.askedCard(r.Context(), e)
	if first != nil {
		err = ErrAlreadyAnswered
	}
	in.srv.hub.bump()
	submitted(w, r, v, err, back)
}

// askedSummary says what a person answered, for serve's log.
func askedSummary(req ask.Request, answers []ask.Answer) string {
	var parts []string
	for _, a := range answers {
		parts = append(parts, ask.Display(a.Header)+": "+page.AnswerSummary(a))
	}
	return "answered " + askedKind(req) + ": " + strings.Join(parts, "; ")
}

// showAskedInput answers a card's "open the whole text" for a set asked
// outside a session.
func (in *Inbox) showAskedInput(w http.ResponseWriter, r *http.Request) {
	e, ok := in.askedEntry(w, r)
	if !ok {
		return
	}
	if r.PathValue("card") != setKey(e.Request.ID) {
		refuse(w, http.StatusNotFound, "no question set has that address; reload the page")
		return
	}
	serveDetail(w, e.Request)
}
