// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The web card and the inbox in a real browser: Debian's Chromium, headless,
// driven over the DevTools protocol by chromedp (a test-only dependency: it
// is imported by _test.go files only, so it is not linked into askuser).
// Without Chromium these tests skip and say how to install it; under
// CI=true they fail, since .ci/run installs it.

// css selects by a CSS selector (chromedp's plain strings are searches).
type css = chromedp.CSS

// chromiumPath finds the browser, or skips (fails under CI=true).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "headless Chromium is not installed; install Debian's package with: apt-get install -y chromium"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (.ci/run does)")
	}
	t.Skip(msg)
	return ""
}

// browsers bounds the browsers running at once: each takes a core while it
// starts, and the machines this runs on may have two.
var browsers = make(chan struct{}, 2)

// newBrowser starts a headless Chromium with a fresh profile and a window
// of the size given, with the flags that keep it off the network (this
// machine's network is closed; without them Chromium tries Google's hosts
// at every start).
func newBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	path := chromiumPath(t)
	browsers <- struct{}{}
	t.Cleanup(func() { <-browsers })
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// darkMode makes the page see prefers-color-scheme: dark.
func darkMode() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
		return err
	})
}

// bgAskuser is the askuser binary running in the background.
type bgAskuser struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan struct{}
}

