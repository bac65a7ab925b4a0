package whatsapp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// A message from the person that opens WhatsApp's 24-hour window is read
// as things stood when they wrote it: the question it makes go out again
// is not what it answers, even when Serve's loop sends that question at
// the worst moment, while the webhook matches the message to a set (the
// two run at once in askuser serve; here the host runs the loop's step
// there).
func TestMessageOpeningTheWindowAnswersNothing(t *testing.T) {
	const alice = "16505551234"
	fake := whatsappfake.New("EAAGtesttoken0123456789abcdefXYZ", "106540352242922", "appsecret0123456789abcdef")
	t.Cleanup(fake.Close)
	env := map[string]string{"WHATSAPP_TOKEN": "EAAGtesttoken0123456789abcdefXYZ", "WHATSAPP_APP_SECRET": "appsecret0123456789abcdef",
		"WHATSAPP_PHONE_NUMBER_ID": "106540352242922", "WHATSAPP_VERIFY_TOKEN": "verify-0123456789abcdef",
		"ASKUSER_WHATSAPP_TO": "+" + alice, "ASKUSER_WHATSAPP_USERS": "+" + alice, "ASKUSER_WHATSAPP_API_URL": fake.URL}
	spec, _ := channel.Lookup(Name)
	cfg, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewWith(cfg, Options{CallTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	set := channel.Set{Key: channel.Key("", "ask_1"), Rev: 1, Title: "Set up the project", Request: ask.Request{ID: "ask_1",
		Questions: []ask.Question{{Question: "Which database?", Header: "Database", Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}}}}
	refused, _ := json.Marshal(state{Rev: 1, Refused: "outside the 24-hour window"})
	h := &windowHost{set: set, state: refused}
	ctx := context.Background()
	h.whileMatching = func() { c.advance(ctx, h, set) } // Serve's loop, at the worst moment
	c.setHost(h)

	if !c.take(ctx, inbound{From: alice, ID: "wamid.in1", Text: &struct {
		Body string `json:"body"`
	}{"hello?"}}) {
		t.Fatal("the message was not taken")
	}
	if h.delivered != nil {
		t.Fatalf("the message that opened the window was taken as the answer to the question it sent again: %+v", h.delivered.Answers)
	}
	c.advance(ctx, h, set) // the loop, once the message is read
	if st := loadState(h.saved()); len(st.Msgs) != 1 || st.Refused != "" {
		t.Errorf("the question was not sent again once the person wrote: %+v", st)
	}
}

// windowHost is a Host of one set that runs whileMatching (once) when a
// typed reply is matched to the sets waiting.
type windowHost struct {
	mu            sync.Mutex
	set           channel.Set
	state         json.RawMessage
	delivered     *channel.Tap
	whileMatching func()
}

func (h *windowHost) Lookup(ctx context.Context, key string) (channel.Set, json.RawMessage, error) {
	return h.set, h.saved(), nil
}

func (h *windowHost) saved() json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state
}

func (h *windowHost) Save(ctx context.Context, key string, st json.RawMessage) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.state = st
	return nil
}

func (h *windowHost) Deliver(ctx context.Context, t channel.Tap) channel.Verdict {
	h.delivered = &t
	return channel.Verdict{OK: true}
}

func (h *windowHost) Waiting(ctx context.Context) ([]channel.Pending, error) {
	if f := h.whileMatching; f != nil {
		h.whileMatching = nil
		f()
	}
	return []channel.Pending{{Set: h.set, State: h.saved()}}, nil
}
