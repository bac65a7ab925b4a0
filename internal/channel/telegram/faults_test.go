package telegram_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
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

// After a 429, the method is not called again before its retry_after is
// up: sendMessage (the set is sent late, not lost), answerCallbackQuery
// (the press is still answered) and the long poll.
func TestRateLimitsAreKept(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) {
		rg.srv.RateLimit("sendMessage", 2)
		rg.srv.RateLimit("answerCallbackQuery", 1)
	})
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_r", Questions: []ask.Question{dbQuestion}})
	m := rg.message("sent after the rate limit", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	calls := rg.srv.Calls("sendMessage")
	if len(calls) != 2 || calls[0].Status != 429 {
		t.Fatalf("sendMessage calls: %+v", calls)
	}
	waitedAtLeast(t, "sendMessage", calls[0], calls[1], 2*time.Second)

	rg.srv.RateLimit("getUpdates", 1)
	polls, ok := rg.srv.WaitCalls(limit, func(cs []telegramfake.Call) bool {
		limited := index(cs, "getUpdates", func(c telegramfake.Call) bool { return c.Status == 429 })
		return limited >= 0 && index(cs[limited+1:], "getUpdates", nil) >= 0
	})
	if !ok {
		t.Fatal("no poll after the rate-limited one")
	}
	limited := index(polls, "getUpdates", func(c telegramfake.Call) bool { return c.Status == 429 })
	waitedAtLeast(t, "getUpdates", polls[limited], polls[limited+1+index(polls[limited+1:], "getUpdates", nil)], time.Second)

	if got := rg.tap(alice, m.ID, "SQLite"); !strings.HasPrefix(got, "Answered: SQLite") {
		t.Errorf("the press was answered %q", got)
	}
	// The fake marks the query answered a moment before it records the
	// call's status.
	rg.srv.WaitCalls(limit, func(cs []telegramfake.Call) bool {
		n := 0
		for _, c := range cs {
			if c.Method == "answerCallbackQuery" && c.Status != 0 {
				n++
			}
		}
		return n >= 2
	})
	answers := rg.srv.Calls("answerCallbackQuery")
	if len(answers) != 2 || answers[0].Status != 429 || answers[1].Status != 200 {
		t.Fatalf("answerCallbackQuery calls: %+v", answers)
	}
	waitedAtLeast(t, "answerCallbackQuery", answers[0], answers[1], time.Second)
	if _, err := a.Wait(t); err != nil {
		t.Fatal(err)
	}
}

// index is the index of the first call of method that cond holds of (nil:
// any), or -1.
func index(cs []telegramfake.Call, method string, cond func(telegramfake.Call) bool) int {
	for i, c := range cs {
		if c.Method == method && (cond == nil || cond(c)) {
			return i
		}
	}
	return -1
}

func waitedAtLeast(t *testing.T, method string, limited, next telegramfake.Call, d time.Duration) {
	t.Helper()
	if gap := next.At.Sub(limited.Ended); gap < d {
		t.Errorf("%s was called again %s after a 429 with retry_after %s", method, gap, d)
	}
}

// A long poll that goes silent is abandoned past its timeout plus the
// grace, and polling goes on: a press made then is taken.
func TestSilentPollIsAbandoned(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) { rg.srv.Silence(1) })
	calls, ok := rg.srv.WaitCalls(limit, func(cs []telegramfake.Call) bool {
		return len(cs) >= 2 && cs[0].Method == "getUpdates" && !cs[0].Ended.IsZero() && cs[1].Method == "getUpdates"
	})
	if !ok {
		t.Fatalf("the silent poll was not abandoned and made again: %+v", calls)
	}
	silent, next := calls[0], calls[1]
	if silent.Status != 0 {
		t.Errorf("the silent poll was answered %d", silent.Status)
	}
	// Seen from the server, which notes the call a moment after the
	// client began it: a little slack, far less than the grace.
	if held := silent.Ended.Sub(silent.At); held < testTimings.Poll+testTimings.Grace-100*time.Millisecond {
		t.Errorf("the silent poll was abandoned after %s, before its timeout %s + %s", held, testTimings.Poll, testTimings.Grace)
	}
	if next.At.Before(silent.Ended) {
		t.Errorf("the next poll began before the silent one was abandoned")
	}
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_s", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	rg.tap(alice, m.ID, "SQLite")
	if _, err := a.Wait(t); err != nil {
		t.Fatal(err)
	}
}

