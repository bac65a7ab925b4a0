// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// The links askuser hands to chats and notifications name a page of
// askuser serve, never its token: a chat platform's servers, and everyone
// in the chat, see what is posted there.

// serveToken is the token in serve's printed URL.
func serveToken(t testing.TB, printed string) string {
	t.Helper()
	_, tok, ok := strings.Cut(printed, "?token=")
	if !ok || len(tok) != 32 {
		t.Fatalf("no token in %q", printed)
	}
	return tok
}

// noServeToken fails if the token is in any request the fake platform got.
func (cr *chanRig) noServeToken(t *testing.T, token string) {
	t.Helper()
	calls := cr.srv.Calls("")
	if len(calls) == 0 {
		t.Fatal("the platform got no calls: nothing was checked")
	}
	for _, c := range calls {
		if strings.Contains(c.Body, token) {
			t.Errorf("serve's token was sent to the platform, in %s: %.300s", c.Path, c.Body)
		}
	}
}

// The question's message links to the session's page without the token,
// as the notification does; the link opens the page in a browser that
// opened serve's printed URL before, and tells one that did not to open
// that URL. No call to the platform carries the token.
func TestChatLinksCarryNoToken(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	serve := cr.startServe(t)
	printed := serve.url(t)
	token := serveToken(t, printed)
	notified := filepath.Join(t.TempDir(), "notified")
	run := startBackground(t, cr.env, "run", "-p", "--frontend", "testchan", "--script", cr.script,
		"--notify-cmd", `printf '%s' "$ASKUSER_INBOX_URL" > '`+notified+`.part' && mv '`+notified+`.part' '`+notified+`'`, "Set up the project")
	m := cr.message(t, "asking about the database", asking("Database"))
	base, _, _ := strings.Cut(printed, "?")
	link := regexp.MustCompile(`Inbox: (\S+)`).FindStringSubmatch(m.Text)
	if link == nil || !regexp.MustCompile(`^`+regexp.QuoteMeta(base)+`s/[0-9a-f-]{36}$`).MatchString(link[1]) {
		t.Fatalf("the message does not link to the session's page, without the token:\n%s", m.Text)
	}
	var note []byte
	for deadline := time.Now().Add(waitLimit); note == nil; time.Sleep(10 * time.Millisecond) {
		note, _ = os.ReadFile(notified)
		if note == nil && time.Now().After(deadline) {
			t.Fatal("--notify-cmd never ran")
		}
	}
	if string(note) != link[1] {
		t.Errorf("the notification links to %q, want %q", note, link[1])
	}
	// A browser that never opened the printed URL is told to.
	if body, code := inboxGet(t, http.DefaultClient, link[1]); code != http.StatusForbidden || !strings.Contains(body, "Open the URL askuser serve printed") {
		t.Errorf("the link in a new browser: %d %s", code, body)
	}
	// One that did opens the page.
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	inboxGet(t, browser, printed)
	if body, code := inboxGet(t, browser, link[1]); code != http.StatusOK || !strings.Contains(body, "Which database should we use?") {
		t.Errorf("the link in a browser that opened serve's URL: %d %.300s", code, body)
	}
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := run.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, run.stderr)
	}
	cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	cr.noServeToken(t, token)
}

// A link to a page of askuser serve, followed from a chat opened in a
// browser (another site: Slack's, WhatsApp Web), opens the page in a
// browser that opened serve's printed URL once: the cookie goes with a
// link from another site. Here the chat is a page on localhost and serve
// is on 127.0.0.1, two sites to the browser.
func TestInboxLinkFromAnotherSiteOpens(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state}
	serve := startBackground(t, env, "serve")
	printed := serve.url(t)
	run := exec.Command(askuserBin(), "run", "-p", "--output-format", "json", "--script", "testdata/auth-demo.yaml")
	run.Dir, run.Env, run.Stdin = repoRoot(t), append(os.Environ(), env...), strings.NewReader("Add authentication to my app\n")
	out, _ := run.Output()
	id := sessionIDPattern.FindStringSubmatch(string(out))
	if run.ProcessState.ExitCode() != 6 || id == nil {
		t.Fatalf("the run should stop to wait (exit 6):\n%s", out)
	}
	base, _, _ := strings.Cut(printed, "?")
	link := base + "s/" + id[1]
	chat := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><title>chat</title><p><a id="link" href="`+html.EscapeString(link)+`">the question</a></p>`)
	}))
	defer chat.Close()
	chatURL := strings.Replace(chat.URL, "127.0.0.1", "localhost", 1)
	ctx := newBrowser(t, 390, 844)
	if err := chromedp.Do(ctx, chromedp.Navigate(printed), chromedp.WaitVisible(css(`#waiting`))); err != nil {
		t.Fatalf("opening serve's URL: %v", err)
	}
	step, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err := chromedp.Do(step,
		chromedp.Navigate(chatURL),
		chromedp.WaitVisible(css(`#link`)),
		chromedp.Click(css(`#link`)),
		chromedp.WaitVisible(css(`form.set`)),
	)
	if err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Text(css(`body`)))
		t.Fatalf("the link followed from the chat did not open the session's page: %v\nthe browser shows: %s", err, page)
	}
}
