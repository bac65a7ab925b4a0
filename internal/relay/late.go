package relay

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Late answers, in askuser serve: a set answered while no process waited
// on it has its session resumed in the background; when the session has
// gone on and no process holds it any more, what it did next is posted
// beside the question.

// Bounds of a follow-up.
const (
	followUpChars = 3000
	maxResumes    = 3
)

// resume starts the background resume of e's session, unless one runs or
// the attempts so far failed too often, too recently.
func (r *Relay) resume(e session.Entry) {
	id := e.Session
	if r.cfg.Resume == nil || r.cfg.Resuming != nil && r.cfg.Resuming(id) {
		return
	}
	r.mu.Lock()
	a := r.resumes[id]
	if a == nil {
		a = &attempts{}
		r.resumes[id] = a
	}
	now := r.cfg.Now()
	if a.n >= maxResumes || now.Before(a.next) {
		r.mu.Unlock()
		return
	}
	a.n++
	a.next = now.Add(time.Duration(a.n*a.n) * 10 * time.Second)
	n := a.n
	r.mu.Unlock()
	err := r.cfg.Resume(e)
	var where *ElsewhereError
	if errors.As(err, &where) {
		// Not here, ever: say once beside the set where it continues.
		r.mu.Lock()
		a.n = maxResumes
		r.mu.Unlock()
		r.noteElsewhere(context.Background(), e, where.Where)
		return
	}
	if err != nil {
		r.logf("resume "+id, "askuser: could not resume session %s for its answer (attempt %d of %d): %v", id, n, maxResumes, err)
	}
}

// ElsewhereError is the error of Config.Resume for a session that
// continues on another machine, or in a folder this one lacks: Where says
// where ("on build-7 in /src/app"). The relay says so beside the set, once,
// and tries no more: askuser resume there takes the answer, and what the
// agent did next is posted when it has.
type ElsewhereError struct {
	Session, Where string
}

func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("session %s continues %s (askuser resume %s there takes the answer)", e.Session, e.Where, e.Session)
}

// noteElsewhere says beside e, once, where its session continues.
func (r *Relay) noteElsewhere(ctx context.Context, e session.Entry, where string) {
	if e.Elsewhere == where {
		return
	}
	text := fmt.Sprintf("Answered. The agent continues %s, once askuser resume %s runs there; what it does next is posted here then.", where, e.Session)
	if !r.followUp(ctx, e, text) {
		return
	}
	_, _ = r.cfg.Registry.Update(ctx, e.Key, func(x *session.Entry, found bool) error {
		if !found {
			return session.ErrNoEntry
		}
		x.Elsewhere = where
		return nil
	})
}

// lateAnswers resumes the sessions whose late answers have not reached
// them yet, and follows up on those that went on with them: one post per
// session, beside the set answered last.
func (r *Relay) lateAnswers(ctx context.Context, entries []session.Entry) {
	bySession := map[string][]session.Entry{}
	for _, e := range entries {
		if e.Session != "" && e.Late && !e.FollowedUp && !e.Pending() {
			bySession[e.Session] = append(bySession[e.Session], e)
		}
	}
	for id, es := range bySession {
		if r.cfg.Sessions.InUse(id) || r.cfg.Resuming != nil && r.cfg.Resuming(id) {
			continue
		}
		sess, err := r.cfg.Sessions.Load(id)
		if err != nil {
			r.markFollowedUp(ctx, es) // removed: nothing to say
			continue
		}
		if i := slices.IndexFunc(es, func(e session.Entry) bool { return e.Outcome.State == channel.Answered && waitsFor(sess, e) }); i >= 0 {
			// Posted, not taken yet (a resume failed or never started).
			// An answer given on the inbox page is the inbox's to resume
			// for, and to try again (internal/inbox, retry.go).
			if es[i].Outcome.By != ByInboxPage {
				r.resume(es[i])
			}
			continue
		}
		last := es[0]
		for _, e := range es[1:] {
			if e.Outcome.At.After(last.Outcome.At) {
				last = e
			}
		}
		if r.followUp(ctx, last, r.followUpText(sess, last)) {
			r.markFollowedUp(ctx, es)
			held := r.heldNames()
			r.mu.Lock()
			delete(r.resumes, id)
			for _, name := range held {
				delete(r.later, name+" reply "+last.Key)
			}
			r.mu.Unlock()
		}
	}
}

