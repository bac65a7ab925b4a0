// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// recommendedBoth is a single select and a multi-select, each with
// options marked "(Recommended)".
const recommendedBoth = `{"questions":[
 {"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[
  {"label":"SQLite","description":"Embedded"},
  {"label":"PostgreSQL (Recommended)","description":"Relational"}]},
 {"question":"Which features should we enable?","header":"Features","multiSelect":true,"options":[
  {"label":"TypeScript (Recommended)","description":"Static types"},
  {"label":"ESLint + Prettier (Recommended)","description":"Lint and format"},
  {"label":"Storybook","description":"Component workshop"}]}]}`

// TestWebCardTicksNothingForYou: the card agrees with the terminal. A
// single select starts on its recommended option, as at the terminal's
// cursor; a multi-select starts with nothing ticked, since a tick the
// person did not make is not their choice. "Recommended" still shows
// beside the options, and only the ticks made reach the answer.
func TestWebCardTicksNothingForYou(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := os.WriteFile(path, []byte(recommendedBoth), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startBackground(t, nil, "ask", path, "--frontend", "web")
	ctx := newBrowser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(p.url(t)), chromedp.WaitVisible(css(`form.set`))); err != nil {
		t.Fatalf("loading the card: %v\nstderr: %s", err, p.stderr)
	}
	checked, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('form.set input:checked')].map(i => i.name + '=' + i.value)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(checked) != 1 || checked[0] != "q0=1" {
		t.Errorf("the card starts with %v checked; want only the single select's recommended option (q0=1)", checked)
	}
	recs, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('input[name="q1"] ~ .opt-body .rec').length`))
	if err != nil || recs != 2 {
		t.Errorf("the multi-select shows %d Recommended marks (%v), want 2", recs, err)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`input[name="q1"][value="1"]`)),
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`.card[data-state="answered"]`)),
	)
	if err != nil {
		t.Fatalf("submitting: %v\nstderr: %s", err, p.stderr)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	want := `User answered the following questions:

1. Database (Which database should we use?)
   Selected: PostgreSQL

2. Features (Which features should we enable?)
   Selected: ESLint + Prettier

Proceeding with user selections.
`
	if got := p.stdout.String(); got != want {
		t.Errorf("askuser printed\n%s\nwant\n%s", got, want)
	}
}
