package whatsapp_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
	"github.com/askuser/askuser/internal/session"
)

// The subscription: the verify token gets hub.challenge back; anything
// else gets 403.
func TestWebhookPassesTheChallenge(t *testing.T) {
	rg := newRig(t)
	if status, body, err := rg.fake.Verify("subscribe", verifyToken, "1158201444"); err != nil || status != 200 || body != "1158201444" {
		t.Errorf("the right verify token: %d %q %v", status, body, err)
	}
	for _, c := range [][2]string{{"subscribe", "verify-wrong"}, {"subscribe", ""}, {"unsubscribe", verifyToken}} {
		if status, body, _ := rg.fake.Verify(c[0], c[1], "1158201444"); status != http.StatusForbidden || strings.Contains(body, "1158201444") {
			t.Errorf("mode %q, token %q: %d %q", c[0], c[1], status, body)
		}
	}
}

// A delivery without a signature is refused with 401 before anything
// else; a body over 1 MiB with 413 before its signature is looked at; a
// wrong signature gets 401. None changes anything.
func TestWebhookRefusesBigAndUnsignedBodies(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	answer := whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": phoneID},
		"messages": []any{map[string]any{"from": alice, "id": "wamid.forged1", "type": "interactive",
			"interactive": map[string]any{"type": "button_reply", "button_reply": m.Choices()[0]}}}})
	big := append(bytes.Repeat([]byte(" "), 1<<20), answer...)
	other := &whatsappfake.Server{AppSecret: "another-app-secret"}
	for _, c := range []struct {
		what   string
		body   []byte
		sig    string
		status int
	}{
		{"over 1 MiB, unsigned", big, "", http.StatusUnauthorized},
		{"over 1 MiB, signed", big, rg.fake.Sign(big), http.StatusRequestEntityTooLarge},
		{"unsigned", answer, "", http.StatusUnauthorized},
		{"signed with another secret", answer, other.Sign(answer), http.StatusUnauthorized},
		{"signed, then changed", bytes.Replace(answer, []byte("forged1"), []byte("forged2"), 1), rg.fake.Sign(answer), http.StatusUnauthorized},
		{"not hex", answer, "sha256=zz", http.StatusUnauthorized},
		{"sha1", answer, "sha1=" + strings.TrimPrefix(rg.fake.Sign(answer), "sha256="), http.StatusUnauthorized},
	} {
		if status, err := rg.fake.Post(c.body, c.sig); err != nil || status != c.status {
			t.Errorf("%s: %d, %v; want %d", c.what, status, err, c.status)
		}
	}
	time.Sleep(100 * time.Millisecond) // what a taken answer would do is under way by now
	a.Pending(t)
	if _, ok, _ := rg.st.Mailbox().Get(context.Background(), session.Box{Key: keyOf(t, rg)}); ok {
		t.Fatal("the mailbox holds an answer")
	}
	if n := len(rg.fake.Sent()); n != 1 {
		t.Errorf("WhatsApp got %d messages; want the question alone", n)
	}
	// The same body, signed, answers.
	if status, err := rg.fake.Post(answer, rg.fake.Sign(answer)); err != nil || status != 200 {
		t.Fatalf("signed: %d, %v", status, err)
	}
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"PostgreSQL"}) {
		t.Fatalf("answers %+v", got)
	}
}

// Every signed POST within the limit gets 200, whatever it holds; none of
// these answers anything, and a stranger hears nothing at all.
func TestWebhookTakesAnythingSigned(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	tap := func(from, phone string) []byte {
		return whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": phone},
			"messages": []any{map[string]any{"from": from, "id": "wamid.x" + from + phone, "type": "interactive",
				"interactive": map[string]any{"type": "button_reply", "button_reply": m.Choices()[1]}}}})
	}
	for _, body := range [][]byte{
		[]byte("not json"), []byte(`{"object":"page","entry":[]}`), []byte(`{"object":"whatsapp_business_account","entry":"x"}`), nil,
		tap(mallory, phoneID),           // a stranger
		tap("6505551234", phoneID),      // alice's number without its country code
		tap("165055512345", phoneID),    // alice's number and a digit more
		tap(alice, "999999999999999"),   // another number of the same business
		tap("+1 (650) 555-12", phoneID), // not a number
	} {
		if status, err := rg.fake.Post(body, rg.fake.Sign(body)); err != nil || status != 200 {
			t.Errorf("%.60s: %d, %v", body, status, err)
		}
	}
	for _, st := range []string{"sent", "delivered", "read"} {
		taken(t)(rg.fake.Status(m.ID, alice, st))
	}
	taken(t)(rg.fake.Type(mallory, "2", ""))
	taken(t)(rg.fake.Type(mallory, "2", m.ID))
	time.Sleep(150 * time.Millisecond)
	a.Pending(t)
	for _, s := range rg.fake.Sent() {
		if s.To != alice {
			t.Errorf("WhatsApp sent %s to %s:\n%s", s.Type, s.To, whatsappfake.Render(s))
		}
	}
	if n := len(rg.fake.Sent()); n != 1 {
		t.Errorf("WhatsApp got %d messages; want the question alone", n)
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"SQLite"}) {
		t.Fatalf("answers %+v", got)
	}
}

// The same tap delivered twice, and a second tap after it, answer once:
// the first is taken, the redelivery is dropped by its id, and the
// second tap is told the set no longer waits.
func TestTheSameTapTwiceAnswersOnce(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, featuresQuestion}})
	m := rg.message("asking", asking1("Database"))
	first := whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": phoneID},
		"messages": []any{map[string]any{"from": alice, "id": "wamid.tap1", "type": "interactive",
			"interactive": map[string]any{"type": "button_reply", "button_reply": m.Choices()[1]}}}})
	for range 3 {
		taken(t)(rg.fake.Deliver(first))
	}
	q2 := rg.message("asking the second", asking1("Features"))
	time.Sleep(150 * time.Millisecond)
	if n := len(rg.fake.Sent()); n != 2 {
		t.Fatalf("WhatsApp got %d messages; a redelivered tap answered the second question too", n)
	}
	last := whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": phoneID},
		"messages": []any{map[string]any{"from": alice, "id": "wamid.tap2", "type": "text", "text": map[string]string{"body": "1"},
			"context": map[string]string{"id": q2.ID}}}})
	taken(t)(rg.fake.Deliver(last))
	taken(t)(rg.fake.Deliver(last))
	got := a.Answers(t)
	if !slices.Equal(got[0].Selected, []string{"SQLite"}) || !slices.Equal(got[1].Selected, []string{"Docs"}) {
		t.Fatalf("answers %+v", got)
	}
	rg.message("saying who answered", replyTo(m.ID, "Answered: "))
	d := taken(t)(rg.fake.Tap(alice, m, 0))
	rg.message("refusing the late tap", replyTo(d.ID, "This question set is answered already."))
	time.Sleep(100 * time.Millisecond)
	if n := strings.Count(texts(rg), "Answered: "); n != 1 {
		t.Errorf("the outcome was said %d times:\n%s", n, texts(rg))
	}
}

func texts(rg *rig) string {
	var b strings.Builder
	for _, s := range rg.fake.Sent() {
		b.WriteString(s.Text() + "\n")
	}
	return b.String()
}

func keyOf(t *testing.T, rg *rig) string {
	t.Helper()
	es, err := rg.st.Registry().List(context.Background())
	if err != nil || len(es) != 1 {
		t.Fatalf("registry: %d entries, %v", len(es), err)
	}
	return es[0].Key
}
