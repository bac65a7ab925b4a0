// The askuser binary runs on these systems; so do the pty helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
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
	p := startBackground(t, env, "run", "--output-format", "stream-json", "--frontend", "web", "--script", script,
		"--notify-cmd", `printf '%s\n' "$ASKUSER_URL" >> '`+notified+`'`, "Set up the service")
	pageURL := p.url(t)
	ctx := newBrowser(t, 1024, 900)
	db, region := `article[aria-label="Question: Database"] `, `article[aria-label="Question: Region"] `
	err := chromedp.Do(ctx,
		chromedp.Navigate(pageURL),
		chromedp.WaitVisible(css(`form.set`)), // once moved to the page's own name
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('.card[data-state="open"]').length === 2`),
		typeInto(db+`input.other-text`, "maybe Turso"),
	)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, p.stderr)
	}
	merges, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("main").dataset.merges || "0"`))
	err = chromedp.Do(ctx,
		click(region+`input[value="1"]`),
		click(region+`button[type="submit"]`),
		chromedp.WaitVisible(css(`article[aria-label="Question: Region"][data-state="answered"]`)),
		// The event stream's update redraws what changed, and only that.
		chromedp.Poll[chromedp.Void](`(document.getElementById("main").dataset.merges || "0") !== "`+merges+`"`),
	)
	if err != nil {
		t.Fatalf("%v\nstderr: %s", err, p.stderr)
	}
	typed, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('`+db+`input.other-text').value`))
	if err != nil || typed != "maybe Turso" {
		t.Errorf("answering one card lost what was typed into the other: %q (%v)", typed, err)
	}
	err = chromedp.Do(ctx,
		click(db+`input[value="1"]`),
		click(db+`button[type="submit"]`),
		chromedp.WaitVisible(css(`article[aria-label="Question: Deploy"][data-state="open"]`)),
		click(`article[aria-label="Question: Deploy"] input[value="0"]`),
		click(`article[aria-label="Question: Deploy"] button[type="submit"]`),
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

// TestWebInbox is the "done when": a headless run stops to wait
// (its prompt came on stdin); its notification links to the session's
// page in askuser serve; a person opens it at a phone's width, taps the
// answers, and sees the session finish with them, marked as a person's.
// Then the inbox lists it as finished, with its transcript.
func TestWebInbox(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state")
	env := []string{"ASKUSER_STATE_DIR=" + state}
	began := time.Now()
	p := startBackground(t, env, "serve")
	inboxURL := p.url(t)
	notified := filepath.Join(t.TempDir(), "notified")
	run := exec.Command(askuserBin(), "run", "-p", "--script", "testdata/auth-demo.yaml",
		"--notify-cmd", `printf '%s' "$ASKUSER_INBOX_URL" > '`+notified+`'`)
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), env...)
	run.Stdin = strings.NewReader("Add authentication to my app\n")
	if out, err := run.CombinedOutput(); run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the run should stop to wait (exit 6): %v\n%s", err, out)
	}
	link, _ := os.ReadFile(notified)
	base, _, _ := strings.Cut(inboxURL, "?")
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(base) + `s/[0-9a-f-]{36}$`).Match(link) {
		t.Fatalf("the notification links to %q, want the session's page in the inbox at %s, without the token", link, inboxURL)
	}
	ctx := newBrowser(t, 390, 844)
	err := chromedp.Do(ctx,
		chromedp.Navigate(inboxURL), // the phone opened serve's URL once
		chromedp.WaitVisible(css(`#waiting`)),
		chromedp.Navigate(string(link)),
		chromedp.WaitVisible(css(`form.set`)),
		click(`input[name="q0"][value="1"]`),
		click(`input[name="q1"][value="0"]`),
		click(`input[name="q1"][value="1"]`),
		click(`form.set button[type="submit"]`),
		chromedp.WaitVisible(css(`#result`)),
	)
	if err != nil {
		t.Fatalf("answering in the inbox: %v\nstderr: %s", err, p.stderr)
	}
	wants := []string{"Selected: JWT", "Selected: Google, GitHub", "Answered later: by a person"}
	result := pageText(t, ctx, `#result`, wants...)
	for _, want := range wants {
		if !strings.Contains(result, want) {
			t.Errorf("the page's result lacks %q:\n%s", want, result)
		}
	}
	t.Logf("inbox: answered and finished in %s (serve start to result on the page)", time.Since(began).Round(time.Millisecond))
	err = chromedp.Do(ctx, click(`#summary a[href="/"]`), chromedp.WaitVisible(css(`#others a.session`)))
	if err != nil {
		t.Fatal(err)
	}
	// Listed as it is once serve's resume has ended: until then it may
	// still say resuming.
	listed := pageText(t, ctx, `#others`, "Add authentication to my app", "finished")
	if !strings.Contains(listed, "Add authentication to my app") || !strings.Contains(listed, "finished") {
		t.Errorf("the inbox lists:\n%s", listed)
	}
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	if code := p.exit(t); code != 0 {
		t.Errorf("serve after Ctrl+C: exit %d, want 0\n%s", code, p.stderr)
	}
	if _, err := os.Stat(filepath.Join(state, "serve.url")); !os.IsNotExist(err) {
		t.Errorf("serve left its address behind after stopping (%v)", err)
	}
	logs, _ := filepath.Glob(filepath.Join(state, "sessions", "*.d", "serve.log"))
	if len(logs) != 1 {
		t.Fatalf("serve.log beside the session: %v", logs)
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
			out, outPath := outFile(t)
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
				p.prompt("Review your answers")
				p.send(keyEnter)
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
			// The terminal shows the answers that counted, and where
			// they were given when that was not here.
			var lines []string
			for _, l := range strings.Split(p.screen.String(), "\n") {
				lines = append(lines, strings.TrimRight(l, " "))
			}
			screen := strings.Join(lines, "\n")
			if where == "page" && !strings.Contains(screen, "Answered in the browser:\n  ✔ Auth Method: JWT\n  ✔ Providers: Google, GitHub") {
				t.Errorf("the terminal does not say the page answered:\n%s", screen)
			}
			if where == "terminal" && (!strings.Contains(screen, "✔ Auth Method: JWT\n✔ Providers: Google, GitHub") || strings.Contains(screen, "Answered in")) {
				t.Errorf("the terminal does not show its own answers:\n%s", screen)
			}
		})
	}
}

