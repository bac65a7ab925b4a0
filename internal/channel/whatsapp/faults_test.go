package whatsapp_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/channel/whatsapp"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
	"github.com/askuser/askuser/internal/session"
)

// A 429 with Retry-After: no call is made before that long has passed,
// and the question goes out after it.
func TestRateLimitIsWaitedOut(t *testing.T) {
	rg := newRig(t)
	rg.fake.RateLimit(1, 1)
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	var posts []whatsappfake.Call
	for _, c := range rg.fake.Calls() {
		if c.Method == http.MethodPost {
			posts = append(posts, c)
		}
	}
	if len(posts) < 2 || posts[0].Status != http.StatusTooManyRequests {
		t.Fatalf("calls %+v; want a 429 first", posts)
	}
	if gap := posts[1].At.Sub(posts[0].At); gap < time.Second {
		t.Errorf("called again %v after a 429 that said to wait 1s", gap)
	}
	taken(t)(rg.fake.Tap(alice, m, 0))
	a.Answers(t)
}

// The API down at send time: the set stays pending, is sent when the API
// is back, and is answered.
func TestAPIDownAtSendTime(t *testing.T) {
	rg := newRig(t)
	rg.fake.APIDown(3)
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	if !strings.Contains(rg.log.String(), "could not send question") {
		t.Errorf("the relay's log does not say the send failed:\n%s", rg.log.String())
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	a.Answers(t)
}

// A call that goes silent is abandoned past its timeout and made again.
func TestSilentCallIsAbandonedAndRetried(t *testing.T) {
	rg := newRig(t)
	rg.opts.CallTimeout = 300 * time.Millisecond
	rg.build()
	rg.fake.Silence(1)
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	if !strings.Contains(rg.log.String(), "did not answer in time") {
		t.Errorf("the relay's log does not say the call went silent:\n%s", rg.log.String())
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	a.Answers(t)
}

// Outside the 24-hour window WhatsApp takes a message, then says in a
// status that it did not deliver it: that is said in the log, plainly,
// and the question goes out again once the person writes.
func TestWindowClosedLaterInAStatus(t *testing.T) {
	rg := newRig(t)
	rg.fake.EnforceWindow(false)
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	first := rg.message("asking", asking1("Database"))
	waitLog(t, rg, "more than 24 hours have passed since that number last wrote")
	hello := taken(t)(rg.fake.Type(alice, "hello?", ""))
	rg.message("saying the question comes", replyTo(hello.ID, "The question is on its way"))
	again := rg.message("asking again", func(m whatsappfake.Sent) bool { return m.ID != first.ID && strings.Contains(m.Text(), "*Database*") })
	if again.Failed != 0 {
		t.Fatal("the question went out again outside the window")
	}
	taken(t)(rg.fake.Tap(alice, again, 1))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"SQLite"}) {
		t.Fatalf("answers %+v", got)
	}
}

// Outside the window WhatsApp may refuse the send at once (code 131047):
// the error says so, and the question goes out once the person writes.
func TestWindowClosedAtOnce(t *testing.T) {
	rg := newRig(t)
	rg.fake.EnforceWindow(true)
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	waitLog(t, rg, "outside that window WhatsApp delivers only approved template messages")
	if len(rg.fake.Sent()) != 0 {
		t.Fatal("a message went out outside the window")
	}
	taken(t)(rg.fake.Type(alice, "I'm here", ""))
	m := rg.message("asking", asking1("Database"))
	taken(t)(rg.fake.Tap(alice, m, 0))
	a.Answers(t)
	rg.message("saying who answered", replyTo(m.ID, "Answered: PostgreSQL — by +16505551234 on WhatsApp"))
}

func waitLog(t *testing.T, rg *rig, want string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !strings.Contains(rg.log.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the relay's log never said %q:\n%s", want, rg.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A message the person deleted arrives as an unsupported one: it answers
// nothing, loses nothing, and the question is answered afterwards.
func TestDeletedMessageLosesNothing(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, featuresQuestion}})
	m := rg.message("asking", asking1("Database"))
	taken(t)(rg.fake.Tap(alice, m, 0))
	rg.message("asking the second", asking1("Features"))
	taken(t)(rg.fake.Unsupported(alice))
	time.Sleep(100 * time.Millisecond)
	a.Pending(t)
	taken(t)(rg.fake.Type(alice, "2", ""))
	got := a.Answers(t)
	if !slices.Equal(got[0].Selected, []string{"PostgreSQL"}) || !slices.Equal(got[1].Selected, []string{"Tests"}) {
		t.Fatalf("answers %+v", got)
	}
}

