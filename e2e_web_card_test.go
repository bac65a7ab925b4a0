// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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
		click(`input[name="q0"][value="2"]`),
		click(`input[name="q1"][value="0"]`),
		click(`input[name="q1"][value="2"]`),
		typeInto(`input[name="q2.other"]`, "bun"),
	)
	if err != nil {
		t.Fatalf("answering in the browser: %v\nstderr: %s", err, p.stderr)
	}
	ticked, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('input[name="q2"][value="other"]').checked`))
	if err != nil || !ticked {
		t.Errorf("typing under Other did not tick Other (%v)", err)
	}
	err = chromedp.Do(ctx,
		click(`form.set button[type="submit"]`),
		chromedp.WaitVisible(css(`.card[data-state="answered"]`)),
	)
	if err != nil {
		t.Fatalf("submitting: %v\nstderr: %s", err, p.stderr)
	}
	wants := []string{"SQLite", "TypeScript, Tailwind CSS", "Other: bun"}
	shown := pageText(t, ctx, `.card .answers`, wants...)
	for _, want := range wants {
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
	press := func(keys, want string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
			t.Fatal(err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(e => e.name + "=" + e.value)(document.activeElement)`))
		if err != nil || got != want {
			t.Fatalf("after %q the focus is on %q (%v), want %q", keys, got, err, want)
		}
	}
	press("\t\t", "q0=0")         // past the header's link, to the preselected radio
	press("\u0301\u0301", "q0=2") // arrows choose SQLite
	press("\t\t", "q1=0")         // past Other's box, to TypeScript
	press(" \t\t", "q1=2")        // tick it, on to Tailwind CSS
	press(" \t\t\t\t", "q2=0")    // tick it, on past Storybook, Other and its box
	press("\t", "q2.other=")      // Other's box of the last question
	press("bun", "q2.other=bun")  // typing ticks Other
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

// TestWebScreenshots saves pictures of the card for the manual, into the
// directory ASKUSER_SCREENSHOTS names (scripts/screenshots.sh); without it
// the test skips. Desktop width in light mode, phone width in dark mode:
// the question card, and the demo's approval with its whole input open.
func TestWebScreenshots(t *testing.T) {
	dir := os.Getenv("ASKUSER_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ASKUSER_SCREENSHOTS=DIR (scripts/screenshots.sh) to save screenshots of the card")
	}
	for _, shot := range []struct {
		name          string
		width, height int
		dark          bool
		approval      bool
	}{
		{"web-card-desktop.png", 1024, 900, false, false},
		{"web-card-phone-dark.png", 390, 844, true, false},
		{"web-approval-desktop.png", 1024, 900, false, true},
		{"web-approval-phone-dark.png", 390, 844, true, true},
	} {
		// A subtest each: its browser is let go when it ends, and only two
		// run at once (newBrowser).
		t.Run(shot.name, func(t *testing.T) {
			args := []string{"ask", "testdata/questions/auth.json", "--frontend", "web"}
			if shot.approval {
				args = []string{"demo", "--frontend", "web"}
			}
			p := startBackground(t, []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}, args...)
			if shot.approval {
				webAnswer(t, p.url(t), url.Values{"q0": {"1"}, "q1": {"0", "1"}})
			}
			ctx := newBrowser(t, shot.width, shot.height)
			steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(p.url(t)), chromedp.WaitVisible(css(`form.set`))}
			if shot.dark {
				steps = append([]chromedp.Action[chromedp.Void]{darkMode()}, steps...)
			}
			if err := chromedp.Do(ctx, steps...); err != nil {
				t.Fatal(err)
			}
			if shot.approval {
				openApproval(t, ctx, p)
			}
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, shot.name), png, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes", shot.name, len(png))
		})
	}
}

// keycloak is an answer typed under Other: a long line with no break in
// it for the page to wrap.
const keycloak = "also a self-hosted Keycloak realm for the staff accounts, reached at " +
	"https://sso.internal.example.com/realms/staff/protocol/openid-connect/auth?client_id=admin-console&scope=openid%20profile%20email, " +
	"with the same session length as the public providers"

