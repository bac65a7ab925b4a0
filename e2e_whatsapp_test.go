// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// These tests drive real askuser processes against a fake of WhatsApp's
// Cloud API on loopback: askuser serve takes the webhook at the address
// WhatsApp is configured with, and the person's taps and replies come as
// signed deliveries, delivered again until serve takes them.

// The settings: secrets long enough to be looked for, and the people:
// alice is the recipient and may answer; mallory may not.
const (
	waToken       = "EAAGe2etoken0123456789abcdefXYZ"
	waPhoneID     = "106540352242922"
	waAppSecret   = "e2eappsecret0123456789abcdef"
	waVerifyToken = "e2everify0123456789abcdef"
	waAlice       = "16505551234"
	waMallory     = "16505551299"
	waVia         = "+16505551234 on WhatsApp"
)

type waRig struct {
	fake   *whatsappfake.Server
	env    []string
	state  string
	script string
	listen string // serve's address: what WhatsApp's webhook points at
	serves []*bgAskuser
}

func newWARig(t testing.TB) *waRig {
	t.Helper()
	fake := whatsappfake.New(waToken, waPhoneID, waAppSecret)
	t.Cleanup(fake.Close)
	w := &waRig{fake: fake, state: filepath.Join(t.TempDir(), "state"), script: filepath.Join(t.TempDir(), "chan.yaml"), listen: freeAddr(t)}
	if err := os.WriteFile(w.script, []byte(chanScript), 0o600); err != nil {
		t.Fatal(err)
	}
	fake.SetWebhook("http://" + w.listen + "/channels/whatsapp")
	w.env = []string{"ASKUSER_STATE_DIR=" + w.state, "XDG_CONFIG_HOME=" + t.TempDir(),
		"WHATSAPP_TOKEN=" + waToken, "WHATSAPP_APP_SECRET=" + waAppSecret, "WHATSAPP_PHONE_NUMBER_ID=" + waPhoneID,
		"WHATSAPP_VERIFY_TOKEN=" + waVerifyToken, "ASKUSER_WHATSAPP_TO=+1 650 555 1234", "ASKUSER_WHATSAPP_API_URL=" + fake.URL,
		"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}
	return w
}

// waitState waits until the registry records message id as sent.
func (w *waRig) waitState(t *testing.T, id string) {
	t.Helper()
	recorded := func() bool { // in an entry, not in one being written
		entries, _ := filepath.Glob(filepath.Join(w.state, "relay", "*.json"))
		for _, e := range entries {
			if b, _ := os.ReadFile(e); strings.Contains(string(b), id) {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(waitLimit); !recorded(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the registry never recorded %s", id)
		}
	}
}

// freeAddr is a loopback address free now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// serve starts askuser serve on the rig's address and waits until it
// serves WhatsApp.
func (w *waRig) serve(t testing.TB) *bgAskuser {
	t.Helper()
	p := startBackground(t, w.env, "serve", "--listen", w.listen)
	w.serves = append(w.serves, p)
	for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), "serving chat channels: whatsapp"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start serving WhatsApp: %s", p.stderr)
		}
	}
	return p
}

// serveStarting starts askuser serve and returns as soon as its address
// is in the state directory, likely before it holds WhatsApp: a script
// that starts serve and then asks.
func (w *waRig) serveStarting(t *testing.T) *bgAskuser {
	t.Helper()
	p := startBackground(t, w.env, "serve", "--listen", w.listen)
	w.serves = append(w.serves, p)
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(w.state, "serve.url")); err == nil {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", p.stderr)
		}
	}
}

// message waits for a message that cond accepts.
func (w *waRig) message(t testing.TB, what string, cond func(whatsappfake.Sent) bool) whatsappfake.Sent {
	t.Helper()
	m, ok := w.fake.First(waitLimit, cond)
	if !ok {
		var serves strings.Builder
		for _, p := range w.serves {
			serves.WriteString("serve: " + p.stderr.String())
		}
		t.Fatalf("no message %s; WhatsApp has:\n%s%s", what, w.fake.Transcript(), serves.String())
	}
	return m
}

func waAsking(header string) func(whatsappfake.Sent) bool {
	return func(m whatsappfake.Sent) bool { return strings.Contains(m.Text(), "*"+header+"*") }
}

func waReplyTo(id, prefix string) func(whatsappfake.Sent) bool {
	return func(m whatsappfake.Sent) bool { return m.ReplyTo == id && strings.HasPrefix(m.Text(), prefix) }
}

