package slack_test

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
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/slack"
	"github.com/askuser/askuser/internal/channel/slack/slackfake"
	"github.com/askuser/askuser/internal/session"
)

// A 429 with Retry-After keeps askuser from calling that method again
// before the time Slack gave; the set is sent then, and nothing is lost.
func TestRateLimitIsWaitedOut(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.fake.RateLimit("chat.postMessage", 1)
	a := rg.ask("", ask.Request{ID: "ask_429", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	calls := rg.fake.Calls("chat.postMessage")
	if len(calls) != 2 || calls[0].Status != 429 {
		t.Fatalf("chat.postMessage was called %d times (%+v); want the 429, then one call", len(calls), calls)
	}
	if gap := calls[1].At.Sub(calls[0].At); gap < time.Second {
		t.Errorf("chat.postMessage was called again %v after a 429 asking for 1s", gap)
	}
	rg.submit(m, alice, slackfake.Pick{Options: []int{1}})
	a.Answers(t)
}

// The API down at send time: the set stays waiting, is sent when the API
// is back, and is answered as any other.
func TestAPIDownAtSendTime(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.fake.Fail("chat.postMessage", 3, 503)
	a := rg.ask("", ask.Request{ID: "ask_down", Questions: []ask.Question{dbQuestion}})
	m := rg.message("Which database should we use?")
	if n := len(rg.fake.Calls("chat.postMessage")); n != 4 {
		t.Errorf("chat.postMessage was called %d times; want 3 failures and a success", n)
	}
	if !strings.Contains(rg.logText(), "could not send question") {
		t.Errorf("the failures were not logged:\n%s", rg.logText())
	}
	rg.submit(m, alice, slackfake.Pick{Options: []int{0}})
	a.Answers(t)
}

// A socket that goes silent (no ping, no frame) is abandoned past its
// timeout plus the grace, and another is opened; taps then arrive on it.
func TestSilentSocketIsAbandoned(t *testing.T) {
	rg := newRig(t, rigOptions{opt: slack.Options{PingTimeout: 300 * time.Millisecond, Grace: 200 * time.Millisecond}})
	rg.connections(1)
	rg.fake.Silence()
	silent := time.Now()
	rg.connections(2)
	if d := time.Since(silent); d < 300*time.Millisecond {
		t.Errorf("the socket was abandoned %v after it went silent; it may be silent for 500ms, and was pinged at most 200ms before", d)
	}
	a := rg.ask("", ask.Request{ID: "ask_silent", Questions: []ask.Question{dbQuestion}})
	rg.submit(rg.message("Which database should we use?"), alice, slackfake.Pick{Options: []int{1}})
	a.Answers(t)
}

// A dropped socket and Slack's disconnect are both followed by a new
// connection, and taps arrive on it.
func TestSocketReconnects(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.connections(1)
	rg.fake.Drop()
	rg.connections(2)
	rg.fake.Disconnect()
	rg.connections(3)
	a := rg.ask("", ask.Request{ID: "ask_reconnect", Questions: []ask.Question{dbQuestion}})
	e := rg.submit(rg.message("Which database should we use?"), alice, slackfake.Pick{Options: []int{1}})
	if e.Conn != 3 {
		t.Errorf("the tap went to connection %d, want the third", e.Conn)
	}
	a.Answers(t)
}

// connections waits until n connections were opened and one is open.
func (rg *rig) connections(n int) {
	rg.t.Helper()
	if !rg.fake.WaitConnections(limit, n) {
		opened, open := rg.fake.Connections()
		rg.t.Fatalf("%d connections opened (%d open), want %d", opened, open, n)
	}
}

// A message the person deleted: its outcome has nowhere to go, which is
// no error to retry for ever; a reply beside it goes to the channel.
func TestDeletedMessage(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_deleted", Questions: []ask.Question{dbQuestion}}
	a := rg.ask("", req)
	m := rg.message("Which database should we use?")
	rg.fake.Delete(m.TS)
	// Answered elsewhere (the inbox page posts to the mailbox).
	key := channel.Key("", req.ID)
	answer, _ := ask.Selection(dbQuestion, []string{"SQLite"}, "", ask.SourcePerson)
	if err := rg.st.Mailbox().Post(context.Background(), session.Box{Key: key},
		session.Delivery{Answers: []ask.Answer{answer}, By: "a person on the inbox page", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	a.Answers(t)
	if !eventually(func() bool {
		e, err := rg.st.Registry().Get(context.Background(), key)
		return err == nil && e.Sent["slack"] != nil && e.Sent["slack"].Shown == channel.Answered
	}) {
		t.Fatal("the outcome of a deleted message was never taken as shown")
	}
	if n := len(rg.fake.Calls("chat.update")); n != 1 {
		t.Errorf("chat.update was called %d times for a deleted message", n)
	}
	e, _ := rg.st.Registry().Get(context.Background(), key)
	if err := rg.ch.Reply(context.Background(), e.Sent["slack"].Ref, "The agent finished: *done* <!here>"); err != nil {
		t.Fatal(err)
	}
	ms := rg.fake.Messages()
	last := ms[len(ms)-1]
	if last.Thread != "" || !strings.Contains(last.View(), "The agent finished: *done* &lt;!here&gt;") {
		t.Errorf("the reply beside a deleted message: thread %q\n%s", last.Thread, last.View())
	}
}

// A reply goes in the set's thread while its message is there.
func TestReplyGoesInTheThread(t *testing.T) {
	rg := newRig(t, rigOptions{})
	req := ask.Request{ID: "ask_reply", Questions: []ask.Question{dbQuestion}}
	rg.ask("", req)
	m := rg.message("Which database should we use?")
	ref, _ := json.Marshal(map[string]string{"channel": m.Channel, "ts": m.TS})
	if err := rg.ch.Reply(context.Background(), channel.Ref(ref), strings.Repeat("long final text ", 400)); err != nil {
		t.Fatal(err)
	}
	ms := rg.fake.Messages()
	if last := ms[len(ms)-1]; last.Thread != m.TS || !strings.HasSuffix(strings.TrimSpace(last.View()), "…") {
		t.Errorf("the reply: thread %q, want %q; cut: %.80s…", last.Thread, m.TS, last.View())
	}
}

// Tokens appear in no error, no log line and no file of the state
// directory, even when the API (or a proxy) quotes them back.
func TestTokensNeverLeak(t *testing.T) {
	rg := newRig(t, rigOptions{})
	rg.fake.EchoTokens(true)
	rg.fake.Refuse("chat.postMessage", "channel_not_found")
	a := rg.ask("", ask.Request{ID: "ask_tokens", Questions: []ask.Question{dbQuestion}})
	_ = a
	if !rg.fake.WaitFor(limit, func(*slackfake.Server) bool { return strings.Contains(rg.logText(), "channel_not_found") }) {
		t.Fatalf("the refusal was not logged:\n%s", rg.logText())
	}
	var texts []string
	texts = append(texts, rg.logText())
	bad := rg.channel(slack.Options{}, func(env map[string]string) { env["SLACK_BOT_TOKEN"] = "xoxb-wrong-0123456789" })
	err := bad.Check(context.Background())
	if err == nil {
		t.Fatal("a wrong bot token passed the check")
	}
	texts = append(texts, err.Error())
	_ = filepath.WalkDir(rg.st.Dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			texts = append(texts, path+": "+string(b))
		}
		return nil
	})
	for _, text := range texts {
		for _, tok := range []string{rg.fake.BotToken(), rg.fake.AppToken(), "xoxb-wrong-0123456789", "xoxb-", "xapp-"} {
			if strings.Contains(text, tok) {
				t.Errorf("a token (%s…) leaked: %.300s", tok[:5], text)
			}
		}
	}
}

// askuser channels test names what is wrong in one line, and sends a
// sample question when nothing is; a tap on the sample is acknowledged
// and recorded nowhere.
func TestCheck(t *testing.T) {
	rg := newRig(t, rigOptions{})
	if err := rg.ch.Check(context.Background()); err != nil {
		t.Fatalf("a good setup failed the check: %v", err)
	}
	m := rg.message("This is how askuser asks here.")
	rg.connections(1)
	rg.submit(m, alice, slackfake.Pick{Options: []int{0}})
	rg.ephemeral(alice.ID, "sample question")
	rg.fake.AddChannel("C0OUTSIDE", false)
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"bad bot token", map[string]string{"SLACK_BOT_TOKEN": "xoxb-wrong"}, "SLACK_BOT_TOKEN was refused: invalid_auth"},
		{"bad app token", map[string]string{"SLACK_APP_TOKEN": "xapp-wrong"}, "SLACK_APP_TOKEN was refused: invalid_auth"},
		{"unknown channel", map[string]string{"ASKUSER_SLACK_CHANNEL": "C0NOWHERE"}, "Slack knows no channel C0NOWHERE that the bot can see"},
		{"bot not invited", map[string]string{"ASKUSER_SLACK_CHANNEL": "C0OUTSIDE"}, "the bot is not in channel C0OUTSIDE: invite it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := rg.channel(slack.Options{}, func(env map[string]string) {
				for k, v := range tc.env {
					env[k] = v
				}
			})
			err := ch.Check(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("Check = %v, want one line with %q", err, tc.want)
			}
		})
	}
}

