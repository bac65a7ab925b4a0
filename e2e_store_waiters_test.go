// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Waiting processes of every kind, for the team store's tests at scale
// (e2e_store_scale_test.go): started in a burst, found on serve's page,
// and answered there.

// suspendedAnswers makes a CI-style run stop to wait at once (exit 6).
const suspendedAnswers = "unanswered: suspend\nanswers:\n  Region: eu-north\n"

// waiter is one waiting process, of one kind.
type waiter struct {
	kind string
	p    *bgAskuser
	mcp  *mcpProc
	id   string // its session (run, resume)
}

// startWaiter starts waiter i of kind on m: its question is the
// database question, asked through the inbox.
func startWaiter(t *testing.T, m teamMachine, kind string, i int, script, suspended string) *waiter {
	t.Helper()
	w := &waiter{kind: kind}
	switch kind {
	case "run":
		w.p = startBackground(t, m.env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", script, "Set up the project")
	case "resume":
		w.id = suspended
		w.p = startBackground(t, m.env, "resume", "--wait", suspended, "-p", "--output-format", "json")
	case "ask":
		w.p = startBackground(t, m.env, "ask", "--frontend", "inbox", "--id", fmt.Sprintf("ask_%d", i), "testdata/questions/database.json")
	case "hook":
		ev := `{"hook_event_name":"PreToolUse","session_id":"claude-scale","cwd":"/src","tool_name":"AskUserQuestion","tool_use_id":"toolu_` + strconv.Itoa(i) +
			`","tool_input":{"questions":[{"question":"Which database should we use?","header":"Database","multiSelect":false,` +
			`"options":[{"label":"PostgreSQL","description":"R"},{"label":"SQLite","description":"E"}]}]}}`
		w.p = startBackgroundStdin(t, m.env, strings.NewReader(ev), "hook", "--frontend", "inbox")
	case "mcp":
		w.mcp = startMCP(t, m.env, "--frontend", "inbox")
		w.mcp.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[`+
			`{"question":"Which database should we use?","header":"Database","multiSelect":false,"options":[{"label":"PostgreSQL","description":"R"},{"label":"SQLite","description":"E"}]}]}}}`)
	}
	return w
}

// check waits for w to end and says what is wrong with how it ended,
// "" when it went on with the first option.
func (w *waiter) check(t *testing.T) string {
	t.Helper()
	if w.mcp != nil {
		if r := w.mcp.reply(t, "2"); strings.Contains(r, `"isError":true`) || !strings.Contains(r, "Selected: PostgreSQL") {
			return "mcp: " + r
		}
		return ""
	}
	code := w.p.exit(t)
	out := w.p.stdout.String()
	ok := code == 0
	switch w.kind {
	case "run", "resume":
		ok = ok && strings.Contains(out, `"subtype":"success"`) && strings.Contains(out, "PostgreSQL")
	case "ask":
		ok = ok && strings.Contains(out, "Selected: PostgreSQL")
	case "hook":
		ok = ok && strings.Contains(out, `"permissionDecision":"allow"`) && strings.Contains(out, "PostgreSQL")
	}
	if !ok {
		return fmt.Sprintf("%s: exit %d\n%s\n%s", w.kind, code, out, w.p.stderr)
	}
	return ""
}

// alive reports whether w still runs.
func (w *waiter) alive() bool {
	if w.p == nil {
		return true // mcp: its reply says
	}
	return w.p.alive()
}

// alive reports whether p still runs.
func (p *bgAskuser) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

var kinds = []string{"run", "resume", "ask", "mcp", "hook"}

// startWaiters starts n waiters, of every kind in turn, spread over ms, in
// a burst; the sessions resume --wait parks on are suspended first.
func startWaiters(t *testing.T, ms []teamMachine, n int) []*waiter {
	t.Helper()
	script := filepath.Join(t.TempDir(), "chan.yaml")
	answers := filepath.Join(t.TempDir(), "ci.yaml")
	if err := os.WriteFile(script, []byte(chanScript), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(answers, []byte(suspendedAnswers), 0o600); err != nil {
		t.Fatal(err)
	}
	suspended := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		if kinds[i%len(kinds)] != "resume" {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := ms[i%len(ms)]
			out, errOut, code := m.askuserIn(t, repoRoot(t), "run", "-p", "--output-format", "json", "--answers", answers, "--script", script, "Set up the project")
			if m := regexp.MustCompile(`"session_id":"([0-9a-f-]{36})"`).FindStringSubmatch(out); code == 6 && m != nil {
				suspended[i] = m[1]
				return
			}
			t.Errorf("suspend a session: exit %d\n%s\n%s", code, out, errOut)
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	ws := make([]*waiter, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws[i] = startWaiter(t, ms[i%len(ms)], kinds[i%len(kinds)], i, script, suspended[i])
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow() // a waiter that could not start said why
	}
	for _, w := range ws {
		if w.kind == "run" {
			w.id = runSessionID(t, w.p)
		}
	}
	return ws
}

var sessionLink = regexp.MustCompile(`href="/s/([0-9a-f-]{36})"`)

// listed waits until serve's inbox lists every waiter's set: the
// sessions', and as many sets asked outside a session as there are such
// waiters; it returns the latter's pages.
func listed(t *testing.T, ic *teamInbox, ws []*waiter) []string {
	t.Helper()
	sessions, outside := map[string]bool{}, 0
	for _, w := range ws {
		if w.id != "" {
			sessions[w.id] = true
		} else {
			outside++
		}
	}
	var home string
	for deadline := time.Now().Add(3 * waitLimit); ; time.Sleep(200 * time.Millisecond) {
		_, home = ic.get(t, "")
		seen := map[string]bool{}
		for page := 1; len(seen) < len(sessions) && page <= 1+len(sessions)/25; page++ {
			// Visited with its token, a page sends its query away: the
			// cookie is enough.
			more := ic.page(t, "?page="+strconv.Itoa(page))
			for _, m := range sessionLink.FindAllStringSubmatch(more, -1) {
				seen[m[1]] = true
			}
		}
		missing := 0
		for id := range sessions {
			if !seen[id] {
				missing++
			}
		}
		asked := askedSet.FindAllStringSubmatch(home, -1)
		if missing == 0 && len(asked) >= outside {
			var pages []string
			for _, m := range asked {
				pages = append(pages, "q/"+m[1])
			}
			return pages
		}
		for _, w := range ws {
			if !w.alive() {
				t.Fatalf("a %s waiter ended before it was answered:\n%s\n%s", w.kind, w.p.stdout, w.p.stderr)
			}
		}
		if time.Now().After(deadline) {
			for _, w := range ws {
				if w.id != "" && !seen[w.id] {
					t.Logf("not listed: %s %s:\n%s", w.kind, w.id, w.p.stderr)
				}
			}
			t.Fatalf("%d of %d sessions and %d of %d sets asked outside one are listed", len(sessions)-missing, len(sessions), len(asked), outside)
		}
	}
}

// page loads a page of serve's with the cookie alone.
func (ic *teamInbox) page(t *testing.T, path string) string {
	t.Helper()
	res, err := ic.c.Get(ic.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return string(body)
}

// answerAll answers every waiter's set on serve's page, four at a time,
// and checks that each went on with the answer.
func answerAll(t *testing.T, ic *teamInbox, ws []*waiter, asked []string) {
	t.Helper()
	var pages []string
	for _, w := range ws {
		if w.id != "" {
			pages = append(pages, "s/"+w.id)
		}
	}
	pages = append(pages, asked...)
	work := make(chan string)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				if code, body := ic.formAt(t, p)(url.Values{"q0": {"0"}}); code != 200 {
					t.Errorf("answer /%s: status %d: %s", p, code, body)
				}
			}
		}()
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()
	for _, w := range ws {
		if msg := w.check(t); msg != "" {
			t.Error(msg)
		}
	}
}
