package inbox

import (
	"errors"
	"net/http"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
)

// NewCard serves b's cards (--frontend web) until Close: the page lists
// every open set and what became of the recent ones, and posts answers to
// b.Submit.
func NewCard(b *Broker, opts Options) (*Server, error) {
	s, err := newServer(opts, b.hub)
	if err != nil {
		return nil, err
	}
	layout := page.PageData{Title: "askuser: questions", Heading: "Questions from your agent", Fragment: "/fragment"}
	show := func(w http.ResponseWriter, r *http.Request) {
		writePage(w, r, layout, "cards", page.CardsData{Cards: b.views(s.guard.csrf)})
	}
	s.mux.HandleFunc("GET /{$}", show)
	s.mux.HandleFunc("GET /fragment", show)
	s.mux.HandleFunc("GET /input/{key}", func(w http.ResponseWriter, r *http.Request) {
		req, found := b.request(r.PathValue("key"))
		if !found {
			refuse(w, http.StatusNotFound, "no question set has that address; reload the page")
			return
		}
		serveDetail(w, req)
	})
	s.mux.HandleFunc("POST /answer/{key}", func(w http.ResponseWriter, r *http.Request) {
		key := r.PathValue("key")
		err := b.Submit(key, r.PostForm)
		v, found := b.view(key, s.guard.csrf)
		if !found {
			refuse(w, http.StatusNotFound, "no question set has that address; reload the page")
			return
		}
		submitted(w, r, v, err, "/")
	})
	s.start()
	return s, nil
}

// request returns the set shown as the card with key.
func (b *Broker) request(key string) (ask.Request, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.findLocked(key); c != nil {
		return c.req, true
	}
	return ask.Request{}, false
}

// submitted answers a submission: the card as it now is (for the page's
// script) or a redirect back to it (for a page without script), with 409
// and "already answered" when the set was answered or withdrawn before,
// and 400 and the reason when the form did not answer it. back is the
// page the card is on.
func submitted(w http.ResponseWriter, r *http.Request, v page.CardView, err error, back string) {
	code := http.StatusOK
	var fe *FormError
	switch {
	case errors.As(err, &fe):
		refuse(w, http.StatusBadRequest, fe.Msg)
		return
	case errors.As(err, new(answeredBy)):
		code, v.Flash = http.StatusConflict, err.Error()+"; your answer was not used."
	case errors.Is(err, ErrAlreadyAnswered):
		code, v.Flash = http.StatusConflict, "Already answered: this question set was answered before, so your answer was not used."
	case errors.Is(err, ErrWithdrawn):
		code, v.Flash = http.StatusConflict, "This question set is no longer waiting, so your answer was not used."
	case err != nil:
		refuse(w, http.StatusInternalServerError, err.Error())
		return
	}
	if !isFetch(r) {
		if code != http.StatusOK {
			refuse(w, code, v.Flash)
			return
		}
		http.Redirect(w, r, back+"#set-"+v.Key, http.StatusSeeOther)
		return
	}
	body, rerr := page.Render("card", v)
	if rerr != nil {
		refuse(w, http.StatusInternalServerError, rerr.Error())
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(body))
}

// answeredBy is the refusal of an answer to a set another answered first
// (in another serve, a chat channel): it says who, and when.
type answeredBy struct {
	by string
	at time.Time
}

func (a answeredBy) Error() string {
	return "Already answered by " + ask.Display(a.by) + " at " + a.at.Local().Format("15:04")
}

// Is makes errors.Is(err, ErrAlreadyAnswered) hold.
func (a answeredBy) Is(target error) bool { return target == ErrAlreadyAnswered }
