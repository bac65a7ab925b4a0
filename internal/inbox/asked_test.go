package inbox

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// asked registers req as a set asked outside a session by title, as
// askuser ask, mcp or hook leave it, waited on (its wait lock held) until
// the test ends, or release.
func (g *inboxRig) asked(title string, req ask.Request, waited bool) (key string, release func()) {
	g.t.Helper()
	key = channel.Key("", req.ID)
	if _, err := g.store.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request, e.Title, e.Channels, e.Rev = req, title, []string{"inbox"}, 1
		return nil
	}); err != nil {
		g.t.Fatal(err)
	}
	release = func() {}
	if waited {
		var err error
		if release, err = g.store.Registry().Hold(key); err != nil {
			g.t.Fatal(err)
		}
		g.t.Cleanup(release)
	}
	return key, release
}

// approvalOf is an approval of Bash with a long command, as askuser hook
// asks it.
func approvalOf(id string) ask.Request {
	long := strings.Repeat("echo line; ", 5000) + "rm -rf build"
	return ask.Request{ID: id, Kind: ask.KindApproval, Detail: `{"command":"` + long + `"}`,
		Questions: []ask.Question{{Question: "Allow Bash to run?\ncommand: echo line; …", Header: "Approve",
			Options: []ask.Option{{Label: "Allow", Description: "Run this call"}, {Label: "Deny", Description: "Do not run it"}}}}}
}

// A set asked outside a session (askuser hook's approval) is listed on
// the inbox with what asked it and since when, while its process waits;
// its page shows the whole input, and an answer given there goes to its
// mailbox, as a person's, once. A set whose asker stopped waiting is
// neither listed nor answerable.
func TestInboxAnswersASetAskedOutsideASession(t *testing.T) {
	g := newInboxRig(t)
	key, _ := g.asked("askuser hook", approvalOf("toolu_hook.approval"), true)
	gone, _ := g.asked("askuser ask", ask.Request{ID: "ask_gone", Questions: []ask.Question{{Question: "Gone?", Header: "Gone",
		Options: []ask.Option{{Label: "Yes"}, {Label: "No"}}}}}, false)
	home := g.get("/").Body.String()
	mustContain(t, home, `id="asked"`, `href="/q/`+key+`"`, "Allow Bash to run?", "an approval asked by askuser hook", "just now")
	if strings.Contains(home, gone) {
		t.Errorf("a set nobody waits on is listed:\n%s", home)
	}
	page := g.get("/q/" + key)
	if page.Code != http.StatusOK {
		t.Fatalf("the set's page: %d %s", page.Code, page.Body)
	}
	card := setKey("toolu_hook.approval")
	mustContain(t, page.Body.String(), "Asked by askuser hook", "Show the whole input", `action="/q/`+key+`/answer/`+card+`"`,
		`href="/q/`+key+`/input/`+card+`"`)
	if whole := g.get("/q/" + key + "/input/" + card).Body.String(); !strings.Contains(whole, "echo line; rm -rf build") {
		t.Errorf("the whole input is not one link away: %.200s", whole)
	}
	res := g.post("/q/"+key+"/answer/"+card, url.Values{"q0": {"0"}})
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "askuser hook takes it") {
		t.Fatalf("the answer: %d %s", res.Code, res.Body)
	}
	d, ok, err := g.store.Mailbox().Get(context.Background(), session.Box{Key: key})
	if err != nil || !ok || d.By != ByPage || d.Answers[0].Selected[0] != "Allow" || d.Answers[0].Source != ask.SourcePerson {
		t.Fatalf("the mailbox holds %+v (%v, %v)", d, ok, err)
	}
	if res := g.post("/q/"+key+"/answer/"+card, url.Values{"q0": {"1"}}); res.Code != http.StatusConflict {
		t.Errorf("a second answer: %d %s", res.Code, res.Body)
	}
	if d2, _, _ := g.store.Mailbox().Get(context.Background(), session.Box{Key: key}); d2.Answers[0].Selected[0] != "Allow" {
		t.Errorf("the second answer replaced the first: %+v", d2)
	}
	if !strings.Contains(g.logged(), "askuser hook: a person on the page answered an approval: Approve: Allow") {
		t.Errorf("serve's log:\n%s", g.logged())
	}
	if res := g.post("/q/"+gone+"/answer/"+setKey("ask_gone"), url.Values{"q0": {"0"}}); res.Code != http.StatusConflict {
		t.Errorf("an answer to a set nobody waits on: %d %s", res.Code, res.Body)
	}
	if _, ok, _ := g.store.Mailbox().Get(context.Background(), session.Box{Key: gone}); ok {
		t.Error("an answer to a set nobody waits on reached its mailbox")
	}
	if res := g.get("/q/" + g.waiting("a session", approvalOf("toolu_s"))); res.Code != http.StatusNotFound {
		t.Errorf("a session's id as a set's address: %d", res.Code)
	}
}