var demoFolder = regexp.MustCompile(`askuser demo: the agent's folder is (\S+)`)

// openApproval waits on the page for the demo's approval of its write,
// then opens the card's "Show the whole input" with the keyboard alone
// (focus, Enter), and returns what the disclosure shows as the file's
// content.
func openApproval(t *testing.T, ctx context.Context, p *bgAskuser) string {
	t.Helper()
	card := `article[aria-label="Approval of mcp__files__write_file"][data-state="open"] `
	err := chromedp.Do(ctx,
		chromedp.WaitVisible(css(card+`details.detail > summary`)),
		focus(card+`details.detail > summary`),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(css(card+`details.detail[open] .jv-block`)),
	)
	if err != nil {
		t.Fatalf("opening the approval's input: %v\nstderr: %s", err, p.stderr)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+card+`.jv-field.jv-wide .jv-block').innerText`))
	if err != nil {
		t.Fatal(err)
	}
	return shown
}

// TestWebApprovalCard is issue 24's "approving blind": the demo's write of
// AUTH_PLAN.md, approved on the --frontend web page at a phone's width in
// dark mode. The card's disclosure shows the whole file, line for line,
// exactly what the tool then writes, wrapped to the phone's width.
func TestWebApprovalCard(t *testing.T) {
	t.Parallel()
	env := []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
	p := startBackground(t, env, "demo", "--frontend", "web")
	pageURL := p.url(t)
	// The two questions first; the text under Other makes the plan longer
	// than the 492 characters of the issue's.
	webAnswer(t, pageURL, url.Values{"q0": {"1"}, "q1": {"0", "1", "other"}, "q1.other": {keycloak}})
	ctx := newBrowser(t, 390, 844)
	if err := chromedp.Do(ctx, darkMode(), chromedp.Navigate(pageURL)); err != nil {
		t.Fatal(err)
	}
	shown := openApproval(t, ctx, p)
	layout, err := chromedp.Run(ctx, chromedp.Evaluate[[]any](`(b => [document.documentElement.scrollWidth, window.innerWidth,
		getComputedStyle(b).whiteSpace, getComputedStyle(b).overflowWrap, getComputedStyle(b.closest('details')).backgroundColor])(
		document.querySelector('details.detail[open] .jv-block'))`))
	if err != nil {
		t.Fatal(err)
	}
	if layout[0].(float64) > layout[1].(float64) {
		t.Errorf("with the input open the page is %v px wide in a %v px window", layout[0], layout[1])
	}
	if layout[2] != "pre-wrap" || layout[3] != "anywhere" || layout[4] != "rgb(21, 23, 28)" {
		t.Errorf("the content block: white-space %v, overflow-wrap %v, background %v; want pre-wrap, anywhere, the dark one", layout[2], layout[3], layout[4])
	}
	err = chromedp.Do(ctx,
		click(`article[aria-label="Approval of mcp__files__write_file"] input[value="0"]`),
		click(`article[aria-label="Approval of mcp__files__write_file"] button[type="submit"]`),
		chromedp.WaitVisible(css(`article[aria-label="Approval of mcp__files__write_file"][data-state="answered"] details.detail`)),
	)
	if err != nil {
		t.Fatalf("approving: %v\nstderr: %s", err, p.stderr)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	m := demoFolder.FindStringSubmatch(p.stderr.String())
	if m == nil {
		t.Fatalf("the demo did not say where its folder is: %s", p.stderr)
	}
	written, err := os.ReadFile(filepath.Join(m[1], "AUTH_PLAN.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(written) < 480 || strings.Count(string(written), "\n") < 10 {
		t.Fatalf("the plan written is %d bytes in %d lines; the issue's was 492 characters", len(written), strings.Count(string(written), "\n"))
	}
	if strings.TrimRight(shown, "\n") != strings.TrimRight(string(written), "\n") {
		t.Errorf("the card showed\n%s\nbut the tool wrote\n%s", shown, written)
	}
}
