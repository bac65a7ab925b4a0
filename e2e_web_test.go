// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"regexp"
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
	return newBrowserWith(t, width, height)
}

// newBrowserWith is newBrowser with more of Chromium's options.
func newBrowserWith(t *testing.T, width, height int, more ...chromedp.ExecAllocatorOption) context.Context {
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
	opts = append(opts, more...)
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

func startBackground(t testing.TB, env []string, args ...string) *bgAskuser {
	t.Helper()
	return startBackgroundStdin(t, env, nil, args...)
}

// startBackgroundStdin is startBackground with stdin read from in (nil:
// the null device).
func startBackgroundStdin(t testing.TB, env []string, in io.Reader, args ...string) *bgAskuser {
	t.Helper()
	p := &bgAskuser{stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = exec.Command(askuserBin(), args...)
	p.cmd.Dir, p.cmd.Stdin = repoRoot(t), in
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
func (p *bgAskuser) exit(t testing.TB) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(waitLimit):
		t.Fatalf("askuser did not exit\nstderr: %s", p.stderr)
	}
	return p.cmd.ProcessState.ExitCode()
}

// webAnswer answers the only open card of the page at pageURL over plain
// HTTP, as the page's form would.
func webAnswer(t *testing.T, pageURL string, form url.Values) {
	t.Helper()
	c, base := inboxClient(t, pageURL) // the first visit sets the cookie
	action, csrf := openForm(t, c, pageURL)
	form.Set("csrf", csrf)
	if body, status := inboxPost(t, c, base+action, form); status != http.StatusOK {
		t.Fatalf("answer: status %d: %s", status, body)
	}
}

// webForm is the form of a card as a browser loaded it: what it posts to,
// with the page's cookie and form token.
type webForm struct {
	c            *http.Client
	action, csrf string
}

// loadWebForm loads the page at pageURL until it shows a card's form, and
// keeps the first one.
func loadWebForm(t *testing.T, pageURL string) webForm {
	t.Helper()
	c, base := inboxClient(t, pageURL) // the first visit sets the cookie
	action, csrf := openForm(t, c, pageURL)
	return webForm{c: c, action: base + action, csrf: csrf}
}

// submit posts form as the page's script does and returns the reply.
func (f webForm) submit(t *testing.T, form url.Values) (int, string) {
	t.Helper()
	form.Set("csrf", f.csrf)
	body, status := inboxPost(t, f.c, f.action, form)
	return status, body
}
