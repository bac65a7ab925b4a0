// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// The team store's faults, end to end (e2e_store_test.go has the rig):
// two serves racing, a run killed with kill -9, the server restarting
// under a waiting run.

// Two serves, on two machines, answer one set at once: exactly one answer
// is taken, the other is told whose won, and the session goes on with the
// winner's.
func TestTeamStoreTwoServesOneAnswer(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "machine-a", "machine-b", "machine-c")
	a := ms[0]
	id := a.suspend(t, script)
	var posts []func(url.Values) (int, string)
	for _, m := range ms[1:] {
		ic := newTeamInbox(t, startBackground(t, m.env, "serve").url(t))
		posts = append(posts, ic.form(t, id))
	}
	type result struct {
		code int
		body string
	}
	results := make([]result, 2)
	var wg sync.WaitGroup
	for i, post := range posts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body := post(url.Values{"q0": {[]string{"0", "1"}[i]}})
			results[i] = result{code, body}
		}()
	}
	wg.Wait()
	won := -1
	for i, r := range results {
		switch r.code {
		case http.StatusOK:
			if won >= 0 {
				t.Fatalf("both serves' answers were taken")
			}
			won = i
		case http.StatusConflict:
			if !strings.Contains(r.body, "Already answered by a person on the inbox page at ") {
				t.Errorf("the losing serve says:\n%s", r.body)
			}
		default:
			t.Errorf("serve %d: status %d: %s", i, r.code, r.body)
		}
	}
	if won < 0 {
		t.Fatal("neither serve's answer was taken")
	}
	out, errOut, code := a.askuserIn(t, repoRoot(t), "resume", "--wait", id, "-p", "--output-format", "json")
	if want := []string{"PostgreSQL", "SQLite"}[won]; code != 0 || !strings.Contains(out, `Selected: `+want) {
		t.Errorf("the session went on with %s (exit %d), want the winner's %s\n%s", out, code, want, errOut)
	}
}

// A run killed with kill -9 after its question is stored: the store
// releases its hold with its connection, and askuser resume from another
// working directory of the same machine finds the session and goes on.
func TestTeamStoreRunKilledResumedElsewhere(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "machine-a")
	a := ms[0]
	run := startBackground(t, a.env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", script, "Set up the project")
	other := t.TempDir()
	var id string
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		out, _, _ := a.askuserIn(t, other, "sessions", "--waiting", "--json")
		if m := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`).FindStringSubmatch(out); m != nil && strings.Contains(out, `"in_use":true`) {
			id = m[1]
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run's question never showed as waiting:\n%s\n%s", out, run.stderr)
		}
	}
	if err := run.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	run.exit(t)
	out, errOut, code := a.askuserIn(t, other, "resume", id, "-p", "--frontend", "auto", "--output-format", "json")
	if code != 0 || !strings.Contains(out, `"subtype":"success"`) || !strings.Contains(out, "PostgreSQL") {
		t.Fatalf("resume from another directory: exit %d\n%s\n%s", code, out, errOut)
	}
}

// The server restarts while a run waits: the run and serve reconnect, the
// answer given after the restart reaches the run, and it goes on.
func TestTeamStoreServerRestartWhileRunWaits(t *testing.T) {
	srv := pgtest.Own(t)
	db, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	ms, script := newTeam(t, srv.URL(db), "machine-a", "machine-b")
	a, b := ms[0], ms[1]
	ic := newTeamInbox(t, startBackground(t, b.env, "serve").url(t))
	run := startBackground(t, a.env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", script, "Set up the project")
	id := runSessionID(t, run)
	ic.form(t, id)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	ic.answer(t, id, url.Values{"q0": {"1"}})
	if code := run.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, run.stderr)
	}
	if events := run.stdout.String(); !strings.Contains(events, `"selectedOptions":["SQLite"]`) {
		t.Errorf("the run's events:\n%s", events)
	}
}