// followUp posts text beside e on every channel this relay serves that
// shows it; it reports whether all of them took it. A channel it does not
// hold yet (serve just started, a live run still holds it) has not, so the
// post waits for it; a channel whose platform said to wait is not called
// before then.
func (r *Relay) followUp(ctx context.Context, e session.Entry, text string) bool {
	ok := true
	for name, sent := range e.Sent {
		s, served := r.served(name)
		if sent == nil || len(sent.Ref) == 0 || !served {
			continue
		}
		if !r.Holds(name) {
			ok = false
			continue
		}
		gate := name + " reply " + e.Key
		r.mu.Lock()
		wait := r.cfg.Now().Before(r.later[gate])
		r.mu.Unlock()
		if wait {
			ok = false
			continue
		}
		err := s.Channel.Reply(ctx, sent.Ref, text)
		if err == nil {
			continue
		}
		ok = false
		r.logf(gate, "askuser: %s: could not post what session %s did next: %v", name, e.Session, err)
		if at, timed := channel.RetryAt(err); timed {
			r.mu.Lock()
			r.later[gate] = at
			r.mu.Unlock()
			r.wakeAt(at)
		}
	}
	return ok
}

func (r *Relay) markFollowedUp(ctx context.Context, es []session.Entry) {
	for _, e := range es {
		_, _ = r.cfg.Registry.Update(ctx, e.Key, func(e *session.Entry, found bool) error {
			if !found {
				return session.ErrNoEntry
			}
			e.FollowedUp = true
			return nil
		})
	}
}

// followUpText says what a resumed session did next: its final text (cut,
// made safe to show), what it waits on now, or how its run ended.
func (r *Relay) followUpText(sess *session.Session, e session.Entry) string {
	sum := sess.Summary()
	link := ""
	if r.cfg.Link != nil {
		link = r.cfg.Link(e)
	}
	final := strings.TrimSpace(ask.DisplayBlock(sess.State.FinalText()))
	switch {
	case sum.Status == session.StatusWaiting && len(sum.Questions) > 0:
		var headers []string
		for _, w := range sum.Questions {
			headers = append(headers, w.Headers...)
		}
		return "The agent went on and now asks: " + ask.Display(strings.Join(headers, ", ")) + "."
	case sum.Status == session.StatusFinished && final != "":
		return "The agent went on and finished:\n" + channel.CutBlock(final, followUpChars, link)
	case sum.Status == session.StatusFinished:
		return "The agent went on and finished."
	}
	text := fmt.Sprintf("The agent went on, and its run stopped (%s)", ask.Display(sum.Status))
	if d := ask.Display(sess.Detail); d != "" && sess.Status != string(agentloop.StatusSuccess) {
		text += ": " + channel.Cut(d, 300)
	}
	return text + "."
}

// mailboxPruner is a mailbox that drops old answers to sets asked
// outside a session (session.Mailbox does).
type mailboxPruner interface{ Prune(before time.Time) error }

// prune deletes finished sets once their widgets show it (and what
// followed a late answer was posted), a day after; and any finished set
// after a week. Once an hour it also drops the mailbox's answers to sets
// asked outside a session, a week after they were given (a session's go
// with the session).
func (r *Relay) prune(ctx context.Context, entries []session.Entry) {
	now := r.cfg.Now()
	if p, ok := r.cfg.Mailbox.(mailboxPruner); ok && now.Sub(r.pruned) > time.Hour {
		r.pruned = now
		if err := p.Prune(now.Add(-pruneAnyway)); err != nil {
			r.logf("prune", "askuser: %v", err)
		}
	}
	for _, e := range entries {
		if e.Pending() {
			continue
		}
		age := now.Sub(e.Updated)
		done := !e.Late || e.FollowedUp
		for _, s := range e.Sent {
			if len(s.Ref) > 0 && s.Shown != e.Outcome.State {
				done = false
			}
		}
		if done && age > PruneAfter || age > pruneAnyway {
			if err := r.cfg.Registry.Delete(ctx, e.Key); err != nil {
				r.logf("prune", "askuser: %v", err)
			}
		}
	}
}