// took requires a delivery to have been taken.
func took(t testing.TB) func(whatsappfake.Delivery, error) whatsappfake.Delivery {
	return func(d whatsappfake.Delivery, err error) whatsappfake.Delivery {
		t.Helper()
		if err != nil || d.Final() != 200 {
			t.Fatalf("delivery %+v: %v", d, err)
		}
		return d
	}
}

// A live run asks through WhatsApp, which askuser serve holds: alice's
// tap answers it, named as hers, the agent goes on, and the outcome is a
// reply to the question.
func TestWhatsAppAnswersALiveRun(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.serve(t)
	p := startBackground(t, w.env, "run", "-p", "--output-format", "stream-json", "--frontend", "whatsapp", "--script", w.script, "Set up the project")
	m := w.message(t, "asking about the database", waAsking("Database"))
	t.Logf("the question as WhatsApp got it:\n%s\nas the phone shows it:\n%s", m.JSON, whatsappfake.Render(m))
	if ix := m.Interactive(); ix == nil || ix.Type != "button" || ix.Header.Text != "Set up the project" || m.To != waAlice {
		t.Fatalf("not reply buttons to alice under the run's title:\n%s", m.JSON)
	}
	at := time.Now()
	took(t)(w.fake.Tap(waAlice, m, 1))
	for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stdout.String(), `"via":"`+waVia+`"`); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the run did not go on: %s\n%s", p.stdout, p.stderr)
		}
	}
	t.Logf("tap to the agent going on: %v", time.Since(at).Round(time.Millisecond))
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	for _, want := range []string{`"selectedOptions":["SQLite"],"source":"person","via":"` + waVia + `"`,
		`Selected: SQLite\n   Via: ` + waVia + `\n\nProceeding with user selections.`, `"subtype":"success"`} {
		if !strings.Contains(p.stdout.String(), want) {
			t.Errorf("the run's events lack %s:\n%s", want, p.stdout)
		}
	}
	w.message(t, "saying who answered", waReplyTo(m.ID, "Answered: SQLite — by "+waVia+", "))
}

// Without askuser serve nothing can take WhatsApp's replies: a run that
// asks through it is refused at once, and told what to start.
func TestWhatsAppNeedsServe(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	run := exec.Command(askuserBin(), "run", "-p", "--frontend", "whatsapp", "--script", w.script, "Set up the project")
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), w.env...)
	out, _ := run.CombinedOutput()
	if code := run.ProcessState.ExitCode(); code != 2 || !strings.Contains(string(out), "no askuser serve holds WhatsApp") ||
		!strings.Contains(string(out), "start askuser serve with WhatsApp configured") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if len(w.fake.Sent()) != 0 {
		t.Error("a message went out")
	}
}

// A run stops to wait (exit 6) while WhatsApp's API is down; serve sends
// the question once it is back. A stranger's tap gets nothing at all;
// alice's resumes the session in the background, and what the agent did
// next is a reply to the question. The secrets are nowhere to be seen.
func TestWhatsAppLateAnswerResumesTheSession(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.fake.APIDown(2)
	serve := w.serve(t)
	run := exec.Command(askuserBin(), "run", "-p", "--verbose", "--output-format", "json", "--frontend", "whatsapp", "--ask-timeout", "1s",
		"--on-timeout", "suspend", "--script", w.script, "Set up the project")
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), w.env...)
	var stderr strings.Builder
	run.Stderr = &stderr
	out, err := run.Output()
	if run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the run should stop to wait (exit 6): %v\n%s\n%s", err, out, stderr.String())
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.SessionID == "" {
		t.Fatalf("the run's result: %v\n%s", err, out)
	}
	m := w.message(t, "once the API is back", waAsking("Database"))
	took(t)(w.fake.Tap(waMallory, m, 0))
	took(t)(w.fake.Type(waMallory, "2", m.ID))
	took(t)(w.fake.Tap(waAlice, m, 1))
	done := w.message(t, "with what the agent did next", waReplyTo(m.ID, "The agent went on and finished:"))
	if !strings.Contains(done.Text(), "Selected: SQLite\n   Via: "+waVia+"\n   Answered later: by a person") {
		t.Errorf("the reply beside the question:\n%s", done.Text())
	}
	w.message(t, "saying who answered", waReplyTo(m.ID, "Answered: SQLite — by "+waVia+", "))
	for _, s := range w.fake.Sent() {
		if s.To != waAlice {
			t.Errorf("the stranger was sent:\n%s", whatsappfake.Render(s))
		}
	}
	j, _ := os.ReadFile(filepath.Join(w.state, "sessions", res.SessionID+".jsonl"))
	if n := strings.Count(string(j), `{"type":"answered",`); n != 1 || !strings.Contains(string(j), `"via":"`+waVia+`"`) || strings.Contains(string(j), waMallory) {
		t.Errorf("the journal does not record alice's answer alone, once:\n%s", j)
	}
	sessions := exec.Command(askuserBin(), "sessions", "--json")
	sessions.Env = append(os.Environ(), w.env...)
	listed, _ := sessions.CombinedOutput()
	seen := string(out) + stderr.String() + serve.stderr.String() + string(listed) + filesUnder(t, w.state)
	for _, secret := range []string{waToken, waAppSecret, waPhoneID, waVerifyToken} {
		if strings.Contains(seen, secret) {
			t.Errorf("a secret is in the output, the log or the state directory")
		}
	}
}

