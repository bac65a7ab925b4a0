// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// threeQuestions is a set with a single-select question, a multi-select
// one and a question whose recommended option the person overrides with
// Other.
const threeQuestions = `{"questions":[
 {"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[
  {"label":"PostgreSQL (Recommended)","description":"Relational, rich features"},
  {"label":"MongoDB","description":"Documents, flexible schema"},
  {"label":"SQLite","description":"Embedded, no server"}]},
 {"question":"Which features should we enable?","header":"Features","multiSelect":true,"options":[
  {"label":"TypeScript","description":"Static types"},
  {"label":"ESLint + Prettier","description":"Lint and format"},
  {"label":"Tailwind CSS","description":"Utility-first CSS"},
  {"label":"Storybook","description":"Component workshop"}]},
 {"question":"Which package manager?","header":"Package Mgr","multiSelect":false,"options":[
  {"label":"npm (Recommended)","description":"Comes with Node.js"},
  {"label":"pnpm","description":"Fast, disk-efficient"},
  {"label":"yarn","description":"Workspaces, plug'n'play"}]}]}`

// wantThree is the tool result for SQLite, TypeScript and Tailwind CSS,
// and "bun" typed under Other.
const wantThree = `User answered the following questions:

1. Database (Which database should we use?)
   Selected: SQLite

2. Features (Which features should we enable?)
   Selected: TypeScript, Tailwind CSS

3. Package Mgr (Which package manager?)
   Other: bun

Proceeding with user selections.
`

func writeThree(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "three.json")
	if err := os.WriteFile(path, []byte(threeQuestions), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWebCard answers askuser ask --frontend web in a browser with the
// mouse: one option, two boxes, an Other answer typed (the recommended
// option is preselected, so the page must tick Other), submit; askuser
// prints exactly the tool result.
func TestWebCard(t *testing.T) {
	t.Parallel()
	began := time.Now()
	p := startBackground(t, nil, "ask", writeThree(t), "--frontend", "web")
	ctx := newBrowser(t, 1280, 900)
	err := chromedp.Do(ctx,
		chromedp.Navigate(p.url(t)),
		chromedp.WaitVisible(css(`form.set`)),
		chromedp.Click(css(`input[name="q0"][value="2"]`)),
		chromedp.Click(css(`input[name="q1"][value="0"]`)),
		chromedp.Click(css(`input[name="q1"][value="2"]`)),
		chromedp.SendKeys(css(`input[name="q2.other"]`), "bun"),
	)
	if err != nil {
		t.Fatalf("answering in the browser: %v\nstderr: %s", err, p.stderr)
	}
	ticked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('input[name="q2"][value="other"]').checked`))
	if err != nil || !ticked {
		t.Errorf("typing under Other did not tick Other (%v)", err)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`.card[data-state="answered"]`)),
	)
	if err != nil {
		t.Fatalf("submitting: %v\nstderr: %s", err, p.stderr)
	}
	shown, _ := chromedp.Run(ctx, chromedp.Text(css(`.card .answers`)))
	for _, want := range []string{"SQLite", "TypeScript, Tailwind CSS", "Other: bun"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the answered card shows %q, lacking %q", shown, want)
		}
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	if got := p.stdout.String(); got != wantThree {
		t.Errorf("askuser printed\n%s\nwant\n%s", got, wantThree)
	}
	t.Logf("card answered in a browser in %s (askuser start to exit)", time.Since(began).Round(time.Millisecond))
}

// TestWebCardKeyboardPhone answers the same set at a phone's width in dark
// mode with the keyboard alone: Tab, arrows, Space, typing and Enter.
func TestWebCardKeyboardPhone(t *testing.T) {
	t.Parallel()
	p := startBackground(t, nil, "ask", writeThree(t), "--frontend", "web")
	ctx := newBrowser(t, 390, 844)
	if err := chromedp.Do(ctx, darkMode(), chromedp.Navigate(p.url(t)), chromedp.WaitVisible(css(`form.set`))); err != nil {
		t.Fatal(err)
	}
	focus := func(keys, want string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(e => e.name + "=" + e.value)(document.activeElement)`))
		if err != nil || got != want {
			t.Fatalf("after %q the focus is on %q (%v), want %q", keys, got, err, want)
		}
	}
	focus("\t\t", "q0=0")         // past the header's link, to the preselected radio
	focus("\u0301\u0301", "q0=2") // arrows choose SQLite
	focus("\t\t", "q1=0")         // past Other's box, to TypeScript
	focus(" \t\t", "q1=2")        // tick it, on to Tailwind CSS
	focus(" \t\t\t\t", "q2=0")    // tick it, on past Storybook, Other and its box
	focus("\t", "q2.other=")      // Other's box of the last question
	focus("bun", "q2.other=bun")  // typing ticks Other
	if err := chromedp.Do(ctx, chromedp.KeyEvent("\r"), chromedp.WaitVisible(css(`.card[data-state="answered"]`))); err != nil {
		t.Fatalf("Enter did not submit: %v", err)
	}
	if code := p.exit(t); code != 0 || p.stdout.String() != wantThree {
		t.Errorf("exit %d, printed\n%s\nwant\n%s", code, p.stdout, wantThree)
	}
	layout, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`[document.documentElement.scrollWidth, window.innerWidth,
		getComputedStyle(document.body).backgroundColor]`))
	if err != nil {
		t.Fatal(err)
	}
	if layout[0].(float64) > layout[1].(float64) {
		t.Errorf("the page is %v px wide in a %v px window: it scrolls sideways on a phone", layout[0], layout[1])
	}
	if layout[2] != "rgb(21, 23, 28)" {
		t.Errorf("background %v under prefers-color-scheme: dark, want the dark one", layout[2])
	}
}

// TestWebScreenshots saves pictures of the card for the README, into the
// directory ASKUSER_SCREENSHOTS names (scripts/screenshots.sh); without it
// the test skips. Desktop width in light mode, phone width in dark mode.
func TestWebScreenshots(t *testing.T) {
	dir := os.Getenv("ASKUSER_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ASKUSER_SCREENSHOTS=DIR (scripts/screenshots.sh) to save screenshots of the card")
	}
	for _, shot := range []struct {
		name          string
		width, height int
		dark          bool
	}{
		{"web-card-desktop.png", 1024, 900, false},
		{"web-card-phone-dark.png", 390, 844, true},
	} {
		p := startBackground(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "web")
		ctx := newBrowser(t, shot.width, shot.height)
		steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(p.url(t)), chromedp.WaitVisible(css(`form.set`))}
		if shot.dark {
			steps = append([]chromedp.Action[chromedp.Void]{darkMode()}, steps...)
		}
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, shot.name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", shot.name, len(png))
	}
}
