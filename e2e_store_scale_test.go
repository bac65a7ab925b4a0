// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/store/pgtest"
)

// The team store at team scale (e2e_store_test.go has the rig): waiting
// processes of every kind (run --frontend inbox, resume --wait, ask, mcp,
// hook), started in a burst against a server with few connections, all
// answered from askuser serve's page; the server stopped with serve
// running, and restarted in the middle of an answer. A waiting process
// holds no connection, so a server of 20 connections holds them all.
//
// The sizes CI runs keep it under a minute: 100 waiters on 20
// connections, a stop of 10 s. ASKUSER_STORE_SCALE=1 runs the sizes of
// the issue that asked for them: 200 waiters, a stop of 60 s.

// storeScale reports whether the heavy sizes run.
func storeScale() bool { return os.Getenv("ASKUSER_STORE_SCALE") == "1" }

// teamServer is a PostgreSQL of the test's own with settings, and a
// database owned by an ordinary role, team: its connections are limited
// as a team's are (a superuser would take the reserved ones).
func teamServer(t *testing.T, settings ...string) (*pgtest.Server, string) {
	t.Helper()
	srv := pgtest.Own(t, settings...)
	db, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.SQL(db, "CREATE ROLE team LOGIN; ALTER DATABASE "+db+" OWNER TO team; ALTER SCHEMA public OWNER TO team"); err != nil {
		t.Fatal(err)
	}
	return srv, strings.Replace(srv.URL(db), "://"+pgtest.SuperUser+"@", "://team@", 1)
}

// teamConnections counts the team's connections to srv (the test's own
// psql is a superuser's, in a reserved slot).
func teamConnections(t *testing.T, srv *pgtest.Server) int {
	t.Helper()
	out, err := srv.SQL("postgres", "SELECT count(*) FROM pg_stat_activity WHERE usename = 'team'")
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(out)
	return n
}

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
	select {
	case <-w.p.done:
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

// Waiters of every kind, started in a burst of 100 (200 at
// ASKUSER_STORE_SCALE=1) on four machines, against a server of 20
// connections: none fails for want of a connection, each says where its
// question waits only once it does, every one is listed, they hold almost
// no connection while they wait, and every one is answered.
func TestTeamStoreWaitersOnFewConnections(t *testing.T) {
	n := 100
	if storeScale() {
		n = 200
	}
	srv, storeURL := teamServer(t, "max_connections=20")
	ms, _ := newTeam(t, storeURL, "machine-a", "machine-b", "machine-c", "machine-d", "machine-serve")
	ic := newTeamInbox(t, startBackground(t, ms[4].env, "serve").url(t))
	ws := startWaiters(t, ms[:4], n)
	asked := listed(t, ic, ws)
	// Idle connections close within a few seconds of their last use.
	held := teamConnections(t, srv)
	for deadline := time.Now().Add(waitLimit); held > 8 && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		held = teamConnections(t, srv)
	}
	t.Logf("%d waiters listed; the team holds %d connections", n, held)
	if held > 8 {
		t.Errorf("%d waiters and serve hold %d connections; want a few (serve's, and each machine's look)", n, held)
	}
	answerAll(t, ic, ws, asked)
}

// The server stops for 10 s (60 s at ASKUSER_STORE_SCALE=1) with serve
// running and waiters of every kind waiting: nobody is stranded. serve's
// first page once the server is back is drawn, not an error; every set
// is still listed and answerable, none withdrawn, and every waiter goes
// on with its answer.
func TestTeamStoreStoppedWithServeRunning(t *testing.T) {
	stop := 10 * time.Second
	if storeScale() {
		stop = 60 * time.Second
	}
	srv, storeURL := teamServer(t)
	ms, _ := newTeam(t, storeURL, "machine-a", "machine-b", "machine-serve")
	serve := startBackground(t, ms[2].env, "serve")
	ic := newTeamInbox(t, serve.url(t))
	ws := startWaiters(t, ms[:2], 2*len(kinds))
	listed(t, ic, ws)
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(stop)
	if err := srv.StartAgain(); err != nil {
		t.Fatal(err)
	}
	if code, page := ic.get(t, ""); code != 200 {
		t.Errorf("serve's first page after the server came back: status %d\n%s", code, page)
	}
	asked := listed(t, ic, ws)
	if strings.Contains(serve.stderr.String(), "Withdrawn") || strings.Contains(serve.stderr.String(), "withdrawn") {
		t.Errorf("serve withdrew a set:\n%s", serve.stderr)
	}
	answerAll(t, ic, ws, asked)
}

