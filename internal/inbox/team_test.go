package inbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// A session that ran on another machine (a team store lists every
// machine's) is answered here, and resumed there: no resume starts here,
// and the page and serve's log say where it resumes. So is one whose
// directory this machine lacks.
func TestInboxAnswerResumesElsewhere(t *testing.T) {
	g := newInboxRig(t)
	remote := g.waitingAs(session.Meta{Machine: "build-7", Cwd: "/src/app"}, "Add auth on the build box", authSet("toolu_1"))
	gone := g.waitingAs(session.Meta{Cwd: filepath.Join(g.dir, "no-such-dir")}, "Add auth in a removed checkout", authSet("toolu_1"))
	for id, where := range map[string]string{remote: "on build-7 in /src/app", gone: "in " + filepath.Join(g.dir, "no-such-dir")} {
		res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}, "q1": {"0"}})
		if res.Code != http.StatusOK {
			t.Fatalf("status %d: %s", res.Code, res.Body)
		}
		mustContain(t, res.Body.String(), `data-state="sent"`, where+": askuser resume there takes the answer")
		if d := g.mailed(id, "toolu_1"); selections(d.Answers) != "JWT; Google" {
			t.Errorf("the mailbox holds %+v", d)
		}
		mustContain(t, g.get("/s/"+id).Body.String(), "answered — resumes ")
		if !strings.Contains(g.logged(), "answered — it resumes ") {
			t.Errorf("serve's log: %s", g.logged())
		}
	}
	home := g.get("/").Body.String()
	mustContain(t, home, "answered — resumes on build-7 in /src/app", "on <code>build-7</code>")
	if len(g.in.Resuming()) > 0 {
		t.Error("a resume started here for a session that resumes elsewhere")
	}
	if _, err := os.Stat(filepath.Join(g.dir, "args-1")); err == nil {
		t.Error("askuser resume ran here")
	}
	if err := g.in.Resume(session.ID(remote), "a tap"); err == nil || !strings.Contains(err.Error(), "on build-7 in /src/app") {
		t.Errorf("Resume of a remote session: %v", err)
	}
	// One of this machine, in a directory it has, is resumed here.
	here := g.waitingAs(session.Meta{Cwd: g.dir}, "Add auth here", authSet("toolu_1"))
	if res := g.post("/s/"+here+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}, "q1": {"0"}}); res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	if got := g.args(1); !strings.HasPrefix(got, here+" ") {
		t.Errorf("the resume here was started with %q", got)
	}
}

// An answer given elsewhere first (another askuser serve on the team's
// store, a chat channel) wins: the page's answer gets 409, saying whose
// answer won and when, and changes nothing.
func TestInboxAlreadyAnsweredBy(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Add auth", authSet("toolu_1"))
	at := time.Date(2026, 11, 26, 14, 2, 0, 0, time.Local)
	first := session.Delivery{By: "@alice on Slack", At: at, Answers: []ask.Answer{
		{Question: "Which authentication method should we use?", Header: "Auth Method", Selected: []string{"JWT"}, Source: ask.SourcePerson},
		{Question: "Which OAuth providers should we support?", Header: "Providers", Selected: []string{"GitHub"}, Source: ask.SourcePerson}}}
	if err := g.store.Mailbox().Post(context.Background(), g.answers.box(id, session.Waiting{ID: "toolu_1"}), first); err != nil {
		t.Fatal(err)
	}
	path := "/s/" + id + "/answer/" + setKey("toolu_1")
	res := g.post(path, url.Values{"q0": {"2"}, "q1": {"1"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "Already answered by @alice on Slack at 14:02; your answer was not used.") {
		t.Errorf("fetch: status %d, %s", res.Code, res.Body)
	}
	// A browser without the page's script gets a page that says the same.
	r := g.req("POST", path, strings.NewReader(url.Values{"q0": {"2"}, "q1": {"1"}, "csrf": {g.s.guard.csrf}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.AddCookie(g.cookie)
	plain := g.do(r)
	if plain.Code != http.StatusConflict || !strings.Contains(plain.Body.String(), "Already answered by @alice on Slack at 14:02") {
		t.Errorf("form post: status %d, %s", plain.Code, plain.Body)
	}
	if d := g.mailed(id, "toolu_1"); d.By != "@alice on Slack" {
		t.Errorf("the mailbox now holds %+v", d)
	}
}

// The waiting sessions are listed a page at a time, with how many there
// are, and filtered by machine, directory and age, the filters kept by
// the links between pages and by the live update.
func TestInboxPagesAndFilters(t *testing.T) {
	g := newInboxRig(t)
	for i := range 60 {
		machine := []string{"build-7", "laptop", "ci-runner"}[i%3]
		g.waitingAs(session.Meta{Machine: machine, Cwd: fmt.Sprintf("/src/app%d", i%2)}, fmt.Sprintf("task %02d", i), authSet("toolu_1"))
	}
	home := g.get("/").Body.String()
	waiting, _, _ := strings.Cut(home, `id="others"`)
	mustContain(t, waiting, `<span class="count">60</span>`, "Showing 1–25 of 60", `href="/?page=2"`,
		`<option value="build-7">build-7 (20)</option>`, `<option value="ci-runner">ci-runner (20)</option>`)
	if n := strings.Count(waiting, `class="session"`); n != 25 {
		t.Errorf("the first page lists %d sessions; want 25", n)
	}
	last := g.get("/?page=3").Body.String()
	if n := strings.Count(last, `class="session"`); n != 10 || !strings.Contains(last, "Showing 51–60 of 60") || !strings.Contains(last, `href="/?page=2"`) {
		t.Errorf("the last page lists %d sessions:\n%s", n, last)
	}
	f := g.get("/?machine=laptop&dir=app1").Body.String()
	if n := strings.Count(f, `class="session"`); n != 10 || !strings.Contains(f, "10 that match") || !strings.Contains(f, `<option value="laptop" selected>`) {
		t.Errorf("machine laptop in app1 lists %d sessions:\n%s", n, f)
	}
	if !strings.Contains(f, `data-fragment="/fragment?dir=app1&amp;machine=laptop"`) {
		t.Errorf("the live update does not keep the filters:\n%s", f)
	}
	// Every set was asked two hours ago.
	if n := strings.Count(g.get("/?age=%3C1h").Body.String(), `class="session"`); n != 0 {
		t.Errorf("under an hour: %d sessions", n)
	}
	if n := strings.Count(g.get("/?age=%3E1h&per=100").Body.String(), `class="session"`); n != 60 {
		t.Errorf("over an hour, 100 a page: %d sessions", n)
	}
	if n := strings.Count(g.get("/fragment?machine=laptop&per=5").Body.String(), `class="session"`); n != 5 {
		t.Errorf("the fragment of 5 a page: %d sessions", n)
	}
	for _, bad := range []string{"/?page=x&per=-3&age=soon", "/?page=99"} {
		if res := g.get(bad); res.Code != http.StatusOK {
			t.Errorf("%s: status %d", bad, res.Code)
		}
	}
}
