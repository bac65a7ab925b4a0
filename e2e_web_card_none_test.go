// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWebCardAsksBeforeNothingSelected: Submit with nothing ticked on a
// multi-select asks "Submit with nothing selected?" first, as the
// terminal does; "Go back" sends nothing, and only a yes sends the
// question as skipped. The server refuses an empty multi-select that does
// not say it was confirmed (a stray Submit, a page without the question).
func TestWebCardAsksBeforeNothingSelected(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := os.WriteFile(path, []byte(recommendedBoth), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startBackground(t, nil, "ask", path, "--frontend", "web")
	printed := p.url(t)

	// Over plain HTTP, as a page without the question would post it.
	// The URL is printed as the server starts; the card's set comes a
	// moment later, so the page is loaded until it shows the form.
	c := &http.Client{Jar: newJar(), Timeout: 10 * time.Second}
	var page string
	var action, csrf []string
	for deadline := time.Now().Add(waitLimit); action == nil || csrf == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no form on the card:\n%s", page)
		}
		res, err := c.Get(printed)
		if err != nil {
			t.Fatal(err)
		}
		page = readBody(t, res)
		action, csrf = formAction.FindStringSubmatch(page), formCSRF.FindStringSubmatch(page)
	}
	if !strings.Contains(page, `name="q1.none"`) || !strings.Contains(page, "Submit with nothing selected") {
		t.Errorf("the card offers no way to confirm nothing selected without its script:\n%s", page)
	}
	u, _ := url.Parse(printed)
	post := func(form url.Values) (int, string) {
		form.Set("csrf", csrf[1])
		req, _ := http.NewRequest("POST", u.Scheme+"://"+u.Host+action[1], strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("X-Askuser-Fetch", "1")
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res.StatusCode, readBody(t, res)
	}
	if code, body := post(url.Values{"q0": {"1"}}); code != http.StatusBadRequest || !strings.Contains(body, `"Features": nothing is ticked`) {
		t.Errorf("an empty multi-select, not confirmed: status %d, %q; want 400", code, body)
	}

	ctx := newBrowser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(printed), chromedp.WaitVisible(css(`form.set`))); err != nil {
		t.Fatalf("loading the card: %v\nstderr: %s", err, p.stderr)
	}
	err := chromedp.Do(ctx,
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`.confirm-none`)),
	)
	if err != nil {
		t.Fatalf("Submit with nothing ticked: %v\nstderr: %s", err, p.stderr)
	}
	asked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('.confirm-none p').textContent`))
	if err != nil || asked != "Nothing is ticked for “Features”. Submit with nothing selected?" {
		t.Errorf("the page asked %q (%v)", asked, err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(css(`.confirm-none .no`)), chromedp.WaitNotPresent(css(`.confirm-none`))); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.done:
		t.Fatalf("Go back sent the answer:\n%s", p.stdout)
	case <-time.After(300 * time.Millisecond):
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`.confirm-none .yes`)),
		chromedp.Click(css(`.confirm-none .yes`)),
		chromedp.WaitVisible(css(`.card[data-state="answered"]`)),
	)
	if err != nil {
		t.Fatalf("confirming: %v\nstderr: %s", err, p.stderr)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	if out := p.stdout.String(); !strings.Contains(out, "2. Features (Which features should we enable?)\n   Skipped: no option chosen and no text given") {
		t.Errorf("askuser printed\n%s", out)
	}
}

// readBody reads and closes a response's body.
func readBody(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
