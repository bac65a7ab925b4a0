// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// askuser serve as issue 24 met it: approvals on the inbox's page, the
// Progress box, serve's log, and a token kept across restarts.

// TestWebInboxApproval follows the demo through askuser serve at a phone's
// width, as issue 24 did: its questions answered on the session's page,
// the session goes on and stops at the approval of its write, which the
// page shows whole; approved, the session finishes. The Progress box says
// where the answers are in words, with no JSON and no askuser resume to
// run, and serve logs each answer and resume on stderr.
func TestWebInboxApproval(t *testing.T) {
	t.Parallel()
	env := []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
	p := startBackground(t, env, "serve")
	inboxURL := p.url(t)
	demo := exec.Command(askuserBin(), "demo", "-p")
	demo.Dir, demo.Env = repoRoot(t), append(os.Environ(), env...)
	out, _ := demo.CombinedOutput()
	if code := demo.ProcessState.ExitCode(); code != 6 {
		t.Fatalf("the demo should stop to wait (exit 6), got %d:\n%s", code, out)
	}
	ctx := newBrowser(t, 390, 844)
	approval := `article[aria-label="Approval: Approve"]`
	err := chromedp.Do(ctx,
		chromedp.Navigate(inboxURL),
		chromedp.Click(css(`#waiting a.session`)),
		chromedp.WaitVisible(css(`form.set`)),
		chromedp.Click(css(`input[name="q0"][value="1"]`)),
		chromedp.Click(css(`input[name="q1"][value="0"]`)),
		chromedp.Click(css(`input[name="q1"][value="1"]`)),
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(approval+`[data-state="open"]`)),
		chromedp.Poll[chromedp.Void](`/now waits on/.test(document.querySelector('#progress').innerText)`),
	)
	if err != nil {
		t.Fatalf("answering the questions: %v\nstderr: %s", err, p.stderr)
	}
	checkProgress(t, ctx, "waiting on an approval of mcp__files__write_file",
		"The session went on with your answer and now waits on an approval of mcp__files__write_file: answer it above.",
		"The session took the answer: Auth Method: JWT; Providers: Google, GitHub")
	shown := openApproval(t, ctx, p)
	err = chromedp.Do(ctx,
		chromedp.Click(css(approval+` input[value="0"]`)),
		chromedp.Click(css(approval+` button[type="submit"]`)),
		chromedp.WaitVisible(css(`#result`)),
		chromedp.Poll[chromedp.Void](`/finished/.test(document.querySelector('#progress .progress-status').innerText)`),
	)
	if err != nil {
		t.Fatalf("approving: %v\nstderr: %s", err, p.stderr)
	}
	checkProgress(t, ctx, "finished", "The session went on with your answers and finished: its result is below.",
		"The session took the answer: approved mcp__files__write_file", "Tool call: mcp__files__write_file", "The session finished.")
	m := demoFolder.FindSubmatch(out)
	if m == nil {
		t.Fatalf("the demo did not say where its folder is:\n%s", out)
	}
	if written, err := os.ReadFile(filepath.Join(string(m[1]), "AUTH_PLAN.md")); err != nil || strings.TrimRight(shown, "\n") != strings.TrimRight(string(written), "\n") {
		t.Errorf("the card showed\n%s\nbut the tool wrote (%v)\n%s", shown, err, written)
	}
	clock := `askuser: \d\d:\d\d:\d\d session [0-9a-f]{8} "Add authentication to my app": `
	logged := regexp.MustCompile(`(?s)` + clock + `a person on the page answered Auth Method: JWT; Providers: Google, GitHub\n` +
		clock + `askuser resume started, for an answer given on the page by a person\n` +
		clock + `askuser resume ended: exit 6, waiting: the session stopped to wait for an answer\n` +
		clock + `a person on the page answered the approval of mcp__files__write_file: Allow\n` +
		clock + `askuser resume started, for an answer given on the page by a person\n` +
		clock + `askuser resume ended: exit 0, ok: answered; the run finished\n`)
	token := regexp.MustCompile(`token=([0-9a-f]{32})`).FindStringSubmatch(inboxURL)[1]
	if errOut := p.stderr.String(); !logged.MatchString(errOut) || strings.Count(errOut, token) != 1 {
		t.Errorf("serve's stderr does not log each answer and resume (or repeats the token):\n%s", errOut)
	}
}