// askuser serve killed between two questions of a set: the one started
// again goes on from the saved state, and a tap on the second question
// completes the set with the first answer kept.
func TestRestartBetweenQuestions(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, langQuestion}})
	m := rg.message("asking", asking1("Database"))
	taken(t)(rg.fake.Tap(alice, m, 1))
	q2 := rg.message("asking the second", asking1("Language"))
	rg.restart()
	taken(t)(rg.fake.Type(alice, "1", q2.ID))
	got := a.Answers(t)
	if !slices.Equal(got[0].Selected, []string{"SQLite"}) || !slices.Equal(got[1].Selected, []string{"Go"}) {
		t.Fatalf("answers %+v", got)
	}
}

// While no Host is there (askuser serve starting), a person's message is
// not taken: 503, so WhatsApp delivers it again, and it answers once
// serve holds the channel. A stranger's still gets 200.
func TestNoHostYetMeansDeliverAgain(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	rg.stop()
	rg.hook.Close()
	rg.build() // the webhook is served; the relay is not running yet
	d, err := rg.fake.Post(tapBody(m, alice, "wamid.early"), "")
	if err != nil || d != http.StatusUnauthorized {
		t.Fatalf("unsigned: %d %v", d, err)
	}
	body := tapBody(m, alice, "wamid.early")
	if status, _ := rg.fake.Post(body, rg.fake.Sign(body)); status != http.StatusServiceUnavailable {
		t.Fatalf("before the Host: %d; want 503", status)
	}
	stranger := tapBody(m, mallory, "wamid.stranger")
	if status, _ := rg.fake.Post(stranger, rg.fake.Sign(stranger)); status != 200 {
		t.Fatalf("a stranger before the Host: %d; want 200", status)
	}
	rg.start()
	if dl, err := rg.fake.Deliver(body); err != nil || dl.Final() != 200 {
		t.Fatalf("delivered again: %+v %v", dl, err)
	}
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"PostgreSQL"}) {
		t.Fatalf("answers %+v", got)
	}
}

func tapBody(m whatsappfake.Sent, from, id string) []byte {
	return whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": phoneID},
		"messages": []any{map[string]any{"from": from, "id": id, "type": "interactive",
			"interactive": map[string]any{"type": "button_reply", "button_reply": m.Choices()[0]}}}})
}

// A tap on an outdated rendering is refused; the newest takes answers.
func TestStaleTapIsRefused(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	old := rg.message("asking", asking1("Database"))
	key := keyOf(t, rg)
	_, err := rg.st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request.Questions[0].Options = append(e.Request.Questions[0].Options, ask.Option{Label: "DuckDB"})
		e.Rev++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fresh := rg.message("asking anew", func(m whatsappfake.Sent) bool { return m.ID != old.ID && strings.Contains(m.Text(), "3. DuckDB") })
	d := taken(t)(rg.fake.Tap(alice, old, 0))
	rg.message("refusing", replyTo(d.ID, "This message is out of date"))
	a.Pending(t)
	taken(t)(rg.fake.Tap(alice, fresh, 2))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"DuckDB"}) {
		t.Fatalf("answers %+v", got)
	}
}

