package relay_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/frontend"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// limit bounds every wait of these tests.
const limit = 10 * time.Second

// rig is a state directory, a fake platform, and a relay serving the
// test channel on it; alice and bob may answer.
type rig struct {
	t     *testing.T
	st    *session.Store
	srv   *channeltest.Server
	ch    *channeltest.Channel
	allow channel.AllowList
	relay *relay.Relay
	log   *channeltest.Log
	cfg   relay.Config
	stop  func()
	// skew moves the store's clock (not the relay's): a set registered
	// then looks registered that long ago.
	skew atomic.Int64
}

type rigOptions struct {
	inbox  bool
	resume func(e session.Entry) error
	run    bool // start the relay now
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	st := &session.Store{Dir: t.TempDir()}
	srv := channeltest.NewServer("tok-0123456789")
	t.Cleanup(srv.Close)
	env := map[string]string{"TESTCHAN_TOKEN": srv.Token, "ASKUSER_TESTCHAN_ROOM": "room-1",
		"ASKUSER_TESTCHAN_USERS": "U-alice,U-bob", "ASKUSER_TESTCHAN_API_URL": srv.URL}
	cfg, err := channeltest.Spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig{t: t, st: st, srv: srv, ch: channeltest.New(cfg), allow: cfg.Allow, log: &channeltest.Log{}}
	st.Now = func() time.Time { return time.Now().Add(time.Duration(rg.skew.Load())) }
	rg.cfg = relay.Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Deliveries: st.Deliveries(), Sessions: st,
		Channels: []relay.Served{{Channel: rg.ch, Allow: cfg.Allow}}, Hold: st.HoldChannel, Inbox: o.inbox,
		Resume: o.resume, Log: rg.log, Tick: 20 * time.Millisecond, RetryBase: 20 * time.Millisecond}
	rg.relay = relay.New(rg.cfg)
	if o.run {
		rg.start()
	}
	return rg
}

// start runs the relay until the test ends, or stop.
func (rg *rig) start() {
	stop := channeltest.Go(rg.relay.Run)
	rg.stop = stop
	rg.t.Cleanup(func() {
		stop()
		if s := rg.log.String(); s != "" {
			rg.t.Logf("relay log:\n%s", s)
		}
	})
}

// restart stops the relay, as a killed askuser serve, and starts another
// on the same state directory after then runs.
func (rg *rig) restart(then func()) {
	rg.stop()
	then()
	rg.relay = relay.New(rg.cfg)
	rg.start()
}

// frontend is what --frontend testchan builds for session id ("" for
// askuser ask): the relay's frontend in Mailboxed.
func (rg *rig) frontend(id string, inner ...ask.Frontend) *relay.Mailboxed {
	fe := ask.Frontend(&relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Session: id,
		Title: "askuser ask", Channels: []string{channeltest.Name}, Wake: rg.relay.Wake})
	if len(inner) > 0 {
		fe = inner[0]
	}
	return &relay.Mailboxed{Inner: fe, Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Session: id}
}

// message waits for a message cond accepts.
func (rg *rig) message(cond func(channeltest.Message) bool, what string) channeltest.Message {
	rg.t.Helper()
	m, ok := rg.srv.Find(limit, cond)
	if !ok {
		rg.t.Fatalf("no message %s; the platform has %+v\nrelay log:\n%s", what, rg.srv.Messages(), rg.log.String())
	}
	return m
}

// updated waits until message id shows an outcome, and returns it.
func (rg *rig) updated(id int) channeltest.Message {
	rg.t.Helper()
	return rg.message(func(m channeltest.Message) bool { return m.ID == id && len(m.Updates) > 0 }, "updated")
}

func titled(header string) func(channeltest.Message) bool {
	return func(m channeltest.Message) bool { return strings.Contains(m.Text, header+":") }
}

// raced is a terminal racing the channel, in Mailboxed, as --frontend
// survey,testchan builds them.
func (rg *rig) raced() (*gated, *relay.Mailboxed) {
	terminal := &gated{answer: make(chan []string)}
	chat := &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Channels: []string{channeltest.Name}, Wake: rg.relay.Wake}
	return terminal, rg.frontend("", frontend.NewRace(frontend.Racer{Name: "survey", FE: terminal}, frontend.Racer{Name: "testchan", FE: chat}))
}

// ask1 runs fe.Ask(req) in the background.
func ask1(ctx context.Context, fe ask.Frontend, req ask.Request) *channeltest.Asking {
	return channeltest.Ask(ctx, fe, req, limit)
}

var dbQuestion = channeltest.DBQuestion

var featuresQuestion = channeltest.FeaturesQuestion