func startAskuser(t *testing.T, env []string, args ...string) *bgAskuser {
	t.Helper()
	p := &bgAskuser{stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(askuserBin(), args...)
	p.cmd.Dir = repoRoot(t)
	p.cmd.Env = append(append(os.Environ(), "NO_COLOR=1"), env...)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	// Its own session, without a controlling terminal: /dev/tty is not the
	// test runner's.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

var urlPattern = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}`)

// url waits for the page's URL on askuser's stderr.
func (p *bgAskuser) url(t *testing.T) string {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(10 * time.Millisecond) {
		if u := urlPattern.FindString(p.stderr.String()); u != "" {
			return u
		}
		select {
		case <-p.done:
			t.Fatalf("askuser exited before printing its URL: %s", p.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL on stderr: %q", p.stderr)
		}
	}
}

// exit waits for askuser to exit and returns its exit code.
func (p *bgAskuser) exit(t *testing.T) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(waitLimit):
		t.Fatalf("askuser did not exit\nstderr: %s", p.stderr)
	}
	return p.cmd.ProcessState.ExitCode()
}

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
	p := startAskuser(t, nil, "ask", writeThree(t), "--frontend", "web")
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
	p := startAskuser(t, nil, "ask", writeThree(t), "--frontend", "web")
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

// liveScript asks two sets at once, then, once both are answered, a third.
const liveScript = `model: scripted-live
turns:
  - text: Two things first.
    tool_calls:
      - id: toolu_db
        name: AskUserQuestion
        input: {questions: [{question: "Which database?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]}]}
      - id: toolu_region
        name: AskUserQuestion
        input: {questions: [{question: "Which region?", header: Region, multiSelect: false, options: [{label: eu-north, description: Stockholm}, {label: us-east, description: Virginia}]}]}
  - text: One more.
    tool_calls:
      - id: toolu_deploy
        name: AskUserQuestion
        input: {questions: [{question: "Deploy now?", header: Deploy, multiSelect: false, options: [{label: "Yes", description: Ship it}, {label: "No", description: Wait}]}]}
  - text: "Done."
`

// TestWebRunLive runs an agent whose questions are answered on the page:
// two sets at once are two cards; answering one leaves what was typed
// into the other; the next question appears by itself.
func TestWebRunLive(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "live.yaml")
	if err := os.WriteFile(script, []byte(liveScript), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), "state")}
	notified := filepath.Join(t.TempDir(), "notified.txt")
	p := startAskuser(t, env, "run", "--output-format", "stream-json", "--frontend", "web", "--script", script,
		"--notify-cmd", `printf '%s\n' "$ASKUSER_URL" >> '`+notified+`'`, "Set up the service")
	pageURL := p.url(t)
	ctx := newBrowser(t, 1024, 900)
	db, region := `article[aria-label="Question: Database"] `, `article[aria-label="Question: Region"] `
	err := chromedp.Do(ctx,
		chromedp.Navigate(pageURL),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('.card[data-state="open"]').length === 2`),
		chromedp.SendKeys(css(db+`input.other-text`), "maybe Turso"),
	)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, p.stderr)
	}
	merges, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("main").dataset.merges || "0"`))
	err = chromedp.Do(ctx,
		chromedp.Click(css(region+`input[value="1"]`)),
		chromedp.Click(css(region+`button[type="submit"]`)),
		chromedp.WaitVisible(css(`article[aria-label="Question: Region"][data-state="answered"]`)),
		// The event stream's update redraws what changed, and only that.
		chromedp.Poll[chromedp.Void](`(document.getElementById("main").dataset.merges || "0") !== "`+merges+`"`),
	)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, p.stderr)
	}
	if typed, _ := chromedp.Run(ctx, chromedp.Value(css(db+`input.other-text`))); typed != "maybe Turso" {
		t.Errorf("answering one card lost what was typed into the other: %q", typed)
	}
	err = chromedp.Do(ctx,
		chromedp.Click(css(db+`input[value="1"]`)),
		chromedp.Click(css(db+`button[type="submit"]`)),
		chromedp.WaitVisible(css(`article[aria-label="Question: Deploy"][data-state="open"]`)),
		chromedp.Click(css(`article[aria-label="Question: Deploy"] input[value="0"]`)),
		chromedp.Click(css(`article[aria-label="Question: Deploy"] button[type="submit"]`)),
	)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, p.stderr)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	events := p.stdout.String()
	for _, want := range []string{`"id":"toolu_region","session_id":`, `"selectedOptions":["us-east"],"source":"person","via":"web page"`,
		`"selectedOptions":["SQLite"],"source":"person"`, `"selectedOptions":["Yes"],"source":"person"`, `"result":"Done."`} {
		if !strings.Contains(events, want) {
			t.Errorf("the run's events lack %s:\n%s", want, events)
		}
	}
	// --notify-cmd ran for each of the three sets, with the page's address.
	if got, _ := os.ReadFile(notified); string(got) != strings.Repeat(pageURL+"\n", 3) {
		t.Errorf("--notify-cmd got ASKUSER_URL\n%s\nwant the page's URL three times", got)
	}
	if strings.Contains(events, "maybe Turso") {
		t.Error("text typed under Other counted though an option was chosen instead")
	}
}

// TestWebInbox makes a run stop waiting (the prompt came on stdin), opens
// askuser serve at a phone's width, answers the session there, and sees
// it finish on the page with the person's answer, given later.
func TestWebInbox(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state}
	run := exec.Command(askuserBin(), "run", "-p", "--script", "testdata/auth-demo.yaml")
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), env...)
	run.Stdin = strings.NewReader("Add authentication to my app\n")
	if out, err := run.CombinedOutput(); run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the run should stop to wait (exit 6): %v\n%s", err, out)
	}
	began := time.Now()
	p := startAskuser(t, env, "serve")
	ctx := newBrowser(t, 390, 844)
	err := chromedp.Do(ctx,
		chromedp.Navigate(p.url(t)),
		chromedp.WaitVisible(css(`#waiting a.session`)),
		chromedp.Click(css(`#waiting a.session`)),
		chromedp.WaitVisible(css(`form.set`)),
		chromedp.Click(css(`input[name="q0"][value="1"]`)),
		chromedp.Click(css(`input[name="q1"][value="0"]`)),
		chromedp.Click(css(`input[name="q1"][value="1"]`)),
		chromedp.Click(css(`form.set button[type="submit"]`)),
		chromedp.WaitVisible(css(`#result`)),
	)
	if err != nil {
		t.Fatalf("answering in the inbox: %v\nstderr: %s", err, p.stderr)
	}
	result, _ := chromedp.Run(ctx, chromedp.Text(css(`#result`)))
	for _, want := range []string{"Selected: JWT", "Selected: Google, GitHub", "Answered later: by a person"} {
		if !strings.Contains(result, want) {
			t.Errorf("the page's result lacks %q:\n%s", want, result)
		}
	}
	t.Logf("inbox: answered and finished in %s (serve start to result on the page)", time.Since(began).Round(time.Millisecond))
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.exit(t); code != 0 {
		t.Errorf("serve after Ctrl+C: exit %d, want 0\n%s", code, p.stderr)
	}
	sessions := exec.Command(askuserBin(), "sessions")
	sessions.Env = append(os.Environ(), env...)
	if out, _ := sessions.Output(); !strings.Contains(string(out), " finished ") {
		t.Errorf("askuser sessions after the answer:\n%s", out)
	}
	logs, _ := filepath.Glob(filepath.Join(state, "sessions", "*.d", "serve.log"))
	if len(logs) != 1 {
		t.Fatalf("serve.log beside the session: %v", logs)
	}
}

