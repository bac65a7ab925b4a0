package relay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Mailboxed makes a set answered once, wherever its answers come from. It
// wraps the frontend of a process whose sets can be answered from
// elsewhere (askuser resume, and every process that asks through the
// inbox or a channel):
//   - an answer already in the mailbox is taken at once: a late answer,
//     given while no process waited;
//   - otherwise Inner asks, racing the mailbox: when an answer arrives
//     there first (a tap, the inbox page), Inner is withdrawn and that
//     answer is used;
//   - an answer Inner gives is posted before it is used; if another was
//     posted first, that one is used instead, and Note tells the person
//     (not when Inner's answer is the one posted first: the relay's
//     frontend reads its answers in the mailbox);
//   - a set asked outside a session and not answered is withdrawn from
//     the registry, saying why, and is marked as waited on while it is
//     asked, so a relay can tell a set whose asker was killed;
//   - a set asked outside a session is a new question each time it is
//     asked: no process comes back to one, so no two askings share a
//     mailbox (Claim), and another asking of that id, earlier or at the
//     same time, on this machine or another (askuser ask --id deploy on
//     two CI runners), neither takes its answer nor gives it one.
type Mailboxed struct {
	Inner    ask.Frontend
	Mailbox  Mailbox
	Registry Registry
	// Session is the session's id; "" outside one.
	Session string
	// Note, if set, tells the person that another answer won.
	Note func(string)
	Now  func() time.Time
}

var (
	_ ask.Frontend   = (*Mailboxed)(nil)
	_ ask.Concurrent = (*Mailboxed)(nil)
)

// Concurrent is Inner's.
func (m *Mailboxed) Concurrent() bool {
	c, ok := m.Inner.(ask.Concurrent)
	return ok && c.Concurrent()
}

func (m *Mailboxed) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

type asked struct {
	answers []ask.Answer
	err     error
}

// Ask takes req's answer from the mailbox, or asks Inner for it.
func (m *Mailboxed) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if m.Session == "" {
		// A mailbox no other asking shares; Inner's relay frontend,
		// asking under ctx, names it so too.
		var release func()
		ctx, release = Claim(ctx, m.Mailbox, m.Registry, req, m.now())
		defer release()
	}
	box := boxFor(ctx, m.Session, req)
	d, ok, err := m.Mailbox.Get(ctx, box)
	if err != nil || ok {
		return answered(d, req, err)
	}
	ictx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	inner := make(chan asked, 1)
	go func() {
		a, err := m.Inner.Ask(ictx, req)
		inner <- asked{a, err}
	}()
	mailed := make(chan session.Delivery, 1)
	go func() {
		if d, err := m.Mailbox.Wait(ictx, box); err == nil {
			mailed <- d
		}
	}()
	select {
	case res := <-inner:
		cancel(nil)
		return m.settle(ctx, box, req, res)
	case d := <-mailed:
		cancel(fmt.Errorf("answered by %s", ask.Display(d.By)))
		// The prompt it withdrew has restored the terminal. Inner may
		// have been answered just as d arrived: the person is told that
		// d won over what they gave.
		if res := <-inner; res.err == nil {
			m.noteWinner(d, res.answers)
		}
		return fit(d, req)
	}
}

// settle posts what Inner gave, or, when it gave nothing, takes what the
// mailbox got meanwhile, or withdraws the set.
func (m *Mailboxed) settle(ctx context.Context, box session.Box, req ask.Request, res asked) ([]ask.Answer, error) {
	bg := context.WithoutCancel(ctx)
	if res.err != nil {
		if d, ok, err := m.Mailbox.Get(bg, box); err == nil && ok {
			return fit(d, req) // a tap just as the wait ended: it was taken
		}
		var pe *ask.PartialError
		if m.Session == "" && m.Registry != nil && !errors.As(res.err, &pe) {
			m.withdraw(bg, box.Key, whyEnded(res.err))
		}
		return nil, res.err
	}
	err := m.Mailbox.Post(bg, box, delivery(res.answers, m.now()))
	var first *session.AnsweredError
	switch {
	case errors.As(err, &first):
		m.noteWinner(first.First, res.answers)
		return fit(first.First, req)
	case err != nil && m.Note != nil:
		m.Note("the answer could not be recorded in the mailbox (" + err.Error() + "); going on with it")
	}
	return res.answers, nil
}

// noteWinner tells the person that won, posted by someone else, is used
// instead of mine, the answers they gave.
func (m *Mailboxed) noteWinner(won session.Delivery, mine []ask.Answer) {
	if m.Note == nil || len(mine) == 0 || sameAnswers(won.Answers, mine) {
		return
	}
	m.Note(fmt.Sprintf("already answered by %s at %s: going on with that answer (%s)",
		ask.Display(won.By), won.At.Local().Format("15:04"), channel.Summary(won.Answers)))
}

// sameAnswers reports whether a and b are the same answers, who gave
// them and when included. Inner's answers are the mailbox's own when it
// read them there (the relay's frontend does: a tap, the inbox page), and
// posting them again finds them: that is no other answer winning, and the
// person is not told it was.
func sameAnswers(a, b []ask.Answer) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// withdraw marks the set under key withdrawn, if it is registered and
// waits.
func (m *Mailboxed) withdraw(ctx context.Context, key, why string) {
	_, _ = m.Registry.Update(ctx, key, func(e *session.Entry, found bool) error {
		if !found || !e.Pending() {
			return errNoChange
		}
		e.Outcome = withdrawn(why, m.now())
		return nil
	})
}

// errNoChange leaves a registry entry as it was.
var errNoChange = errors.New("no change")
