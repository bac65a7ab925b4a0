// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebCardLabel: a card's name, as a screen reader says it when the
// card is reached, reads as a phrase: "2 questions: Database and
// Features", not "Question: Database: Features". The open card and the
// answered one carry the same name.
func TestWebCardLabel(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "two.json")
	if err := os.WriteFile(path, []byte(recommendedBoth), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startBackground(t, nil, "ask", path, "--frontend", "web")
	ctx := newBrowser(t, 1280, 900)
	const want = "2 questions: Database and Features"
	label := func() string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('article.card').getAttribute('aria-label')`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(p.url(t)), chromedp.WaitVisible(css(`form.set`))); err != nil {
		t.Fatalf("loading the card: %v\nstderr: %s", err, p.stderr)
	}
	if got := label(); got != want {
		t.Errorf("the open card is named %q, want %q", got, want)
	}
	err := chromedp.Do(ctx,
		chromedp.Click(css(`input[name="q1"][value="2"]`)),
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`.card[data-state="answered"]`)),
	)
	if err != nil {
		t.Fatalf("submitting: %v\nstderr: %s", err, p.stderr)
	}
	if got := label(); got != want {
		t.Errorf("the answered card is named %q, want %q", got, want)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
}