// webAnswer answers the only open card of the page at pageURL over plain
// HTTP, as the page's form would.
func webAnswer(t *testing.T, pageURL string, form url.Values) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	res, err := c.Get(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	action := regexp.MustCompile(`action="([^"]+)"`).FindSubmatch(body)
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindSubmatch(body)
	if action == nil || csrf == nil {
		t.Fatalf("no form on the page:\n%s", body)
	}
	form.Set("csrf", string(csrf[1]))
	u, _ := url.Parse(pageURL)
	req, _ := http.NewRequest("POST", u.Scheme+"://"+u.Host+string(action[1]), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Askuser-Fetch", "1")
	if res, err = c.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("answer: status %d", res.StatusCode)
	}
}

// TestWebRaceTerminal offers a set at the terminal and on the page at once
// (--frontend web,survey). Answered on the page, the terminal prompt is
// withdrawn and the terminal restored; answered at the terminal, the page
// stops. Either way askuser prints the one answer.
func TestWebRaceTerminal(t *testing.T) {
	t.Parallel()
	for _, where := range []string{"page", "terminal"} {
		t.Run(where, func(t *testing.T) {
			t.Parallel()
			outPath := filepath.Join(t.TempDir(), "out.txt")
			out, err := os.Create(outPath)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			p := startTTY(t, repoRoot(t), out, "ask", "testdata/questions/auth.json", "--frontend", "web,survey")
			p.prompt("Which authentication method should we use?")
			if where == "page" {
				pageURL := urlPattern.FindString(p.raw.String())
				if pageURL == "" {
					t.Fatalf("no URL on the terminal:\n%s", p.screen.String())
				}
				webAnswer(t, pageURL, url.Values{"q0": {"1"}, "q1": {"0", "1"}})
			} else {
				p.send(keyDown, keyEnter)
				p.prompt("Which OAuth providers should we support?")
				p.send(keySpace, keyDown, keySpace, keyEnter)
			}
			code, after := p.exit()
			if code != 0 {
				t.Fatalf("exit %d\nscreen:\n%s", code, p.screen.String())
			}
			if !p.restored(after) {
				t.Error("the terminal was not restored after the race")
			}
			if got, _ := os.ReadFile(outPath); string(got) != wantAuthJWT {
				t.Errorf("printed\n%s\nwant\n%s", got, wantAuthJWT)
			}
		})
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
		p := startAskuser(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "web")
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

// TestWebListWithoutTerminal: a frontend of a list that cannot ask here
// (survey, with no terminal) is left out, and the page still asks.
func TestWebListWithoutTerminal(t *testing.T) {
	t.Parallel()
	p := startAskuser(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "survey,web", "--verbose")
	webAnswer(t, p.url(t), url.Values{"q0": {"1"}, "q1": {"0", "1"}})
	if code := p.exit(t); code != 0 || p.stdout.String() != wantAuthJWT {
		t.Fatalf("exit %d, printed\n%s\nstderr: %s", code, p.stdout, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "askuser: asking through web: chosen with --frontend; survey left out: no terminal to ask on") {
		t.Errorf("--verbose does not say survey was left out:\n%s", p.stderr)
	}
	none := startAskuser(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "survey")
	if code := none.exit(t); code != 4 {
		t.Errorf("survey alone without a terminal: exit %d, want 4", code)
	}
}