// checkProgress checks the session page's status and Progress box: the
// words wanted, and never a JSON line or a command to run.
func checkProgress(t *testing.T, ctx context.Context, status, progressStatus string, lines ...string) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[document.querySelector('#summary .status').innerText,
		document.querySelector('#progress .progress-status').innerText, document.querySelector('#progress .log').innerText,
		document.getElementById('main').innerText]`))
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != status || got[1] != progressStatus {
		t.Errorf("status %q and progress %q, want %q and %q", got[0], got[1], status, progressStatus)
	}
	for _, l := range lines {
		if !strings.Contains(got[2], l) {
			t.Errorf("the Progress box lacks %q:\n%s", l, got[2])
		}
	}
	for _, never := range []*regexp.Regexp{regexp.MustCompile(`\{"type"`), regexp.MustCompile(`askuser resume [0-9a-f]{8}`),
		regexp.MustCompile(`(?i)answer it with askuser resume|Answer at a terminal`)} {
		if loc := never.FindStringIndex(got[3]); loc != nil {
			t.Errorf("the page shows %q", got[3][loc[0]:min(loc[1]+40, len(got[3]))])
		}
	}
}

// TestWebServeKeepsToken: askuser serve restarted on the same address
// prints the same URL, and a browser that opened it before (its cookie,
// or the bookmarked URL) gets in again; --new-token locks both out; a
// token file others may read stops serve with a message saying how to
// fix it.
func TestWebServeKeepsToken(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := func(args ...string) (*bgAskuser, string) {
		t.Helper()
		p := startBackground(t, env, append([]string{"serve", "--listen", addr}, args...)...)
		return p, p.url(t)
	}
	stop := func(p *bgAskuser) {
		t.Helper()
		_ = p.cmd.Process.Signal(syscall.SIGINT)
		if code := p.exit(t); code != 0 {
			t.Fatalf("serve after Ctrl+C: exit %d\n%s", code, p.stderr)
		}
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	get := func(c *http.Client, u string) (int, string) {
		t.Helper()
		res, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
	p, first := serve()
	if code, _ := get(browser, first); code != http.StatusOK {
		t.Fatalf("first visit: status %d", code)
	}
	stop(p)

	p, again := serve()
	if again != first {
		t.Errorf("after a restart the URL is %s, want the same %s", again, first)
	}
	if code, _ := get(&http.Client{Timeout: 10 * time.Second, Jar: newJar()}, first); code != http.StatusOK {
		t.Errorf("the URL printed before the restart: status %d", code)
	}
	if code, _ := get(browser, "http://"+addr+"/"); code != http.StatusOK {
		t.Errorf("the cookie from before the restart: status %d", code)
	}
	stop(p)

	p, fresh := serve("--new-token")
	if fresh == first {
		t.Fatal("--new-token kept the token")
	}
	if code, body := get(&http.Client{Timeout: 10 * time.Second, Jar: newJar()}, first); code != http.StatusForbidden || !strings.Contains(body, "the token in this URL is wrong") {
		t.Errorf("the old URL after --new-token: status %d, %s", code, body)
	}
	if code, _ := get(browser, "http://"+addr+"/"); code != http.StatusForbidden {
		t.Errorf("the old cookie after --new-token: status %d", code)
	}
	stop(p)

	tokenFile := filepath.Join(state, "serve.token")
	if err := os.Chmod(tokenFile, 0o644); err != nil {
		t.Fatal(err)
	}
	p = startBackground(t, env, "serve", "--listen", addr)
	want := "askuser: serve: the page's token: " + tokenFile + " has mode 0644: others may read or change the token that answers your agents' questions; make it yours alone (chmod 600 " + tokenFile + "), or run askuser serve --new-token\n"
	if code := p.exit(t); code != 1 || p.stderr.String() != want {
		t.Errorf("serve with a token file others may read: exit %d, stderr\n%s\nwant exit 1 and\n%s", code, p.stderr, want)
	}
}

func newJar() http.CookieJar {
	jar, _ := cookiejar.New(nil)
	return jar
}