// A bot token without chat:write is named for the scope it lacks.
func TestCheckNamesAMissingScope(t *testing.T) {
	fake := slackfake.NewServer(slackfake.Config{Scopes: "commands,users:read"})
	t.Cleanup(fake.Close)
	rg := &rig{t: t, fake: fake}
	err := rg.channel(slack.Options{}, nil).Check(context.Background())
	if err == nil || err.Error() != "SLACK_BOT_TOKEN lacks the chat:write scope: add it under OAuth & Permissions, then reinstall the app" {
		t.Errorf("Check = %v", err)
	}
}

// Settings that cannot work are refused before anything is called, each
// naming what to set.
func TestNewRefusesBadSettings(t *testing.T) {
	rg := &rig{t: t, fake: slackfake.NewServer(slackfake.Config{})}
	t.Cleanup(rg.fake.Close)
	for _, tc := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"SLACK_BOT_TOKEN": "xapp-1-swapped"}, "SLACK_BOT_TOKEN holds an app-level token (xapp-…); it belongs in SLACK_APP_TOKEN"},
		{map[string]string{"SLACK_APP_TOKEN": "xoxb-swapped"}, "SLACK_APP_TOKEN holds a bot token (xoxb-…); it belongs in SLACK_BOT_TOKEN"},
		{map[string]string{"SLACK_BOT_TOKEN": "xoxp-user"}, "SLACK_BOT_TOKEN is not a bot token: it should start with xoxb-"},
		{map[string]string{"ASKUSER_SLACK_CHANNEL": "#general"}, `ASKUSER_SLACK_CHANNEL: "#general" is not a Slack channel id`},
		{map[string]string{"ASKUSER_SLACK_API_URL": "https://proxy.example/slack"}, "must end in /api/"},
		{map[string]string{"ASKUSER_SLACK_API_URL": "http://proxy.example/api/"}, "plain http to another machine"},
	} {
		env := rg.env()
		for k, v := range tc.set {
			env[k] = v
		}
		spec, _ := channel.Lookup("slack")
		cfg, err := spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
		if err == nil {
			_, err = slack.New(cfg, slack.Options{})
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.set, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "swapped") || strings.Contains(err.Error(), "xoxp-user")) {
			t.Errorf("the error quotes a token: %v", err)
		}
	}
}

