package relay

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// finding is a channel that can find a message sent before: found is
// what Find returns, and since what it was asked for.
type finding struct {
	*scripted
	found channel.Ref
	err   error
	since time.Time
	asked int
}

func (f *finding) Find(ctx context.Context, s channel.Set, since time.Time) (channel.Ref, error) {
	f.asked++
	f.since = since
	return f.found, f.err
}

// stoppedMidSend leaves the rig's set as a process killed while sending
// it leaves it: a send of revision 1 begun at began, and no ref.
func stoppedMidSend(t *testing.T, r *Relay, began time.Time) string {
	t.Helper()
	key := Key("", "ask_1", time.Time{})
	if _, err := r.cfg.Registry.Update(context.Background(), key, func(e *session.Entry, found bool) error {
		sentFor(e, "chat").Sending, sentFor(e, "chat").SendingRev = began, 1
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return key
}

func sentOf(t *testing.T, r *Relay, key string) session.Sent {
	t.Helper()
	e, err := r.cfg.Registry.Get(context.Background(), key)
	if err != nil || e.Sent["chat"] == nil {
		t.Fatalf("entry %+v, %v", e, err)
	}
	return *e.Sent["chat"]
}

// The relay notes that a send began before it sends, and clears the note
// once the send ended, in success (the ref kept) or failure.
func TestRelayNotesASendWhileItRuns(t *testing.T) {
	ch := &scripted{now: time.Now, fails: []error{errors.New("down")}}
	r := retryRig(t, ch, Config{RetryBase: time.Millisecond})
	key := Key("", "ask_1", time.Time{})
	var during []session.Sent
	ch.onSend = func(channel.Set) { during = append(during, sentOf(t, r, key)) }
	r.setHeld("chat", true)
	r.pass(context.Background())
	if s := sentOf(t, r, key); !s.Sending.IsZero() || len(s.Ref) != 0 {
		t.Errorf("after a failed send: %+v; want no send noted as under way", s)
	}
	time.Sleep(2 * time.Millisecond)
	r.pass(context.Background())
	if len(during) != 2 || during[0].Sending.IsZero() || during[0].SendingRev != 1 || during[1].Sending.IsZero() {
		t.Fatalf("while sending, the registry held %+v; want the send noted", during)
	}
	if s := sentOf(t, r, key); !s.Sending.IsZero() || string(s.Ref) != `{"id":1}` {
		t.Errorf("after the send: %+v", s)
	}
	if ch.sets[1].Resent {
		t.Error("a set whose first send failed was marked as sent again after a restart")
	}
}

// A relay stopped during a send keeps the note: the platform may have
// taken the message.
func TestRelayStoppedMidSendKeepsTheNote(t *testing.T) {
	ch := &scripted{now: time.Now}
	r := retryRig(t, ch, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	ch.onSend = func(channel.Set) { cancel() }
	ch.fails = []error{context.Canceled}
	r.setHeld("chat", true)
	r.pass(ctx)
	if s := sentOf(t, r, Key("", "ask_1", time.Time{})); s.Sending.IsZero() || s.SendingRev != 1 {
		t.Errorf("after a send cut short by the relay stopping: %+v; want the send still noted", s)
	}
}

// A set whose send began in a process that stopped before it ended is
// sent again marked as such, by a channel that cannot look for the
// earlier message; the note is then cleared.
func TestRelayMarksASetSentAgainAfterAStop(t *testing.T) {
	ch := &scripted{now: time.Now}
	r := retryRig(t, ch, Config{})
	key := stoppedMidSend(t, r, time.Now().Add(-time.Minute))
	r.setHeld("chat", true)
	r.pass(context.Background())
	if len(ch.sets) != 1 || !ch.sets[0].Resent {
		t.Fatalf("sent %+v; want the set once, marked as sent again", ch.sets)
	}
	if s := sentOf(t, r, key); !s.Sending.IsZero() || len(s.Ref) == 0 {
		t.Errorf("after sending it again: %+v", s)
	}
}

// A channel that can look for the earlier message is asked first: a
// message found is adopted, not sent again; none there, the set is sent
// plainly; when it cannot tell, the set is sent marked.
func TestRelayAdoptsTheMessageAStoppedProcessSent(t *testing.T) {
	began := time.Now().Add(-time.Minute).Truncate(time.Millisecond)
	for _, c := range []struct {
		name   string
		found  channel.Ref
		err    error
		sends  int
		resent bool
		ref    string
	}{
		{"found", channel.Ref(`{"id":7}`), nil, 0, false, `{"id":7}`},
		{"absent", nil, nil, 1, false, `{"id":1}`},
		{"cannot tell", nil, errors.New("missing_scope"), 1, true, `{"id":1}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := &finding{scripted: &scripted{now: time.Now}, found: c.found, err: c.err}
			r := retryRig(t, ch.scripted, Config{})
			r.cfg.Channels = []Served{{Channel: ch}}
			key := stoppedMidSend(t, r, began)
			r.setHeld("chat", true)
			r.pass(context.Background())
			if ch.asked != 1 || !ch.since.Equal(began) {
				t.Errorf("Find was asked %d times, since %v; want once, since %v", ch.asked, ch.since, began)
			}
			if len(ch.sets) != c.sends || c.sends > 0 && ch.sets[0].Resent != c.resent {
				t.Errorf("sent %+v; want %d sends, marked %v", ch.sets, c.sends, c.resent)
			}
			if s := sentOf(t, r, key); string(s.Ref) != c.ref || !s.Sending.IsZero() || s.Rev != 1 {
				t.Errorf("the entry's record: %+v; want ref %s", s, c.ref)
			}
		})
	}
}