// The API is down when the set is to be sent (a proxy's 502 page, which
// echoes the token): the set stays pending and is sent when it is back.
// The token shows in no log line, no error and no file of the state
// directory.
func TestDownAtSendAndTheTokenNeverShows(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) {
		rg.srv.EchoToken()
		rg.srv.Down("sendMessage", 3)
	})
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_d", Questions: []ask.Question{dbQuestion}})
	m := rg.message("sent once the API is back", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	if n := len(rg.srv.Calls("sendMessage")); n != 4 {
		t.Errorf("%d sendMessage calls, want 3 failed and 1 taken", n)
	}
	if log := rg.log.String(); !strings.Contains(log, "could not send question") || !strings.Contains(log, "502 Bad Gateway") {
		t.Errorf("the relay log does not say the send failed:\n%s", log)
	}
	rg.tap(alice, m.ID, "SQLite")
	if _, err := a.Wait(t); err != nil {
		t.Fatal(err)
	}
	noToken(t, "the relay log", rg.log.String())
	_ = filepath.WalkDir(rg.st.Dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			noToken(t, path, string(data))
		}
		return nil
	})
	// A channel whose server is gone fails with the transport's error,
	// which names the URL, the token in its path.
	cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": token, "ASKUSER_TELEGRAM_CHAT": "-100500",
		"ASKUSER_TELEGRAM_USERS": "1001", "ASKUSER_TELEGRAM_API_URL": "http://127.0.0.1:1"})
	gone, err := telegram.NewWithTimings(cfg, testTimings)
	if err != nil {
		t.Fatal(err)
	}
	_, err = gone.Send(context.Background(), channel.Set{Key: "abcdefghij", Rev: 1, Request: ask.Request{Questions: []ask.Question{dbQuestion}}})
	if err == nil {
		t.Fatal("a send to a closed port worked")
	}
	noToken(t, "a transport error", err.Error())
	noToken(t, "a check's error", gone.Check(context.Background()).Error())
}

func noToken(t *testing.T, where, s string) {
	t.Helper()
	_, secret, _ := strings.Cut(token, ":")
	if strings.Contains(s, secret) || strings.Contains(s, token) {
		t.Errorf("%s holds the token:\n%s", where, s)
	}
}

// A message the person deleted: its outcome has nothing to update (no
// error, no retries), and what is posted beside it, or a set that follows
// it up, is posted on its own.
func TestDeletedMessage(t *testing.T) {
	rg := newRig(t, testTimings)
	ctx, cancel := context.WithTimeoutCause(context.Background(), time.Second, ask.ErrTimeout)
	defer cancel()
	a := askBackground(ctx, rg.frontend(), ask.Request{ID: "ask_x", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	rg.srv.Delete(m.ID)
	if _, err := a.Wait(t); !errors.Is(err, ask.ErrTimeout) {
		t.Fatalf("err %v, want a timeout", err)
	}
	key := relay.Key("", "ask_x", time.Time{})
	var e session.Entry
	deadline := time.Now().Add(limit)
	for e.Sent["telegram"] == nil || e.Sent["telegram"].Shown == "" {
		if time.Now().After(deadline) {
			t.Fatalf("the outcome was never recorded as shown: %+v\n%s", e, rg.log.String())
		}
		time.Sleep(20 * time.Millisecond)
		e, _ = rg.st.Registry().Get(context.Background(), key)
	}
	edits := rg.srv.Calls("editMessageText")
	if len(edits) != 1 || edits[0].Status != 400 {
		t.Errorf("editMessageText calls: %+v", edits)
	}
	if strings.Contains(rg.log.String(), "could not update") {
		t.Errorf("the relay retried the update:\n%s", rg.log.String())
	}
	ref := e.Sent["telegram"].Ref
	if err := rg.ch.Reply(context.Background(), ref, "The agent finished: it picked SQLite."); err != nil {
		t.Fatal(err)
	}
	reply := rg.message("beside the deleted one", func(m telegramfake.Message) bool { return strings.HasPrefix(m.Text, "The agent finished") })
	follow, err := rg.ch.Send(context.Background(), channel.Set{Key: key, Rev: 1, Request: ask.Request{Questions: []ask.Question{regionQuestion}}, Thread: ref})
	if err != nil || len(follow) == 0 {
		t.Fatalf("a set following up the deleted message: %v", err)
	}
	next := rg.message("following up", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Region") })
	if reply.ReplyTo != 0 || next.ReplyTo != 0 {
		t.Errorf("posted as replies to a deleted message: %s, %s", reply, next)
	}
}

// A press handled by a process that died before confirming it (its next
// poll never reached Telegram) comes again to the next process: a tick
// is not undone by it, and the set is answered once.
func TestPressDeliveredAgainAfterACrash(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_c", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Features") })
	rg.srv.KeepUpdates(true)
	q, err := rg.srv.Press(alice, m.ID, "☐ Docs")
	if err != nil {
		t.Fatal(err)
	}
	rg.srv.Answer(limit, q)
	rg.stop()
	rg.start()
	if !rg.srv.WaitAnswered(limit, q, 2) {
		t.Fatal("the press was not delivered to the new process")
	}
	rg.srv.KeepUpdates(false)
	if got := labels(mustMessage(t, rg, m.ID)); got[0] != "☑ Docs" {
		t.Errorf("the press delivered again undid the tick: %q", got)
	}
	rg.tap(alice, m.ID, "Done")
	answers, err := a.Wait(t)
	if err != nil || strings.Join(answers[0].Selected, ",") != "Docs" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
}