// The server restarts in the middle of an answer: the person's answer is
// posted, and the server stops before the waiters take it and write
// what follows. Back, each takes it and goes on.
func TestTeamStoreRestartMidAnswer(t *testing.T) {
	srv, storeURL := teamServer(t)
	ms, _ := newTeam(t, storeURL, "machine-a", "machine-serve")
	ic := newTeamInbox(t, startBackground(t, ms[1].env, "serve").url(t))
	ws := startWaiters(t, ms[:1], len(kinds))
	asked := listed(t, ic, ws)
	var pages []string
	for _, w := range ws {
		if w.id != "" {
			pages = append(pages, "s/"+w.id)
		}
	}
	var posts []func(url.Values) (int, string)
	for _, p := range append(pages, asked...) {
		posts = append(posts, ic.formAt(t, p))
	}
	for _, post := range posts {
		if code, body := post(url.Values{"q0": {"0"}}); code != 200 {
			t.Fatalf("answer: status %d: %s", code, body)
		}
	}
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	if err := srv.StartAgain(); err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if msg := w.check(t); msg != "" {
			t.Error(msg)
		}
	}
}

// Ctrl+C while no connection is free ends a waiting process at once,
// exit 130, having said that it waited for the store.
func TestTeamStoreCtrlCWhileFull(t *testing.T) {
	srv, storeURL := teamServer(t, "max_connections=6")
	ms, _ := newTeam(t, storeURL, "machine-a")
	if out, errOut, code := ms[0].askuserIn(t, t.TempDir(), "sessions"); code != 0 { // migrated
		t.Fatalf("sessions: exit %d\n%s%s", code, out, errOut)
	}
	for i := 0; teamConnections(t, srv) < 3; i++ { // every slot of the team's (3 are the superuser's)
		if i > 10 {
			t.Fatal("the server's slots could not be taken")
		}
		holder := exec.Command(srv.Program("psql"), "-X", "-q", "-c", "SELECT pg_sleep(600)", storeURL)
		if err := holder.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = holder.Process.Kill(); _ = holder.Wait() })
		time.Sleep(100 * time.Millisecond)
	}
	for _, args := range [][]string{
		{"ask", "--frontend", "inbox", "testdata/questions/database.json"},
		{"run", "-p", "--frontend", "inbox", "--script", "testdata/auth-demo.yaml", "Add authentication"},
	} {
		p := startBackground(t, ms[0].env, args...)
		for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), "(SQLSTATE 53300)); waiting for it"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s never said it waits for the store: %s", args[0], p.stderr)
			}
		}
		if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if code := p.exit(t); code != 130 {
			t.Errorf("%s, Ctrl+C while waiting for a free connection: exit %d\n%s", args[0], code, p.stderr)
		}
	}
}

// Behind PgBouncer in transaction mode, as a team may run it (a server
// connection is a client's for one transaction only), the store works as
// it does on a server: waiters of every kind wait, serve lists them, and
// each goes on with its answer. The driver's cached prepared statements
// would not survive it (prepared statement "stmtcache_…" already exists):
// statements are described once and run unnamed. Skipped where pgbouncer
// is not installed.
func TestTeamStoreThroughPgBouncer(t *testing.T) {
	srv, direct := teamServer(t)
	_, rest, _ := strings.Cut(direct, "@/")
	db, _, _ := strings.Cut(rest, "?")
	storeURL := srv.StartPgBouncer(t, "transaction").URL("team", db)
	ms, _ := newTeam(t, storeURL, "machine-a", "machine-b", "machine-serve")
	ic := newTeamInbox(t, startBackground(t, ms[2].env, "serve").url(t))
	ws := startWaiters(t, ms[:2], 2*len(kinds))
	answerAll(t, ic, ws, listed(t, ic, ws))
}
