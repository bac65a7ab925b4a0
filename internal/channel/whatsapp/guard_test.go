package whatsapp_test

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// What anyone who can reach askuser serve's port can make the webhook do
// before a delivery's signature is checked: little, briefly, and a
// bounded amount of it.

// shaped is a signature of the right shape that signs nothing.
var shaped = "sha256=" + strings.Repeat("0", 64)

// stalledPost opens a POST of a 1 MiB body to the webhook with sig as
// its signature header ("" for none), sends the first sent bytes of the
// body, and goes silent.
func stalledPost(t *testing.T, rg *rig, sig string, sent int) *bufio.Reader {
	t.Helper()
	u, err := url.Parse(rg.hook.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := "POST /channels/whatsapp HTTP/1.1\r\nHost: " + u.Host + "\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n"
	if sig != "" {
		head += "X-Hub-Signature-256: " + sig + "\r\n"
	}
	if _, err := conn.Write([]byte(head + "\r\n" + strings.Repeat(" ", sent))); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(limit)); err != nil {
		t.Fatal(err)
	}
	return bufio.NewReader(conn)
}

// status reads the status of the answer on r; 0 when none came.
func status(r *bufio.Reader) int {
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// A delivery without a signature is refused before its body is read:
// the answer comes though the body never does.
func TestWebhookRefusesAnUnsignedDeliveryUnread(t *testing.T) {
	rg := newRig(t).start()
	if got := status(stalledPost(t, rg, "", 0)); got != http.StatusUnauthorized {
		t.Fatalf("a delivery without a signature, its body not sent: %d; want 401 at once", got)
	}
	if got := status(stalledPost(t, rg, "sha256=zz", 10)); got != http.StatusUnauthorized {
		t.Fatalf("a signature not of a signature's shape: %d; want 401 at once", got)
	}
}

// Bodies that stall hold at most Bodies slots, each for ReadWithin: a
// third delivery meanwhile is refused at once (503, which WhatsApp
// delivers again), the stalled ones are dropped (408), and a signed
// delivery then answers.
func TestWebhookBoundsTheBodiesItReads(t *testing.T) {
	rg := newRig(t)
	rg.opts.Webhook = channel.WebhookLimits{Bodies: 2, WaitSlot: 200 * time.Millisecond, ReadWithin: time.Second}
	rg.build()
	rg.start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	stalled := []*bufio.Reader{stalledPost(t, rg, shaped, 100), stalledPost(t, rg, shaped, 100)}
	time.Sleep(100 * time.Millisecond) // both are being read
	if got := status(stalledPost(t, rg, shaped, 100)); got != http.StatusServiceUnavailable {
		t.Errorf("a third delivery while two stall: %d; want 503", got)
	}
	for i, r := range stalled {
		if got := status(r); got != http.StatusRequestTimeout {
			t.Errorf("stalled delivery %d: %d; want 408 once its time is up", i, got)
		}
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	if got := a.Answers(t); got[0].Selected[0] != "SQLite" {
		t.Fatalf("answers %+v", got)
	}
}
