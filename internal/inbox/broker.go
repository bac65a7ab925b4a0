package inbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/inbox/page"
)

// maxClosed is how many answered or withdrawn cards a Broker keeps for the
// page, so a long run does not grow without bound.
const maxClosed = 50

// Sentinel errors of a submission.
var (
	// ErrAlreadyAnswered: the set was answered before; nothing changed.
	ErrAlreadyAnswered = errors.New("already answered")
	// ErrWithdrawn: the set is no longer waiting (cancelled, timed out,
	// answered elsewhere); nothing changed.
	ErrWithdrawn = errors.New("no longer waiting")
	// ErrUnknownSet: no set has that key.
	ErrUnknownSet = errors.New("no such question set")
)

// Broker is the web card's frontend: every question set put to it becomes a
// card on the page until a person answers it there, or the set's context
// ends and the card says it was withdrawn. It holds several sets open at
// once (ask.Concurrent): concurrent tool calls and sub-agents each get a
// card. It does no HTTP itself; a Server shows it.
type Broker struct {
	mu    sync.Mutex
	cards []*card // in the order asked
	hub   *hub
	now   func() time.Time
}

var (
	_ ask.Frontend   = (*Broker)(nil)
	_ ask.Concurrent = (*Broker)(nil)
)

// card is one question set on the page.
type card struct {
	req      ask.Request
	key      string
	state    string
	askedAt  time.Time
	closedAt time.Time
	// answers are the set's answers: given on this page (answered), or,
	// withdrawn, through the frontend of a race that won it.
	answers []ask.Answer
	note    string            // why it was withdrawn
	done    chan []ask.Answer // buffered; receives the answers once
	// claim decides, in a race (--frontend web,survey), whether an
	// answer given on the page is the set's; outside one it always is.
	claim ask.Claimer
}

// NewBroker returns a Broker with no cards.
func NewBroker() *Broker { return &Broker{hub: newHub(), now: time.Now} }

// Concurrent reports true: each open set is its own card.
func (b *Broker) Concurrent() bool { return true }

// setKey names a set in URLs and element ids. Set ids are a model's
// tool_use ids or a program's, so they may hold anything; the key is a
// hash of the id, safe in a path and stable for the set's life.
func setKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:8])
}

// Ask shows req as a card and waits for a person to answer it on the page.
// When ctx ends first the card is withdrawn, saying why, and the error is
// ask.CtxErr(ctx).
func (b *Broker) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	if err := ask.CtxErr(ctx); err != nil {
		return nil, err
	}
	if req.ID == "" || len(req.Questions) == 0 {
		return nil, errors.New("web frontend: a question set needs an id and at least one question")
	}
	c, err := b.open(req, ask.ClaimerOf(ctx))
	if err != nil {
		return nil, err
	}
	select {
	case answers := <-c.done:
		return answers, nil
	case <-ctx.Done():
		err := ask.CtxErr(ctx)
		if answers, answered := b.withdraw(c, withdrawNote(ctx, err)); answered {
			// A person answered just as ctx ended: the answer was shown
			// as accepted, so return it rather than lose it.
			return answers, nil
		}
		return nil, err
	}
}

// withdrawNote says on the card why it closed: answered at the terminal,
// nobody answered in time, or the run stopped.
func withdrawNote(ctx context.Context, err error) string {
	if errors.Is(err, ask.ErrTimeout) {
		return "Nobody answered in time; the question was withdrawn."
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return "Withdrawn: " + ask.Display(cause.Error()) + "."
	}
	return "Withdrawn: the run stopped waiting for this answer."
}

func (b *Broker) open(req ask.Request, claim ask.Claimer) (*card, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	key := setKey(req.ID)
	for i, c := range b.cards {
		if c.key != key {
			continue
		}
		if c.state == page.StateOpen {
			return nil, fmt.Errorf("web frontend: question set %q is already open", req.ID)
		}
		b.cards = slices.Delete(b.cards, i, i+1) // asked again: the new card replaces the old
		break
	}
	c := &card{req: req, key: key, state: page.StateOpen, askedAt: b.now(), done: make(chan []ask.Answer, 1), claim: claim}
	b.cards = append(b.cards, c)
	b.hub.bump()
	return c, nil
}