// filesUnder is every file under dir, concatenated.
func filesUnder(t testing.TB, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			b.Write(data)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// askuser ask, four questions in one set, asked one at a time: a list row,
// numbers for a multi-select, typed text for Other, a number quoting the
// question. The same tap delivered twice is taken once; a tap on an
// outdated rendering is refused; a deleted message answers nothing.
func TestWhatsAppFourQuestions(t *testing.T) {
	t.Parallel()
	w := newWARig(t)
	w.serve(t)
	a := startBackground(t, w.env, "ask", "--frontend", "whatsapp", "testdata/questions/four-by-four.json")
	q1 := w.message(t, "asking the first", waAsking("Database"))
	if ix := q1.Interactive(); ix == nil || ix.Type != "list" || len(q1.Choices()) != 4 {
		t.Fatalf("four options go as a list:\n%s", q1.JSON)
	}
	stale := strings.Replace(q1.Choices()[0].ID, ".1.pick.", ".0.pick.", 1)
	d := took(t)(w.fake.Deliver(listReply(q1, stale, "wamid.stale")))
	w.message(t, "refusing the outdated tap", waReplyTo("wamid.stale", "This message is out of date"))
	_ = d
	tap := listReply(q1, q1.Choices()[3].ID, "wamid.tap-once")
	took(t)(w.fake.Deliver(tap))
	took(t)(w.fake.Deliver(tap))
	q2 := w.message(t, "asking the second", waAsking("Features"))
	took(t)(w.fake.Unsupported(waAlice))
	took(t)(w.fake.Type(waAlice, "1,3", ""))
	q3 := w.message(t, "asking the third", waAsking("Deploy"))
	took(t)(w.fake.Type(waAlice, "Our own Kubernetes cluster", q3.ID))
	q4 := w.message(t, "asking the fourth", waAsking("CI Platforms"))
	took(t)(w.fake.Type(waAlice, "2", q4.ID))
	if code := a.exit(t); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, a.stderr)
	}
	out := a.stdout.String()
	for _, want := range []string{"Selected: SQLite\n   Via: " + waVia, "Selected: TypeScript, Testing (Vitest)\n   Via: " + waVia,
		"Our own Kubernetes cluster", "Selected: macOS\n   Via: " + waVia} {
		if !strings.Contains(out, want) {
			t.Errorf("ask's answer lacks %q:\n%s", want, out)
		}
	}
	if n := slices.IndexFunc(w.fake.Sent(), waAsking("Features")); n < 0 || strings.Count(texts(w), "*Features*") != 1 {
		t.Errorf("the second question was asked %d times", strings.Count(texts(w), "*Features*"))
	}
	_ = q2
}

// listReply is the delivery of a tap on the list row id of message m.
func listReply(m whatsappfake.Sent, id, msgID string) []byte {
	return whatsappfake.Envelope(map[string]any{"messaging_product": "whatsapp",
		"metadata": map[string]string{"display_phone_number": whatsappfake.DisplayNumber, "phone_number_id": waPhoneID},
		"messages": []any{map[string]any{"from": waAlice, "id": msgID, "timestamp": strconv.FormatInt(time.Now().Unix(), 10), "type": "interactive",
			"context":     map[string]string{"from": whatsappfake.DisplayNumber, "id": m.ID},
			"interactive": map[string]any{"type": "list_reply", "list_reply": map[string]string{"id": id, "title": "x"}}}}})
}

func texts(w *waRig) string {
	var b strings.Builder
	for _, s := range w.fake.Sent() {
		b.WriteString(s.Text() + "\n")
	}
	return b.String()
}
