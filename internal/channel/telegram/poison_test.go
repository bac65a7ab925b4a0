package telegram_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// An update the poller cannot take is skipped, said in serve's log, and
// never asked for again while alice's answer waits behind it: a reply
// far over the bound of a getUpdates answer, and an update that is not
// the Bot API's JSON.
func TestAnUpdateThatCannotBeTakenIsSkipped(t *testing.T) {
	for _, c := range []struct {
		name string
		send func(rg *rig, m telegramfake.Message)
		log  string
	}{
		{"far over the bound", func(rg *rig, m telegramfake.Message) {
			if _, err := rg.srv.Reply(alice, m.ID, strings.Repeat("x", 200<<10)); err != nil {
				t.Fatal(err)
			}
		}, "is over 64 KiB: skipped"},
		{"not the Bot API's JSON", func(rg *rig, m telegramfake.Message) {
			rg.srv.Inject("message", json.RawMessage(`{"message_id":"seven","date":"today","chat":{"id":-100500}}`))
		}, "could not be read (json: cannot unmarshal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rg := newRig(t, testTimings, func(rg *rig) { rg.ch.SetMaxUpdates(64 << 10) })
			a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_p", Questions: []ask.Question{dbQuestion}})
			m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
			c.send(rg, m)
			rg.tap(alice, m.ID, "SQLite")
			answers, err := a.Wait(t)
			if err != nil || answers[0].Selected[0] != "SQLite" {
				t.Fatalf("answers %+v, %v", answers, err)
			}
			for deadline := time.Now().Add(limit); !strings.Contains(rg.log.String(), c.log); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("serve's log does not say %q:\n%s", c.log, rg.log.String())
				}
			}
		})
	}
}
