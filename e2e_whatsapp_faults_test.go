// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// WhatsApp's faults and edges through real askuser processes: serve
// killed, rate limits, the webhook's checks, askuser channels test, and an
// approval's whole input.

// askuser serve killed (kill -9) between the question and the tap: the
// tap finds nobody at the webhook, WhatsApp delivers it again, and the
// serve started again takes it; the live run gets the answer once.
func TestWhatsAppServeKilledBeforeTheTap(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	serve := w.serve(t)
	p := startBackground(t, w.env, "run", "-p", "--output-format", "json", "--frontend", "whatsapp", "--script", w.script, "Set up the project")
	m := w.message(t, "asking", waAsking("Database"))
	w.waitState(t, m.ID) // sent, and recorded as sent
	kill(t, serve)
	tapped := make(chan whatsappfake.Delivery, 1)
	go func() { d, _ := w.fake.Tap(waAlice, m, 0); tapped <- d }()
	time.Sleep(300 * time.Millisecond) // a few deliveries fail while serve is down
	w.serve(t)
	d := <-tapped
	if d.Final() != 200 || d.Statuses[0] == 200 {
		t.Fatalf("deliveries %v; want refused while serve was down, then taken", d.Statuses)
	}
	if code := p.exit(t); code != 0 || !strings.Contains(p.stdout.String(), `Selected: PostgreSQL\n   Via: `+waVia) {
		t.Fatalf("the run: exit %d\n%s\n%s", code, p.stdout, p.stderr)
	}
	if n := strings.Count(texts(w), "*Database*"); n != 1 {
		t.Errorf("the question was sent %d times:\n%s", n, w.fake.Transcript())
	}
}

// A 429 with Retry-After: serve does not call the messages endpoint again
// before that long has passed, and the question goes out after it.
func TestWhatsAppRateLimit(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.fake.RateLimit(1, 2)
	w.serve(t)
	a := startBackground(t, w.env, "ask", "--frontend", "whatsapp", "testdata/questions/database.json")
	m := w.message(t, "asking", func(whatsappfake.Sent) bool { return true })
	var posts []whatsappfake.Call
	for _, c := range w.fake.Calls() {
		if c.Method == "POST" {
			posts = append(posts, c)
		}
	}
	if len(posts) < 2 || posts[0].Status != 429 || posts[1].At.Sub(posts[0].At) < 2*time.Second {
		t.Fatalf("calls %+v; want a 429, then nothing for 2s", posts)
	}
	took(t)(w.fake.Tap(waAlice, m, 0))
	if code := a.exit(t); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, a.stderr)
	}
}

// askuser serve's webhook: the subscription's challenge, and the checks
// before anything is read, through the real server.
func TestWhatsAppWebhookThroughServe(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.serve(t)
	if status, body, err := w.fake.Verify("subscribe", waVerifyToken, "987654321"); err != nil || status != 200 || body != "987654321" {
		t.Errorf("the challenge: %d %q %v", status, body, err)
	}
	if status, _, _ := w.fake.Verify("subscribe", "wrong", "987654321"); status != 403 {
		t.Errorf("a wrong verify token: %d", status)
	}
	body := whatsappfake.Envelope(map[string]any{"metadata": map[string]string{"phone_number_id": waPhoneID}})
	for _, c := range []struct {
		body   []byte
		sig    string
		status int
	}{
		{body, "", 401},
		{body, "sha256=00", 401},
		{body, w.fake.Sign(body), 200},
		{append(make([]byte, 1<<20), body...), "", 401},
		{append(make([]byte, 1<<20), body...), w.fake.Sign(body), 413},
	} {
		if status, err := w.fake.Post(c.body, c.sig); status != c.status {
			t.Errorf("%d bytes, signature %q: %d %v; want %d", len(c.body), c.sig, status, err, c.status)
		}
	}
}

// askuser channels test whatsapp: the settings work and a sample goes out;
// a bad token is said in one line, naming the variable, never quoting it.
func TestWhatsAppChannelsTest(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	test := func(env ...string) (int, string) {
		c := exec.Command(askuserBin(), "channels", "test", "whatsapp")
		c.Env = append(append(os.Environ(), w.env...), env...)
		out, _ := c.CombinedOutput()
		return c.ProcessState.ExitCode(), string(out)
	}
	if code, out := test(); code != 0 || !strings.Contains(out, "whatsapp: ok") {
		t.Errorf("exit %d: %s", code, out)
	}
	w.message(t, "the sample", func(m whatsappfake.Sent) bool { return strings.Contains(m.Text(), "Can you read it?") })
	code, out := test("WHATSAPP_TOKEN=EAAGwrong0123456789abcdef")
	if code != 1 || !strings.Contains(out, "WhatsApp refused the access token (WHATSAPP_TOKEN)") || strings.Contains(out, "EAAGwrong0123456789abcdef") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("a wrong token: exit %d: %s", code, out)
	}
	code, out = test("ASKUSER_WHATSAPP_TO=0650 555 1234")
	if code != 2 || !strings.Contains(out, "ASKUSER_WHATSAPP_TO") || !strings.Contains(out, "international form") {
		t.Errorf("a number in national form: exit %d: %s", code, out)
	}
}

// askuser hook's approval goes to WhatsApp with the tool's whole input as
// a code block, cut at WhatsApp's limit, and a link to the rest on askuser
// serve's page for the set, without serve's token; Allow lets the call
// run. The hook starts just after serve, before serve holds WhatsApp. No
// call to WhatsApp carries serve's token.
func TestWhatsAppApprovesAHook(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	serve := w.serveStarting(t)
	long := strings.Repeat("echo line; ", 600)
	h := exec.Command(askuserBin(), "hook", "--frontend", "whatsapp")
	var stdout, stderr strings.Builder
	h.Dir, h.Env, h.Stdout, h.Stderr = repoRoot(t), append(os.Environ(), w.env...), &stdout, &stderr
	h.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_2","tool_input":{"command":"` + long + `rm -rf build"}}`)
	if err := h.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- h.Wait() }()
	m := w.message(t, "asking to approve", waAsking("Approve"))
	t.Logf("the approval as the phone shows it:\n%s", whatsappfake.Render(m))
	body := m.Text()
	printed := serve.url(t)
	base, _, _ := strings.Cut(printed, "?")
	if n := len([]rune(body)); n > 4096 || n < 3900 || !strings.Contains(body, "```{\n  \"command\": \"echo line; echo line;") ||
		!regexp.MustCompile("```\n… cut here: all of it is at "+regexp.QuoteMeta(base)+`q/[a-z2-7]+ \(`).MatchString(body) {
		t.Errorf("the approval does not show the input as code, cut at 4,096 (%d characters), with a link to the rest:\n%s", n, body)
	}
	allow := slices.IndexFunc(m.Choices(), func(c whatsappfake.Choice) bool { return c.Title == "Allow" })
	took(t)(w.fake.Tap(waAlice, m, allow))
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("the hook did not end")
	}
	if !strings.Contains(stdout.String(), `"permissionDecision":"allow"`) {
		t.Errorf("the hook:\n%s\n%s", stdout.String(), stderr.String())
	}
	token := serveToken(t, printed)
	for _, c := range w.fake.Calls() {
		if strings.Contains(c.Body, token) {
			t.Errorf("serve's token was sent to WhatsApp, in %s %s: %.300s", c.Method, c.Path, c.Body)
		}
	}
}
