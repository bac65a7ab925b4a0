package inbox

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

func TestCardAnswered(t *testing.T) {
	g := newCardRig(t)
	ch := g.ask(context.Background(), authSet("toolu_1"))
	page := g.get("/").Body.String()
	// The recommended option is preselected; the multi-select has boxes;
	// every question has Other with a text box.
	mustContain(t, page,
		`<span class="chip">Auth Method</span> <span class="qtext">Which authentication method should we use?</span>`,
		`type="radio" name="q0" value="0" checked required>`,
		`type="radio" name="q0" value="1" required>`,
		`<span class="label">OAuth 2.0 <span class="rec">Recommended</span></span><span class="desc">Industry standard</span>`,
		`type="checkbox" name="q1" value="2">`,
		`<input class="other-choice" type="checkbox" name="q1" value="other">`,
		`<input class="other-text" type="text" name="q1.other" maxlength="2000"`,
		`Submit answers`)
	res := g.post("/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}, "q1": {"0", "2", "other"}, "q1.other": {"  Okta  "}})
	if res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	r := waitAsked(t, ch)
	if r.err != nil {
		t.Fatal(r.err)
	}
	want := `User answered the following questions:

1. Auth Method (Which authentication method should we use?)
   Selected: JWT

2. Providers (Which OAuth providers should we support?)
   Selected: Google, Microsoft
   Other: Okta

Proceeding with user selections.`
	if got := ask.FormatResult(r.answers); got != want {
		t.Errorf("result:\n%s\nwant:\n%s", got, want)
	}
	for _, a := range r.answers {
		if a.Source != ask.SourcePerson || a.Via != Via || a.AnsweredAt.IsZero() {
			t.Errorf("answer %+v: want a person's, via %q, with a time", a, Via)
		}
	}
	// The reply is the card as answered, showing what was answered.
	mustContain(t, res.Body.String(), `data-state="answered"`, `<dd>JWT</dd>`, `<dd>Google, Microsoft, Other: Okta</dd>`, "Answered on this page")
}

func TestCardAnsweredOnce(t *testing.T) {
	g := newCardRig(t)
	ch := g.ask(context.Background(), authSet("toolu_1"))
	key := setKey("toolu_1")
	if res := g.post("/answer/"+key, url.Values{"q0": {"0"}, "q1": {"1"}}); res.Code != http.StatusOK {
		t.Fatalf("first answer: status %d", res.Code)
	}
	first := waitAsked(t, ch)
	res := g.post("/answer/"+key, url.Values{"q0": {"2"}, "q1": {"0"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "Already answered") {
		t.Errorf("second answer: status %d, body %s; want 409 and already answered", res.Code, res.Body)
	}
	mustContain(t, res.Body.String(), "<dd>OAuth 2.0</dd>", "<dd>GitHub</dd>")
	if strings.Contains(res.Body.String(), "Session-based</dd>") {
		t.Error("the second answer shows as if it counted")
	}
	if got := first.answers[0].Selected; len(got) != 1 || got[0] != "OAuth 2.0" {
		t.Errorf("first answer changed: %v", got)
	}
	// Without the page's script: a 409 in words, not a redirect.
	r := g.req("POST", "/answer/"+key, strings.NewReader(url.Values{"q0": {"1"}, "csrf": {g.s.guard.csrf}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.AddCookie(g.cookie)
	if res := g.do(r); res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "Already answered") {
		t.Errorf("second answer without script: status %d, %s", res.Code, res.Body)
	}
	if res := g.post("/answer/0000000000000000", url.Values{"q0": {"1"}}); res.Code != http.StatusNotFound {
		t.Errorf("unknown set: status %d, want 404", res.Code)
	}
}

func TestCardFormErrors(t *testing.T) {
	g := newCardRig(t)
	ch := g.ask(context.Background(), authSet("toolu_1"))
	key := setKey("toolu_1")
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{url.Values{"q1": {"0"}}, `question "Auth Method" needs an answer`},
		{url.Values{"q0": {"7"}, "q1": {"0"}}, `question "Auth Method": "7" is not one of its options`},
		{url.Values{"q0": {"01"}, "q1": {"0"}}, `"01" is not one of its options`},
		{url.Values{"q0": {"0", "1"}, "q1": {"0"}}, `takes one answer, got 2`},
		{url.Values{"q0": {"other"}, "q1": {"0"}}, `Other is chosen but no text was typed`},
		{url.Values{"q0": {"other"}, "q0.other": {"\x1b[2J \u200b "}, "q1": {"0"}}, `Other is chosen but no text was typed`},
	} {
		res := g.post("/answer/"+key, tc.form)
		if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), tc.want) {
			t.Errorf("%v: status %d, %q; want 400 and %q", tc.form, res.Code, res.Body, tc.want)
		}
	}
	// A multi-select with nothing ticked is taken only when the form
	// confirms it: the page asks "Submit with nothing selected?" first.
	if res := g.post("/answer/"+key, url.Values{"q0.other": {"Passkeys"}}); res.Code != http.StatusBadRequest ||
		!strings.Contains(res.Body.String(), `question "Providers": nothing is ticked, and submitting it so was not confirmed`) {
		t.Errorf("an empty multi-select, not confirmed: status %d, %q; want 400", res.Code, res.Body)
	}
	// Free text typed without ticking Other (a page without script) counts;
	// an empty multi-select confirmed is a skip.
	if res := g.post("/answer/"+key, url.Values{"q0.other": {"Passkeys"}, "q1.none": {"1"}}); res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	a := waitAsked(t, ch).answers
	if a[0].Custom != "Passkeys" || len(a[0].Selected) != 0 || !a[1].Skipped {
		t.Errorf("answers %+v", a)
	}
}

// Model text is made safe to show, then escaped: a label holding a script
// element is text on the page.
func TestCardEscapesModelText(t *testing.T) {
	g := newCardRig(t)
	req := ask.Request{ID: `"><script>alert(1)</script>`, Agent: "<img src=x onerror=alert(2)>", Kind: ask.KindApproval,
		Questions: []ask.Question{{Question: "Run \x1b[31mthis\x1b[0m?\n<iframe src=//evil>", Header: "<b>Hdr</b>", Options: []ask.Option{
			{Label: "<script>alert(3)</script>", Description: `" onmouseover="alert(4)`}, {Label: "B\u202eevil", Description: "d"}}}}}
	ch := g.ask(context.Background(), req)
	body := g.get("/").Body.String()
	for _, bad := range []string{"<script>alert", "<img", "<iframe", "<b>Hdr", `" onmouseover="`, "\x1b", "\u202e", `"><script>`} {
		if strings.Contains(body, bad) {
			t.Errorf("page holds %q unescaped", bad)
		}
	}
	mustContain(t, body, "&lt;script&gt;alert(3)&lt;/script&gt;", "&lt;b&gt;Hdr&lt;/b&gt;", "Sub-agent: &lt;img src=x onerror=alert(2)&gt;",
		"Run this?\n&lt;iframe src=//evil&gt;", "&#34; onmouseover=&#34;alert(4)", `<span class="kind">Approval</span>`, "Bevil")
	if res := g.post("/answer/"+setKey(req.ID), url.Values{"q0": {"0"}}); res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	if a := waitAsked(t, ch).answers; a[0].Selected[0] != "<script>alert(3)</script>" {
		t.Errorf("the answer should carry the label as text: %q", a[0].Selected)
	}
}

func TestCardWithdrawn(t *testing.T) {
	g := newCardRig(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := g.ask(ctx, authSet("toolu_1"))
	cancel(errors.New("answered through survey"))
	if r := waitAsked(t, ch); !errors.Is(r.err, ask.ErrCancelled) {
		t.Fatalf("got %v, want ErrCancelled", r.err)
	}
	mustContain(t, g.get("/").Body.String(), `data-state="withdrawn"`, "Withdrawn: answered through survey.")
	res := g.post("/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "no longer waiting") {
		t.Errorf("answer to a withdrawn set: status %d, %s", res.Code, res.Body)
	}

	tctx, tcancel := context.WithTimeoutCause(context.Background(), 10*time.Millisecond, ask.ErrTimeout)
	defer tcancel()
	ch = g.ask(tctx, authSet("toolu_2"))
	if r := waitAsked(t, ch); !errors.Is(r.err, ask.ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", r.err)
	}
	mustContain(t, g.get("/").Body.String(), "Nobody answered in time")
}

// Several sets open at once are several cards, oldest first; closed ones
// follow, most recent first.
func TestCardsOrder(t *testing.T) {
	g := newCardRig(t)
	if !g.b.Concurrent() {
		t.Fatal("the web frontend holds several sets at once")
	}
	ch1 := g.ask(context.Background(), authSet("toolu_1"))
	g.ask(context.Background(), authSet("toolu_2"))
	req3 := authSet("toolu_3")
	req3.Agent = "researcher"
	g.ask(context.Background(), req3)
	if _, err := g.b.Ask(context.Background(), authSet("toolu_2")); err == nil || !strings.Contains(err.Error(), "already open") {
		t.Errorf("the same set twice at once: %v", err)
	}
	g.post("/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}, "q1": {"0"}})
	waitAsked(t, ch1)
	var order []string
	for _, v := range g.b.views("") {
		order = append(order, v.Key+":"+v.State)
	}
	want := []string{setKey("toolu_2") + ":open", setKey("toolu_3") + ":open", setKey("toolu_1") + ":answered"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("cards %v, want %v", order, want)
	}
	mustContain(t, g.get("/fragment").Body.String(), "Sub-agent: researcher")
}

// The event stream says "changed" when a card comes or goes, and "bye"
// when askuser stops.
func TestEvents(t *testing.T) {
	g := newCardRig(t)
	r, _ := http.NewRequest("GET", "http://"+g.host+"/events", nil)
	r.AddCookie(g.cookie)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if e, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
				events <- e
			}
		}
		close(events)
	}()
	next := func() string {
		select {
		case e := <-events:
			return e
		case <-time.After(5 * time.Second):
			t.Fatal("no event")
			return ""
		}
	}
	if e := next(); e != "changed" {
		t.Fatalf("first event %q, want changed (the page refreshes on connecting)", e)
	}
	g.ask(context.Background(), authSet("toolu_1"))
	if e := next(); e != "changed" {
		t.Fatalf("event after a new set %q, want changed", e)
	}
	go g.s.Close(context.Background())
	if e := next(); e != "bye" {
		t.Fatalf("event at close %q, want bye", e)
	}
}