// TestWebListWithoutTerminal: a frontend of a list that cannot ask here
// (survey, with no terminal) is left out, and the page still asks.
func TestWebListWithoutTerminal(t *testing.T) {
	t.Parallel()
	p := startBackground(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "survey,web", "--verbose")
	webAnswer(t, p.url(t), url.Values{"q0": {"1"}, "q1": {"0", "1"}})
	if code := p.exit(t); code != 0 || p.stdout.String() != wantAuthJWT {
		t.Fatalf("exit %d, printed\n%s\nstderr: %s", code, p.stdout, p.stderr)
	}
	if !strings.Contains(p.stderr.String(), "askuser: asking through web: chosen with --frontend; survey left out: no terminal to ask on") {
		t.Errorf("--verbose does not say survey was left out:\n%s", p.stderr)
	}
	none := startBackground(t, nil, "ask", "testdata/questions/auth.json", "--frontend", "survey")
	if code := none.exit(t); code != 4 {
		t.Errorf("survey alone without a terminal: exit %d, want 4", code)
	}
}

// TestWebMCP asks through askuser mcp --frontend web: a host's
// AskUserQuestion call becomes a card, and the answer given on the page is
// the tool's result.
func TestWebMCP(t *testing.T) {
	t.Parallel()
	p := startMCPPipes(t, "--frontend", "web")
	stdin, stdout, stderr := p.stdin, p.stdout, p.stderr
	questions, _ := os.ReadFile(filepath.Join(repoRoot(t), "testdata/questions/auth.json"))
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":` + string(bytes.TrimSpace(questions)) + `}}`,
	} {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	var pageURL string
	for deadline := time.Now().Add(waitLimit); pageURL == ""; time.Sleep(10 * time.Millisecond) {
		if pageURL = urlPattern.FindString(stderr.String()); pageURL == "" && time.Now().After(deadline) {
			t.Fatalf("no URL on stderr: %s", stderr)
		}
	}
	webAnswer(t, pageURL, url.Values{"q0": {"1"}, "q1": {"0", "1"}})
	dec := json.NewDecoder(stdout)
	for {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := dec.Decode(&msg); err != nil {
			t.Fatalf("reading MCP: %v\nstderr: %s", err, stderr)
		}
		if msg.ID != 2 {
			continue
		}
		if len(msg.Result.Content) == 0 || msg.Result.Content[0].Text != strings.TrimSuffix(wantAuthJWT, "\n") {
			t.Errorf("the tool result is %+v, want\n%s", msg.Result, wantAuthJWT)
		}
		return
	}
}
