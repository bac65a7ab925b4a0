package telegram_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/telegram"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// These tests run the channel as askuser does: served by the real relay
// on a real (file) state directory, against the fake Bot API.

// limit bounds every wait of these tests.
const limit = 10 * time.Second

// token is the bot's token; it must never show anywhere.
const token = "4839574812:AAFbq_fake-token-for-tests-0123456789ab"

// The people: alice and bob may answer, mallory is in the group too.
var (
	alice   = telegramfake.User{ID: 1001, FirstName: "Alice", Username: "alice"}
	bob     = telegramfake.User{ID: 1002, FirstName: "Bob"}
	mallory = telegramfake.User{ID: 666, FirstName: "Mallory", Username: "mallory"}
)

// group is the chat questions go to: a group, where anyone can press.
const group = -100500

// testTimings are short, so no test sleeps through production waits.
var testTimings = telegram.Timings{Poll: time.Second, Grace: 300 * time.Millisecond, Call: 2 * time.Second,
	InlineWait: 5 * time.Second, RetryMax: 200 * time.Millisecond}

type rig struct {
	t     testing.TB
	st    *session.Store
	srv   *telegramfake.Server
	ch    *telegram.Channel
	chCfg channel.Config
	tm    telegram.Timings
	cfg   relay.Config
	relay *relay.Relay
	log   *channeltest.Log
	stop  func()
}

// newRig starts a relay serving the channel; each before runs first (to
// set the fake's faults, or the relay's configuration).
func newRig(t testing.TB, tm telegram.Timings, before ...func(*rig)) *rig {
	t.Helper()
	srv := telegramfake.NewServer(token)
	t.Cleanup(srv.Close)
	srv.AddChat(group, "group")
	cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": token, "ASKUSER_TELEGRAM_CHAT": "-100500",
		"ASKUSER_TELEGRAM_USERS": "1001, 1002", "ASKUSER_TELEGRAM_API_URL": srv.URL})
	ch, err := telegram.NewWithTimings(cfg, tm)
	if err != nil {
		t.Fatal(err)
	}
	st := &session.Store{Dir: t.TempDir()}
	rg := &rig{t: t, st: st, srv: srv, ch: ch, chCfg: cfg, tm: tm, log: &channeltest.Log{}}
	rg.cfg = relay.Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Deliveries: st.Deliveries(), Sessions: st,
		Channels: []relay.Served{{Channel: ch, Allow: cfg.Allow}}, Hold: st.HoldChannel, Log: rg.log,
		Tick: 20 * time.Millisecond, RetryBase: 20 * time.Millisecond}
	for _, f := range before {
		f(rg)
	}
	rg.start()
	return rg
}

func readConfig(t testing.TB, env map[string]string) channel.Config {
	t.Helper()
	spec, ok := channel.Lookup(telegram.Name)
	if !ok || spec.New == nil {
		t.Fatal("the telegram channel is not registered")
	}
	cfg, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// start runs a relay until the test ends, or stop.
func (rg *rig) start() {
	rg.relay = relay.New(rg.cfg)
	stop := channeltest.Go(rg.relay.Run)
	rg.stop = stop
	rg.t.Cleanup(func() {
		stop()
		if s := rg.log.String(); s != "" {
			rg.t.Logf("relay log:\n%s", s)
		}
	})
}

// restart stops the relay and starts another with a channel of its own,
// as askuser serve killed and started again: nothing this process
// remembered in memory is known to the next.
func (rg *rig) restart() {
	rg.t.Helper()
	rg.stop()
	ch, err := telegram.NewWithTimings(rg.chCfg, rg.tm)
	if err != nil {
		rg.t.Fatal(err)
	}
	rg.ch = ch
	rg.cfg.Channels = []relay.Served{{Channel: ch, Allow: rg.chCfg.Allow}}
	rg.start()
}

// frontend is what --frontend telegram builds for askuser ask.
func (rg *rig) frontend() *relay.Mailboxed {
	fe := &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Title: "askuser ask",
		Channels: []string{telegram.Name}, Wake: func() { rg.relay.Wake() }}
	return &relay.Mailboxed{Inner: fe, Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry()}
}

// message waits for a message that cond holds of, and returns it.
func (rg *rig) message(what string, cond func(telegramfake.Message) bool) telegramfake.Message {
	rg.t.Helper()
	m, ok := rg.srv.WaitMessage(limit, cond)
	if !ok {
		rg.t.Fatalf("no message %s; the chat has:\n%s\nrelay log:\n%s", what, rg.srv.Dump(), rg.log.String())
	}
	return m
}

// showing waits until message id shows text.
func (rg *rig) showing(id int, text string) telegramfake.Message {
	rg.t.Helper()
	return rg.message("showing "+text, func(m telegramfake.Message) bool { return m.ID == id && strings.Contains(m.Text, text) })
}

// tap presses label on message id as u and returns the callback answer.
func (rg *rig) tap(u telegramfake.User, id int, label string) string {
	rg.t.Helper()
	text, err := rg.srv.Tap(limit, u, id, label)
	if err != nil {
		rg.t.Fatalf("%v\nthe chat has:\n%s\nrelay log:\n%s", err, rg.srv.Dump(), rg.log.String())
	}
	return text
}

// askBackground runs fe.Ask(req) in the background.
func askBackground(ctx context.Context, fe ask.Frontend, req ask.Request) *channeltest.Asking {
	return channeltest.Ask(ctx, fe, req, limit)
}

var (
	dbQuestion       = channeltest.DBQuestion
	featuresQuestion = channeltest.FeaturesQuestion
	nameQuestion     = ask.Question{Question: "What should the service be called?", Header: "Name",
		Options: []ask.Option{{Label: "api"}, {Label: "backend"}}}
	regionQuestion = ask.Question{Question: "Which region?", Header: "Region",
		Options: []ask.Option{{Label: "eu-north", Description: "Stockholm"}, {Label: "us-east", Description: "Virginia"}}}
)
