// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/store/pgtest"
)

// The team store end to end: real askuser processes, each "machine" a
// state directory and an ASKUSER_MACHINE of its own, sharing one real
// PostgreSQL (started by the tests, internal/store/pgtest). A question
// asked on one machine is answered from askuser serve on another.

// teamMachine is one machine of a team: the environment its askuser runs
// in.
type teamMachine struct {
	name string
	env  []string
}

// newTeam makes a machine per name over the store at storeURL, each with
// its own state directory, and the script every run of theirs follows.
func newTeam(t *testing.T, storeURL string, names ...string) ([]teamMachine, string) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "chan.yaml")
	if err := os.WriteFile(script, []byte(chanScript), 0o600); err != nil {
		t.Fatal(err)
	}
	var out []teamMachine
	for _, n := range names {
		out = append(out, teamMachine{name: n, env: []string{"ASKUSER_STORE=" + storeURL, "ASKUSER_MACHINE=" + n,
			"ASKUSER_STATE_DIR=" + filepath.Join(t.TempDir(), n), "XDG_CONFIG_HOME=" + t.TempDir(),
			"ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}})
	}
	return out, script
}

// askuserIn runs askuser on m, in dir, to its end.
func (m teamMachine) askuserIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(askuserBin(), args...)
	cmd.Dir, cmd.Env = dir, append(append(os.Environ(), "NO_COLOR=1"), m.env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// suspend runs the script on m until it stops to wait on its question,
// asked through the inbox, and returns the session's id.
func (m teamMachine) suspend(t *testing.T, script string) string {
	t.Helper()
	out, errOut, code := m.askuserIn(t, repoRoot(t), "run", "-p", "--output-format", "json", "--frontend", "inbox",
		"--ask-timeout", "1s", "--on-timeout", "suspend", "--script", script, "Set up the project")
	if code != 6 {
		t.Fatalf("the run should stop to wait (exit 6), got %d\n%s\n%s", code, out, errOut)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.SessionID == "" {
		t.Fatalf("the run's result: %v\n%s", err, out)
	}
	return res.SessionID
}

// teamInbox is a browser on an askuser serve's pages: it visited the
// printed URL, and keeps the cookie.
type teamInbox struct {
	base, token string
	c           *http.Client
}

func newTeamInbox(t *testing.T, printed string) *teamInbox {
	t.Helper()
	base, token, _ := strings.Cut(printed, "?")
	return &teamInbox{base: base, token: token, c: &http.Client{Jar: newJar(), Timeout: 10 * time.Second}}
}

// get returns a page (path without its leading /).
func (ic *teamInbox) get(t *testing.T, path string) (int, string) {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	res, err := ic.c.Get(ic.base + path + sep + ic.token)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

var (
	formAction = regexp.MustCompile(`action="([^"]+)"`)
	formCSRF   = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)
)

// form waits for session id's page to offer a form, and returns what
// answers it: a POST of the form's fields, giving its status and body.
func (ic *teamInbox) form(t *testing.T, id string) func(url.Values) (int, string) {
	t.Helper()
	return ic.formAt(t, "s/"+id)
}

// formAt is form for the page at path (without its leading /).
func (ic *teamInbox) formAt(t *testing.T, path string) func(url.Values) (int, string) {
	t.Helper()
	var action, csrf []string
	for deadline := time.Now().Add(waitLimit); action == nil; time.Sleep(20 * time.Millisecond) {
		_, body := ic.get(t, path)
		action, csrf = formAction.FindStringSubmatch(body), formCSRF.FindStringSubmatch(body)
		if action == nil && time.Now().After(deadline) {
			t.Fatalf("no form on /%s:\n%s", path, body)
		}
	}
	u, _ := url.Parse(ic.base)
	return func(form url.Values) (int, string) {
		form.Set("csrf", csrf[1])
		req, _ := http.NewRequest("POST", u.Scheme+"://"+u.Host+action[1], strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("X-Askuser-Fetch", "1")
		res, err := ic.c.Do(req)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(body)
	}
}

// answer answers session id's open set on the page, as a person would,
// and requires it taken.
func (ic *teamInbox) answer(t *testing.T, id string, form url.Values) string {
	t.Helper()
	code, body := ic.form(t, id)(form)
	if code != http.StatusOK {
		t.Fatalf("answer session %s: status %d: %s", id, code, body)
	}
	return body
}

// Done when, live: a run on machine A asks through the inbox; askuser
// serve on machine B lists it with A's name and directory, a person
// answers it there, and the run on A, woken by the store, goes on with
// the answer.
func TestTeamStoreAnswersALiveRunFromAnotherMachine(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "machine-a", "machine-b")
	a, b := ms[0], ms[1]
	serve := startBackground(t, b.env, "serve")
	ic := newTeamInbox(t, serve.url(t))
	run := startBackground(t, a.env, "run", "-p", "--output-format", "stream-json", "--frontend", "inbox", "--script", script, "Set up the project")
	id := runSessionID(t, run)
	ic.form(t, id) // the set is on B's page
	_, home := ic.get(t, "")
	for _, want := range []string{"/s/" + id, "on <code>machine-a</code>", "in <code>" + repoRoot(t) + "</code>", "Sessions of every machine in the team store"} {
		if !strings.Contains(home, want) {
			t.Errorf("B's inbox lacks %q:\n%s", want, home)
		}
	}
	ic.answer(t, id, url.Values{"q0": {"1"}})
	if code := run.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, run.stderr)
	}
	if events := run.stdout.String(); !strings.Contains(events, `"selectedOptions":["SQLite"],"source":"person","via":"web page"`) ||
		!strings.Contains(events, `"subtype":"success"`) {
		t.Errorf("the run's events:\n%s", events)
	}
	if strings.Contains(serve.stderr.String(), "askuser resume started") {
		t.Errorf("serve on B resumed a session that ran on A:\n%s", serve.stderr)
	}
	if !strings.Contains(run.stderr.String(), "askuser: the question waits in the team store") {
		t.Errorf("the run on A does not say where its question waits:\n%s", run.stderr)
	}
}

// Done when, suspended: a CI-style run on machine A stops to wait (exit
// 6). askuser resume --wait parks on it and holds it; a person answers on
// machine B's serve, which does not resume it (it ran on A); resume
// --wait goes on with that answer. An answer given before resume --wait
// starts is taken at once; with nobody answering, --timeout ends it with
// exit 7 and the session still waits.
func TestTeamStoreResumeWait(t *testing.T) {
	ms, script := newTeam(t, pgtest.DB(t), "machine-a", "machine-b")
	a, b := ms[0], ms[1]
	serve := startBackground(t, b.env, "serve")
	ic := newTeamInbox(t, serve.url(t))

	// resume --wait first, the answer after.
	id := a.suspend(t, script)
	parked := startBackground(t, a.env, "resume", "--wait", id, "-p", "--output-format", "json")
	waitHeld(t, b, id)
	answer := ic.form(t, id)
	if _, page := ic.get(t, "s/"+id); !strings.Contains(page, "on <code>machine-a</code>") {
		t.Errorf("B's page of the session:\n%s", page)
	}
	if code, body := answer(url.Values{"q0": {"1"}}); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	if code := parked.exit(t); code != 0 {
		t.Fatalf("resume --wait: exit %d\n%s\n%s", code, parked.stdout, parked.stderr)
	}
	if out := parked.stdout.String(); !strings.Contains(out, `"subtype":"success"`) || !strings.Contains(out, "SQLite") {
		t.Errorf("resume --wait's result:\n%s", out)
	}

	// The answer first: B keeps it for A, and says so; resume --wait takes
	// it at once.
	id = a.suspend(t, script)
	body := ic.answer(t, id, url.Values{"q0": {"0"}})
	if !strings.Contains(body, "it resumes on machine-a in "+repoRoot(t)+": askuser resume there takes the answer") {
		t.Errorf("B's card after the answer:\n%s", body)
	}
	if _, home := ic.get(t, ""); !strings.Contains(home, "answered — resumes on machine-a in "+repoRoot(t)) {
		t.Errorf("B's inbox does not say where the session resumes:\n%s", home)
	}
	out, errOut, code := a.askuserIn(t, repoRoot(t), "resume", "--wait", id, "-p", "--output-format", "json")
	if code != 0 || !strings.Contains(out, "PostgreSQL") {
		t.Fatalf("resume --wait with the answer there: exit %d\n%s\n%s", code, out, errOut)
	}

	// Nobody answers: exit 7, and the session still waits.
	id = a.suspend(t, script)
	out, errOut, code = a.askuserIn(t, repoRoot(t), "resume", "--wait", "--timeout", "500ms", id, "-p", "--output-format", "json")
	if code != 7 {
		t.Fatalf("resume --wait --timeout: exit %d, want 7\n%s\n%s", code, out, errOut)
	}
	out, _, _ = b.askuserIn(t, t.TempDir(), "sessions", "--waiting", "--json")
	if !strings.Contains(out, `"id":"`+id+`"`) || !strings.Contains(out, `"machine":"machine-a"`) {
		t.Errorf("after the timeout the session is not listed waiting:\n%s", out)
	}
	// On B, in the same directory, the session is not "here": it is A's.
	_, errOut, code = b.askuserIn(t, repoRoot(t), "resume", "-p", "--frontend", "auto")
	if code != 2 || !strings.Contains(errOut, "1 waits in other directories or on other machines") {
		t.Errorf("resume without an id on B: exit %d\n%s", code, errOut)
	}
	if out, _, _ := b.askuserIn(t, repoRoot(t), "sessions", "--waiting"); !strings.Contains(out, "machine-a:") {
		t.Errorf("B's listing does not name A's machine:\n%s", out)
	}
	if strings.Contains(serve.stderr.String(), "askuser resume started") {
		t.Errorf("serve on B resumed a session that ran on A:\n%s", serve.stderr)
	}
}

// resume --wait works with the files store too: it asks through the
// inbox, looking in the state directory's mailbox ten times a second, and
// holds the session, so askuser serve on the same machine answers it
// without resuming it itself; --timeout ends it with exit 7.
func TestResumeWaitFilesStore(t *testing.T) {
	ms, script := newTeam(t, "", "laptop")
	m := ms[0]
	serve := startBackground(t, m.env, "serve")
	ti := newTeamInbox(t, serve.url(t))
	id := m.suspend(t, script)
	parked := startBackground(t, m.env, "resume", "--wait", id, "-p", "--output-format", "json")
	waitHeld(t, m, id)
	// Held, and registered for the inbox: the page answers it.
	if code, body := ti.form(t, id)(url.Values{"q0": {"1"}}); code != http.StatusOK {
		t.Fatalf("status %d: %s", code, body)
	}
	if code := parked.exit(t); code != 0 || !strings.Contains(parked.stdout.String(), "SQLite") {
		t.Fatalf("resume --wait: exit %d\n%s\n%s", code, parked.stdout, parked.stderr)
	}
	if strings.Contains(serve.stderr.String(), "askuser resume started") {
		t.Errorf("serve resumed a session resume --wait held:\n%s", serve.stderr)
	}
	id = m.suspend(t, script)
	out, errOut, code := m.askuserIn(t, repoRoot(t), "resume", "--wait", "--timeout", "300ms", id, "-p", "--output-format", "json")
	if code != 7 {
		t.Fatalf("resume --wait --timeout: exit %d, want 7\n%s\n%s", code, out, errOut)
	}
	if out, _, _ := m.askuserIn(t, repoRoot(t), "sessions", "--waiting", "--json"); !strings.Contains(out, `"id":"`+id+`"`) {
		t.Errorf("after the timeout the session is not waiting:\n%s", out)
	}
}

// waitHeld waits until m's askuser sessions says a process holds session
// id (resume --wait parked on it).
func waitHeld(t *testing.T, m teamMachine, id string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(20 * time.Millisecond) {
		out, _, _ := m.askuserIn(t, t.TempDir(), "sessions", "--json")
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, `"id":"`+id+`"`) && strings.Contains(line, `"in_use":true`) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no process ever held session %s:\n%s", id, out)
		}
	}
}

