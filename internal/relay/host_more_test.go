package relay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Waiting lists the sets still waiting on the channel, with what the
// channel saved for each; not those settled, nor another channel's.
func TestHostListsTheSetsWaitingOnItsChannel(t *testing.T) {
	ctx := context.Background()
	st := &session.Store{Dir: t.TempDir()}
	allow, _ := channel.ParseAllowList("USERS", "U-alice", nil)
	var log strings.Builder
	s := Served{Channel: namedOnly{name: "chat"}, Allow: allow}
	h := &host{r: New(Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Sessions: st, Channels: []Served{s}, Log: &log}), s: s}
	q := ask.Question{Question: "Which?", Header: "Which", Options: []ask.Option{{Label: "A"}, {Label: "B"}}}
	put := func(id string, channels []string, o session.Outcome) string {
		key := Key("", id, time.Time{})
		_, err := st.Registry().Update(ctx, key, func(e *session.Entry, found bool) error {
			e.Request, e.Channels, e.Rev, e.Outcome = ask.Request{ID: id, Questions: []ask.Question{q}}, channels, 2, o
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return key
	}
	waiting := put("ask_1", []string{"chat"}, session.Outcome{})
	put("ask_2", []string{"chat"}, session.Outcome{State: channel.Answered, Text: "Answered: A"})
	put("ask_3", []string{"other"}, session.Outcome{})
	if err := h.Save(ctx, waiting, json.RawMessage(`{"q":1}`)); err != nil {
		t.Fatal(err)
	}
	// Another set's damaged entry (the relay's pass says so in the log)
	// hides none of the others.
	if err := os.WriteFile(filepath.Join(st.Dir, "relay", Key("", "ask_4", time.Time{})+".json"), []byte("{torn"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := h.Waiting(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Set.Key != waiting || got[0].Set.Rev != 2 || string(got[0].State) != `{"q":1}` {
		t.Fatalf("waiting: %+v", got)
	}

	h.Notice(waiting, "WhatsApp did not deliver it")
	h.Notice(waiting, "WhatsApp did not deliver it")
	if log.String() != "askuser: chat: WhatsApp did not deliver it\n" {
		t.Errorf("the log says %q; want the notice once", log.String())
	}
}