// An approval shows the tool's whole input as a code block, cut at
// WhatsApp's limit, with the inbox's link for the rest.
func TestApprovalShowsTheWholeInput(t *testing.T) {
	rg := newRig(t).start()
	input := `{"command":"` + strings.Repeat("echo step; ", 900) + `"}`
	req := ask.Request{ID: "toolu_1.approval", Kind: ask.KindApproval, Detail: input, Questions: []ask.Question{{
		Header: "Approve", Question: "Allow Bash to run?\ncommand: echo step; …",
		Options: []ask.Option{{Label: "Allow", Description: "Run this call"}, {Label: "Allow for the rest of this session"}, {Label: "Deny"}}}}}
	a := rg.ask(req)
	m := rg.message("asking", asking1("Approve"))
	body := m.Text()
	if n := len([]rune(body)); n > 4096 || n < 3500 {
		t.Errorf("the body has %d characters; want it filled up to WhatsApp's 4,096", n)
	}
	for _, want := range []string{"```{\"command\":\"echo step; echo step;", "```\n… cut here: all of it is at " + inboxLink, "2. Allow for the rest of this session"} {
		if !strings.Contains(body, want) {
			t.Errorf("the approval lacks %q:\n%s", want, body)
		}
	}
	if m.Interactive() == nil || m.Interactive().Type != "list" {
		t.Errorf("an approval too long for buttons goes as a list:\n%s", m.JSON)
	}
	taken(t)(rg.fake.Tap(alice, m, 2))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"Deny"}) {
		t.Fatalf("answers %+v", got)
	}
}

// The secrets appear in no error, log line or file under the state
// directory, even when the platform echoes the token back.
func TestSecretsStayOut(t *testing.T) {
	rg := newRig(t)
	rg.fake.SetToken("EAAGanother0123456789") // the fake now refuses ours, quoting it
	rg.start()
	rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	waitLog(t, rg, "WHATSAPP_TOKEN")
	err := rg.ch.Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "WhatsApp refused the access token (WHATSAPP_TOKEN)") {
		t.Errorf("Check: %v", err)
	}
	seen := rg.log.String() + "\n" + err.Error()
	_ = filepath.WalkDir(rg.st.Dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			seen += "\n" + string(b)
		}
		return nil
	})
	for _, secret := range []string{token, appSecret, phoneID, verifyToken} {
		if strings.Contains(seen, secret) {
			t.Errorf("a secret leaked: %s", seen)
		}
	}
}

// Check reads the number and sends a sample question; what fails says
// which setting to fix.
func TestCheck(t *testing.T) {
	rg := newRig(t).start()
	rg.fake.SetPhoneID("999")
	if err := rg.ch.Check(context.Background()); err == nil || !strings.Contains(err.Error(), "WHATSAPP_PHONE_NUMBER_ID names no phone number") || strings.Contains(err.Error(), phoneID) {
		t.Errorf("a wrong phone number id: %v", err)
	}
	rg.fake.SetPhoneID(phoneID)
	rg.fake.EnforceWindow(true)
	err := rg.ch.Check(context.Background())
	if err == nil || !errors.Is(err, channel.ErrRefused) || !strings.Contains(err.Error(), "more than 24 hours") {
		t.Errorf("outside the window: %v", err)
	}

	taken(t)(rg.fake.Type(alice, "hi", "")) // the window opens
	if err := rg.ch.Check(context.Background()); err != nil {
		t.Fatalf("Check: %v", err)
	}
	m := rg.message("the sample", func(m whatsappfake.Sent) bool { return strings.Contains(m.Text(), "Can you read it?") })
	d := taken(t)(rg.fake.Tap(alice, m, 0))
	rg.message("saying it works", replyTo(d.ID, "askuser channels test: your tap reached askuser serve"))
}

// A process that does not serve the webhook cannot take replies, so it
// does not hold the channel: Serve says where replies go.
func TestServeNeedsTheWebhook(t *testing.T) {
	rg := newRig(t)
	ch, err := whatsapp.New(rg.config())
	if err != nil {
		t.Fatal(err)
	}
	err = ch.Serve(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "start askuser serve with WhatsApp configured") {
		t.Fatalf("Serve without the webhook: %v", err)
	}
}

// A rate limit fails a send with an error that says when WhatsApp lets
// askuser call again (Retry-After), so the relay tries then; a call
// before then is not made, and says the same.
func TestRateLimitSaysWhenToCallAgain(t *testing.T) {
	rg := newRig(t)
	rg.fake.RateLimit(1, 4)
	ref := channel.Ref(`{"key":"k","id":"wamid.1"}`)
	if wrong := channeltest.CheckRetryLater(func() error { return rg.ch.Reply(context.Background(), ref, "The agent went on.") }, 4*time.Second); wrong != "" {
		t.Error(wrong)
	}
	if n := len(rg.fake.Calls()); n != 1 {
		t.Errorf("WhatsApp was called %d times, want once", n)
	}
}
