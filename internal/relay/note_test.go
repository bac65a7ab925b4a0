package relay_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// A tap is the answer: the channel's frontend reads it in the mailbox, and
// Mailboxed, posting it there again, finds it. That is not another answer
// winning, and the person is not told it was (every round: which of
// Mailboxed's two waits sees the tap first is up to the scheduler).
func TestMailboxedDoesNotCallATapAnotherAnswer(t *testing.T) {
	rg := newRig(t, rigOptions{run: true})
	last := 0
	for i := range 5 {
		var notes []string
		fe := rg.frontend("")
		fe.Note = func(s string) { notes = append(notes, s) }
		a := ask1(context.Background(), fe, ask.Request{ID: fmt.Sprintf("ask_note_%d", i), Questions: []ask.Question{dbQuestion}})
		m := rg.message(func(m channeltest.Message) bool { return m.ID > last && titled("Database")(m) }, "asked")
		last = m.ID
		if _, v, err := rg.srv.Tap(limit, "U-alice", "@alice", m, channeltest.Pick{Options: []int{1}}); err != nil || !v.OK {
			t.Fatalf("round %d: the tap: %+v, %v", i, v, err)
		}
		answers, err := a.Wait(t)
		if err != nil || answers[0].Via != "@alice on testchan" {
			t.Fatalf("round %d: %+v, %v", i, answers, err)
		}
		if len(notes) > 0 {
			t.Errorf("round %d: the person was told %q", i, notes)
		}
	}
}

// An answer posted elsewhere while the terminal asked wins over the
// terminal's: Mailboxed goes on with it, and tells the person whose it
// was. Either of Mailboxed's two waits may see bob's answer first (the
// mailbox's, or the post of the terminal's answer finding it there); the
// person is told in both.
func TestMailboxedSaysWhoseAnswerWon(t *testing.T) {
	rg := newRig(t, rigOptions{})
	var notes []string
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	terminal := &answeredMeanwhile{mb: rg.st.Mailbox(), by: "@bob on testchan", at: at}
	fe := rg.frontend("", terminal)
	fe.Note = func(s string) { notes = append(notes, s) }
	answers, err := fe.Ask(context.Background(), ask.Request{ID: "ask_meanwhile", Questions: []ask.Question{dbQuestion}})
	if err != nil || answers[0].Selected[0] != "PostgreSQL" || answers[0].Via != "@bob on testchan" {
		t.Fatalf("%+v, %v; want bob's answer", answers, err)
	}
	want := "already answered by @bob on testchan at " + at.Local().Format("15:04") + ": going on with that answer (PostgreSQL)"
	if strings.Join(notes, "\n") != want {
		t.Errorf("the person was told %q, want %q", notes, want)
	}
}

// answeredMeanwhile is a terminal whose person picks SQLite just after bob
// answered PostgreSQL in the chat (posted to the mailbox).
type answeredMeanwhile struct {
	mb session.Mailbox
	by string
	at time.Time
}

func (f *answeredMeanwhile) Ask(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
	bob, err := ask.Selection(req.Questions[0], []string{"PostgreSQL"}, "", ask.SourcePerson)
	if err != nil {
		return nil, err
	}
	bob.Via = f.by
	box := session.Box{Key: relay.KeyFor(ctx, "", req)}
	if err := f.mb.Post(ctx, box, session.Delivery{Answers: []ask.Answer{bob}, By: f.by, At: f.at}); err != nil {
		return nil, err
	}
	mine, err := ask.Selection(req.Questions[0], []string{"SQLite"}, "", ask.SourcePerson)
	return []ask.Answer{mine}, err
}