// flaky is a mailbox whose next posts fail, as a disk that is full.
type flaky struct {
	relay.Mailbox
	fail atomic.Int32
}

func (f *flaky) Post(ctx context.Context, box session.Box, d session.Delivery) error {
	if f.fail.Add(-1) >= 0 {
		return errors.New("disk full")
	}
	return f.Mailbox.Post(ctx, box, d)
}

// The last answer cannot be written to the mailbox: the press is told to
// try again, and pressing again takes the answers given so far.
func TestAnswerNotTakenIsTriedAgain(t *testing.T) {
	box := &flaky{}
	rg := newRig(t, testTimings, func(rg *rig) {
		box.Mailbox = rg.cfg.Mailbox
		box.fail.Store(1)
		rg.cfg.Mailbox = box
	})
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_f", Questions: []ask.Question{regionQuestion, dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Question 1 of 2") })
	rg.tap(alice, m.ID, "us-east")
	rg.showing(m.ID, "Question 2 of 2")
	if got := rg.tap(alice, m.ID, "SQLite"); got != "Your answer could not be taken just now; try again." {
		t.Errorf("the press the mailbox failed was answered %q", got)
	}
	if got := rg.tap(alice, m.ID, "SQLite"); !strings.HasPrefix(got, "Answered: Region: us-east; Database: SQLite") {
		t.Errorf("the press again was answered %q", got)
	}
	if answers, err := a.Wait(t); err != nil || answers[0].Selected[0] != "us-east" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
}

// A token Telegram refuses stops serving, with an error that says which
// setting to fix and does not quote it.
func TestRevokedTokenStopsServing(t *testing.T) {
	srv := telegramfake.NewServer("999:another-token-entirely-0123456789abcdef")
	defer srv.Close()
	cfg := readConfig(t, map[string]string{"TELEGRAM_BOT_TOKEN": token, "ASKUSER_TELEGRAM_CHAT": "-100500",
		"ASKUSER_TELEGRAM_USERS": "1001", "ASKUSER_TELEGRAM_API_URL": srv.URL})
	ch, err := telegram.NewWithTimings(cfg, testTimings)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	err = ch.Serve(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), "TELEGRAM_BOT_TOKEN") || ctx.Err() != nil {
		t.Fatalf("Serve with a refused token: %v", err)
	}
	noToken(t, "the error", err.Error())
}

// Presses that cannot come in are said in the relay's log: after a few
// failed polls, and at once when another program reads the bot's updates.
func TestPollingTroubleIsSaid(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) { rg.srv.Down("getUpdates", 3) })
	waitLog(t, rg, "askuser: telegram: cannot get updates from Telegram, retrying; presses wait until then: getUpdates: answered 502 Bad Gateway")
	// Another poller on the same token: Telegram ends one poll with 409.
	go func() {
		for range 5 {
			resp, err := http.Post(rg.srv.URL+"/bot"+token+"/getUpdates", "application/json", strings.NewReader(`{"timeout":1}`))
			if err == nil {
				resp.Body.Close()
			}
		}
	}()
	waitLog(t, rg, "another program is reading this bot's updates (409 Conflict)")
	noToken(t, "the relay log", rg.log.String())
}

func waitLog(t *testing.T, rg *rig, want string) {
	t.Helper()
	for deadline := time.Now().Add(limit); !strings.Contains(rg.log.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the relay log lacks %q:\n%s", want, rg.log.String())
		}
	}
}

// A 429 longer than the channel waits for itself fails with an error that
// says when Telegram lets askuser call again (retry_after), so the relay
// tries then; a call before then is not made, and says the same.
func TestRateLimitSaysWhenToCallAgain(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) { rg.srv.RateLimit("sendMessage", 8) })
	ref := channel.Ref(`{"chat":-100500,"msg":1}`)
	if wrong := channeltest.CheckRetryLater(func() error { return rg.ch.Reply(context.Background(), ref, "The agent went on.") }, 8*time.Second); wrong != "" {
		t.Error(wrong)
	}
	if n := len(rg.srv.Calls("sendMessage")); n != 1 {
		t.Errorf("sendMessage was called %d times, want once", n)
	}
}

// A set sent again after askuser restarted mid-send says so on its
// message, since an earlier copy may have reached the chat.
func TestResentSetSaysSo(t *testing.T) {
	rg := newRig(t, testTimings)
	s := channel.Set{Key: channel.Key("", "ask_again"), Rev: 1, Title: "askuser ask", Resent: true,
		Request: ask.Request{ID: "ask_again", Questions: []ask.Question{dbQuestion}}}
	if _, err := rg.ch.Send(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	m := rg.message("sent again", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	if !strings.Contains(m.Text, channel.ResentNote) {
		t.Errorf("the message does not say it was sent again:\n%s", m.Text)
	}
}
