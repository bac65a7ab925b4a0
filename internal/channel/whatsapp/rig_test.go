package whatsapp_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/whatsapp"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// These tests run the channel as askuser serve does: the relay on a state
// directory holds it and hands it a Host, its webhook is served on
// loopback, and the fake Cloud API plays WhatsApp and the person.

// limit bounds every wait of these tests.
const limit = 10 * time.Second

// The settings: secrets long enough to be redacted, and three people, of
// whom alice (the recipient) and bob may answer.
const (
	token       = "EAAGtesttoken0123456789abcdefXYZ"
	phoneID     = "106540352242922"
	appSecret   = "appsecret0123456789abcdef"
	verifyToken = "verify-0123456789abcdef"
	alice       = "16505551234"
	bob         = "447700900123"
	mallory     = "16505551299"
	inboxLink   = "http://127.0.0.1:8765/s/sess-1?token=inbox-token"
)

type rig struct {
	t     *testing.T
	st    *session.Store
	fake  *whatsappfake.Server
	ch    *whatsapp.Channel
	hook  *httptest.Server
	log   *channeltest.Log
	opts  whatsapp.Options
	relay *relay.Relay
	cfg   relay.Config
	stop  func()
	// skew moves the channel's clock (not WhatsApp's, which stamps the
	// person's messages): a question sent now looks sent that much later.
	skew atomic.Int64
}

func newRig(t *testing.T) *rig {
	t.Helper()
	fake := whatsappfake.New(token, phoneID, appSecret)
	t.Cleanup(fake.Close)
	rg := &rig{t: t, st: &session.Store{Dir: t.TempDir()}, fake: fake, log: &channeltest.Log{},
		opts: whatsapp.Options{CallTimeout: 2 * time.Second, Sweep: 50 * time.Millisecond, HostWait: 2 * time.Second}}
	rg.opts.Now = func() time.Time { return time.Now().Add(time.Duration(rg.skew.Load())) }
	rg.build()
	return rg
}

// config is the channel's configuration, as askuser reads it.
func (rg *rig) config() channel.Config {
	rg.t.Helper()
	env := map[string]string{"WHATSAPP_TOKEN": token, "WHATSAPP_APP_SECRET": appSecret, "WHATSAPP_PHONE_NUMBER_ID": phoneID,
		"WHATSAPP_VERIFY_TOKEN": verifyToken, "ASKUSER_WHATSAPP_TO": "+1 650-555-1234",
		"ASKUSER_WHATSAPP_USERS": "+16505551234, +44 7700 900123", "ASKUSER_WHATSAPP_API_URL": rg.fake.URL}
	spec, _ := channel.Lookup(whatsapp.Name)
	cfg, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
	if err != nil {
		rg.t.Fatal(err)
	}
	return cfg
}

// build makes the channel and its webhook, as askuser serve starts.
func (rg *rig) build() {
	rg.t.Helper()
	cfg := rg.config()
	var err error
	if rg.ch, err = whatsapp.NewWith(cfg, rg.opts); err != nil {
		rg.t.Fatal(err)
	}
	rg.hook = httptest.NewServer(rg.ch.Handler())
	rg.t.Cleanup(rg.hook.Close)
	rg.fake.SetWebhook(rg.hook.URL + "/channels/whatsapp")
	rg.cfg = relay.Config{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Deliveries: rg.st.Deliveries(), Sessions: rg.st,
		Channels: []relay.Served{{Channel: rg.ch, Allow: cfg.Allow}}, Hold: rg.st.HoldChannel, Log: rg.log,
		Link: func(session.Entry) string { return inboxLink }, Tick: 20 * time.Millisecond, RetryBase: 50 * time.Millisecond}
	rg.relay = relay.New(rg.cfg)
}

// start runs the relay until the test ends, or stop.
func (rg *rig) start() *rig {
	stop := channeltest.Go(rg.relay.Run)
	rg.stop = stop
	// Like a serve that has started: the webhook takes messages only once
	// the relay serves the channel (before, it answers 503).
	for deadline := time.Now().Add(limit); !rg.ch.Served(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			rg.t.Fatalf("the relay did not serve WhatsApp within %s", limit)
		}
	}
	rg.t.Cleanup(func() {
		stop()
		if rg.t.Failed() {
			rg.t.Log("WhatsApp has:\n" + rg.fake.Transcript())
		}
		if s := rg.log.String(); s != "" {
			rg.t.Logf("relay log:\n%s", s)
		}
	})
	return rg
}

// restart is askuser serve killed and started again on the same state
// directory: a new channel, webhook and relay.
func (rg *rig) restart() {
	rg.stop()
	rg.hook.Close()
	rg.build()
	rg.start()
}

// ask asks req through WhatsApp, as --frontend whatsapp does, in the
// background.
func (rg *rig) ask(req ask.Request) *channeltest.Asking {
	fe := &relay.Mailboxed{Inner: &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(),
		Title: "Set up the project", Channels: []string{whatsapp.Name}, Wake: rg.relay.Wake},
		Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry()}
	return channeltest.Ask(context.Background(), fe, req, limit)
}

// message waits for a message that cond accepts.
func (rg *rig) message(what string, cond func(whatsappfake.Sent) bool) whatsappfake.Sent {
	rg.t.Helper()
	m, ok := rg.fake.First(limit, cond)
	if !ok {
		rg.t.Fatalf("no message %s; WhatsApp has:\n%s\nrelay log:\n%s", what, rg.fake.Transcript(), rg.log.String())
	}
	return m
}

func asking1(header string) func(whatsappfake.Sent) bool {
	return func(m whatsappfake.Sent) bool { return strings.Contains(m.Text(), "*"+header+"*") }
}

func replyTo(id, prefix string) func(whatsappfake.Sent) bool {
	return func(m whatsappfake.Sent) bool { return m.ReplyTo == id && strings.HasPrefix(m.Text(), prefix) }
}

// taken requires a delivery to have been taken (200) at once.
func taken(t *testing.T) func(whatsappfake.Delivery, error) whatsappfake.Delivery {
	return func(d whatsappfake.Delivery, err error) whatsappfake.Delivery {
		t.Helper()
		if err != nil || len(d.Statuses) != 1 || d.Final() != 200 {
			t.Fatalf("delivery %+v, %v; want 200 at once", d, err)
		}
		return d
	}
}

var dbQuestion = channeltest.DBQuestion

var langQuestion = ask.Question{Question: "Which language?", Header: "Language",
	Options: []ask.Option{{Label: "Go"}, {Label: "Rust"}, {Label: "Python"}, {Label: "Zig", Description: "Small and new"}}}

var featuresQuestion = channeltest.FeaturesQuestion

var nameQuestion = ask.Question{Question: "What should the project be called?", Header: "Name",
	Options: []ask.Option{{Label: "askuser"}, {Label: "asker"}}}
