package slack_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/slack"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// limit bounds every wait of these tests.
const limit = 10 * time.Second

var (
	alice   = slackfake.User{ID: "U0ALICE", Name: "alice"}
	bob     = slackfake.User{ID: "U0BOB", Name: "bob"}
	mallory = slackfake.User{ID: "U0MALLORY", Name: "mallory"}
)

// rig is a state directory, a fake Slack workspace, and askuser's relay
// serving the Slack channel on it, as askuser serve does; alice and bob
// may answer.
type rig struct {
	t     *testing.T
	st    *session.Store
	fake  *slackfake.Server
	ch    *slack.Channel
	relay *relay.Relay
	cfg   relay.Config
	opts  rigOptions
	log   *os.File // the relay's log
	stop  func()
}

type rigOptions struct {
	opt    slack.Options
	link   string // the inbox page of every set
	noRun  bool
	config func(env map[string]string)
	scopes string // the bot token's scopes, if not chat:write alone
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	fake := slackfake.NewServer(slackfake.Config{Scopes: o.scopes})
	t.Cleanup(fake.Close)
	log, err := os.Create(filepath.Join(t.TempDir(), "relay.log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	rg := &rig{t: t, st: &session.Store{Dir: t.TempDir()}, fake: fake, log: log, opts: o}
	rg.ch = rg.channel(o.opt, o.config)
	cfg := relay.Config{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Deliveries: rg.st.Deliveries(), Sessions: rg.st,
		Channels: []relay.Served{{Channel: rg.ch, Allow: allowList(t)}}, Hold: rg.st.HoldChannel, Inbox: true,
		Log: rg.log, Tick: 20 * time.Millisecond, RetryBase: 20 * time.Millisecond}
	if o.link != "" {
		cfg.Link = func(session.Entry) string { return o.link }
	}
	rg.cfg = cfg
	rg.relay = relay.New(cfg)
	if !o.noRun {
		rg.start()
	}
	return rg
}

// env is the channel's configuration, as issue 25's table has it.
func (rg *rig) env() map[string]string {
	return map[string]string{"SLACK_BOT_TOKEN": rg.fake.BotToken(), "SLACK_APP_TOKEN": rg.fake.AppToken(),
		"ASKUSER_SLACK_CHANNEL": slackfake.Channel, "ASKUSER_SLACK_USERS": "U0ALICE, U0BOB", "ASKUSER_SLACK_API_URL": rg.fake.URL}
}

// channel builds the Slack channel as askuser does: its spec, read from
// the environment.
func (rg *rig) channel(opt slack.Options, config func(map[string]string)) *slack.Channel {
	rg.t.Helper()
	env := rg.env()
	if config != nil {
		config(env)
	}
	spec, _ := channel.Lookup("slack")
	cfg, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
	if err != nil {
		rg.t.Fatal(err)
	}
	ch, err := slack.New(cfg, opt)
	if err != nil {
		rg.t.Fatal(err)
	}
	return ch
}

func allowList(t *testing.T) channel.AllowList {
	l, err := channel.ParseAllowList("ASKUSER_SLACK_USERS", "U0ALICE,U0BOB", slack.NormaliseUser)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (rg *rig) start() {
	rg.stop = channeltest.Go(rg.relay.Run)
	rg.t.Cleanup(func() {
		rg.stop()
		if s := rg.logText(); s != "" {
			rg.t.Logf("relay log:\n%s", s)
		}
	})
}

// restart stops the relay and starts another with a channel of its own,
// as askuser serve killed and started again: what this process kept in
// memory is gone, what it kept in the state directory is not.
func (rg *rig) restart() {
	rg.stop()
	rg.ch = rg.channel(rg.opts.opt, rg.opts.config)
	rg.cfg.Channels = []relay.Served{{Channel: rg.ch, Allow: allowList(rg.t)}}
	rg.relay = relay.New(rg.cfg)
	rg.start()
}

// ask asks req through the Slack channel, as --frontend slack does, in
// session id ("" for askuser ask).
func (rg *rig) ask(id string, req ask.Request) *channeltest.Asking {
	fe := &relay.Mailboxed{Inner: &relay.Frontend{Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Session: id,
		Title: "askuser ask", Channels: []string{slack.Name}, Wake: rg.relay.Wake},
		Mailbox: rg.st.Mailbox(), Registry: rg.st.Registry(), Session: id}
	return channeltest.Ask(context.Background(), fe, req, limit)
}

// message waits for a message that shows want, and returns it.
func (rg *rig) message(want string) slackfake.Message {
	rg.t.Helper()
	m, ok := rg.fake.WaitMessage(limit, slackfake.Showing(want))
	if !ok {
		rg.t.Fatalf("no message shows %q; the workspace has:\n%s\nrelay log:\n%s", want, rg.fake.Views(), rg.logText())
	}
	return m
}

// updated waits until message ts shows text, and returns it.
func (rg *rig) updated(ts, text string) slackfake.Message {
	rg.t.Helper()
	m, ok := rg.fake.WaitMessage(limit, slackfake.UpdatedTo(ts, text))
	if !ok {
		rg.t.Fatalf("message %s never showed %q; the workspace has:\n%s\nrelay log:\n%s", ts, text, rg.fake.Views(), rg.logText())
	}
	return m
}

// ephemeral waits for a message only user sees that holds text.
func (rg *rig) ephemeral(user, text string) {
	rg.t.Helper()
	if !rg.fake.WaitTold(limit, user, text) {
		rg.t.Fatalf("%s was never told %q; ephemerals: %+v", user, text, rg.fake.Ephemerals())
	}
}

// submit is user filling in message m and pressing Submit; it waits for
// the ack, and fails the test unless it came in Slack's time.
func (rg *rig) submit(m slackfake.Message, user slackfake.User, picks ...slackfake.Pick) slackfake.Envelope {
	rg.t.Helper()
	return rg.acked(rg.fake.Submit(limit, m.TS, user, picks...))
}

// submitAsPosted is submit on message m as it was first posted.
func (rg *rig) submitAsPosted(m slackfake.Message, user slackfake.User, picks ...slackfake.Pick) slackfake.Envelope {
	rg.t.Helper()
	return rg.acked(rg.fake.SubmitAsPosted(limit, m.TS, user, picks...))
}

func (rg *rig) acked(e *slackfake.Envelope, err error) slackfake.Envelope {
	rg.t.Helper()
	if err != nil {
		rg.t.Fatal(err)
	}
	got, err := rg.fake.Acked(limit, e)
	if err != nil {
		rg.t.Fatal(err)
	}
	return got
}

// pending reports whether the set with key still waits.
func (rg *rig) pending(key string) bool {
	e, err := rg.st.Registry().Get(context.Background(), key)
	return err == nil && e.Pending()
}

func blocksOf(t *testing.T, m slackfake.Message) []map[string]any {
	t.Helper()
	var b []map[string]any
	if err := json.Unmarshal(m.Blocks, &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// logText is what the relay logged so far.
func (rg *rig) logText() string {
	b, _ := os.ReadFile(rg.log.Name())
	return string(b)
}

var (
	dbQuestion       = channeltest.DBQuestion
	featuresQuestion = channeltest.FeaturesQuestion
)