// An app-level token Slack refuses ends Serve with an error that says
// which variable to fix; a passing fault would not.
func TestRevokedAppTokenStopsServing(t *testing.T) {
	rg := newRig(t, rigOptions{noRun: true})
	ch := rg.channel(slack.Options{}, func(env map[string]string) { env["SLACK_APP_TOKEN"] = "xapp-revoked" })
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	err := ch.Serve(ctx, nil)
	if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "SLACK_APP_TOKEN was refused: invalid_auth") {
		t.Errorf("Serve = %v", err)
	}
}

// The silence a socket is allowed can be tuned from the environment (for
// tests, and proxies that ping less often); a bad value names the
// variable.
func TestOptionsFromEnv(t *testing.T) {
	env := map[string]string{slack.EnvPingTimeout: "300ms", slack.EnvGrace: " 2s "}
	o, err := slack.OptionsFromEnv(func(n string) string { return env[n] })
	if err != nil || o.PingTimeout != 300*time.Millisecond || o.Grace != 2*time.Second {
		t.Errorf("OptionsFromEnv = %+v, %v", o, err)
	}
	env[slack.EnvGrace] = "soon"
	if _, err := slack.OptionsFromEnv(func(n string) string { return env[n] }); err == nil || err.Error() != `ASKUSER_SLACK_GRACE: "soon" is not a positive duration like 30s` {
		t.Errorf("a bad duration: %v", err)
	}
}