// withdraw closes c with note unless it was answered; then it returns the
// answers and true.
func (b *Broker) withdraw(c *card, note string) ([]ask.Answer, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch c.state {
	case page.StateAnswered:
		return <-c.done, true
	case page.StateOpen:
		b.withdrawLocked(c, note)
	}
	return nil, false
}

// withdrawLocked closes c unanswered on this page. When another frontend
// of a race answered the set, the card shows that answer and where it was
// given ("Answered at the terminal."), never one of its own; else it
// says why it closed (note).
func (b *Broker) withdrawLocked(c *card, note string) {
	c.state, c.note, c.closedAt = page.StateWithdrawn, note, b.now()
	if where, won, ok := c.claim.Winner(); ok {
		c.answers, c.note = won, "Answered "+where+"."
	}
	b.trimLocked()
	b.hub.bump()
}

// Submit answers the open set with key from a posted form (see
// answersFromForm). A set answered before, here or through another
// frontend of a race, gets ErrAlreadyAnswered, one withdrawn unanswered
// an error wrapping ErrWithdrawn, and either is left as it was; a form
// that does not answer it gets a *FormError, and the set stays open.
//
// In a race the answer is claimed before it is taken: when another
// frontend claimed the set a moment before (the terminal's pick, by a
// hair), the card closes showing that answer, and the page's is refused
// with ErrAlreadyAnswered rather than shown as accepted.
func (b *Broker) Submit(key string, form url.Values) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := b.findLocked(key)
	switch {
	case c == nil:
		return ErrUnknownSet
	case c.state == page.StateAnswered, c.state == page.StateWithdrawn && c.answers != nil:
		return ErrAlreadyAnswered
	case c.state == page.StateWithdrawn:
		return fmt.Errorf("%w: %s", ErrWithdrawn, c.note)
	}
	answers, err := answersFromForm(c.req, form, b.now())
	if err != nil {
		return err
	}
	if !c.claim.Claim(answers) {
		b.withdrawLocked(c, "Withdrawn: it was given up elsewhere first.")
		if c.answers == nil {
			return fmt.Errorf("%w: %s", ErrWithdrawn, c.note)
		}
		return ErrAlreadyAnswered
	}
	c.state, c.answers, c.closedAt = page.StateAnswered, answers, b.now()
	c.done <- answers
	b.trimLocked()
	b.hub.bump()
	return nil
}

func (b *Broker) findLocked(key string) *card {
	for _, c := range b.cards {
		if c.key == key {
			return c
		}
	}
	return nil
}

// trimLocked drops the oldest closed cards beyond maxClosed.
func (b *Broker) trimLocked() {
	closed := 0
	for i := len(b.cards) - 1; i >= 0; i-- {
		if b.cards[i].state == page.StateOpen {
			continue
		}
		if closed++; closed > maxClosed {
			b.cards = slices.Delete(b.cards, i, i+1)
		}
	}
}

// views returns the cards for the page: open ones first, oldest first
// (the order they were asked in), then closed ones, most recent first.
func (b *Broker) views(csrf string) []page.CardView {
	b.mu.Lock()
	defer b.mu.Unlock()
	var open, closed []page.CardView
	for _, c := range b.cards {
		v := page.NewCardView(c.req, c.key, "", csrf, c.askedAt)
		v.State, v.Note = c.state, c.note
		if c.answers != nil {
			v.Answers = page.AnswerViews(c.answers)
		}
		v.ClosedAt = c.closedAt
		if c.state == page.StateOpen {
			open = append(open, v)
		} else {
			closed = append(closed, v)
		}
	}
	slices.SortStableFunc(closed, func(x, y page.CardView) int { return y.ClosedAt.Compare(x.ClosedAt) })
	return append(open, closed...)
}

// view returns the card with key, for the answer to a submission.
func (b *Broker) view(key, csrf string) (page.CardView, bool) {
	for _, v := range b.views(csrf) {
		if v.Key == key {
			return v, true
		}
	}
	return page.CardView{}, false
}