// runSessionID waits for the session id in a run's stream-json events.
func runSessionID(t *testing.T, run *bgAskuser) string {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(10 * time.Millisecond) {
		if m := sessionIDPattern.FindStringSubmatch(run.stdout.String()); m != nil {
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no session id in the run's events:\n%s\n%s", run.stdout, run.stderr)
		}
	}
}

// askuser ask and askuser mcp on machine A, which have no session, ask
// through the inbox of the team store; askuser serve on machine B holds
// the chat channel, sends them there, and the taps reach A.
func TestTeamStoreAskAndMCPAnsweredInAnotherMachinesChannel(t *testing.T) {
	storeURL := pgtest.DB(t)
	cr := newChanRig(t)
	cr.env = append(cr.env, "ASKUSER_STORE="+storeURL, "ASKUSER_MACHINE=machine-b")
	cr.startServe(t)
	ms, _ := newTeam(t, storeURL, "machine-a")
	a := ms[0]

	ask := startBackground(t, a.env, "ask", "--frontend", "inbox", "testdata/questions/database.json")
	m := cr.message(t, "from askuser ask on machine-a", func(x channeltest.Message) bool { return x.Title == "askuser ask" })
	cr.tap(t, m, channeltest.Pick{Options: []int{0}})
	if code := ask.exit(t); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, ask.stderr)
	}
	if out := ask.stdout.String(); !strings.Contains(out, "\n   Via: @alice on testchan\n") {
		t.Errorf("ask printed:\n%s", out)
	}

	mcp := startMCP(t, a.env, "--frontend", "inbox")
	mcp.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[`+
		`{"question":"Which region?","header":"Region","multiSelect":false,"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}`)
	m = cr.message(t, "from askuser mcp on machine-a", func(x channeltest.Message) bool { return x.Title == "askuser mcp · e2e" }) // the MCP host named
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if reply := mcp.reply(t, "2"); !strings.Contains(reply, `Selected: us-east\n   Via: @alice on testchan`) {
		t.Errorf("the tool result: %s", reply)
	}
}