// A set that follows up an earlier one goes in that one's thread (its
// root, when the earlier one was itself in a thread); when the earlier
// message was deleted, the set goes to the channel.
func TestSendFollowsUpInTheThread(t *testing.T) {
	rg := newRig(t, rigOptions{noRun: true})
	ctx := context.Background()
	set := func(id string, thread channel.Ref) channel.Set {
		return channel.Set{Key: channel.Key("s", id), Rev: 1, Title: "t", Thread: thread,
			Request: ask.Request{ID: id, Questions: []ask.Question{dbQuestion}}}
	}
	first, err := rg.ch.Send(ctx, set("one", nil))
	if err != nil {
		t.Fatal(err)
	}
	second, err := rg.ch.Send(ctx, set("two", first))
	if err != nil {
		t.Fatal(err)
	}
	third, err := rg.ch.Send(ctx, set("three", second))
	if err != nil {
		t.Fatal(err)
	}
	ms := rg.fake.Messages()
	if ms[1].Thread != ms[0].TS || ms[2].Thread != ms[0].TS {
		t.Errorf("threads %q, %q; want both under %s", ms[1].Thread, ms[2].Thread, ms[0].TS)
	}
	rg.fake.Delete(ms[0].TS)
	if _, err := rg.ch.Send(ctx, set("four", third)); err != nil {
		t.Fatal(err)
	}
	if ms = rg.fake.Messages(); ms[3].Thread != "" {
		t.Errorf("a follow-up of a deleted thread went to thread %q", ms[3].Thread)
	}
}

// eventually polls cond until it holds or limit passes: for state the
// fake does not see change (the registry).
func eventually(cond func() bool) bool {
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// A method Slack rate-limited fails with an error that says when Slack
// lets askuser call it again, so the relay tries then, on the dot; until
// then the method is not called at all.
func TestRateLimitSaysWhenToCallAgain(t *testing.T) {
	rg := newRig(t, rigOptions{noRun: true})
	rg.fake.RateLimit("chat.update", 3)
	ref := channel.Ref(`{"channel":"` + slackfake.Channel + `","ts":"1.000001"}`)
	update := func() error {
		return rg.ch.Update(context.Background(), ref, channel.Outcome{State: channel.Answered, Text: "Answered"})
	}
	if wrong := channeltest.CheckRetryLater(update, 3*time.Second); wrong != "" {
		t.Error(wrong)
	}
	if n := len(rg.fake.Calls("chat.update")); n != 1 {
		t.Errorf("chat.update was called %d times, want once", n)
	}
}
