package inbox

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// A session's page and a set asked outside a session, like the card, take
// a multi-select with nothing ticked only when the form confirms it: the
// page asks "Submit with nothing selected?" (and, without its script,
// offers the same as a box to tick). Nothing is posted to the mailbox
// before.
func TestPagesConfirmNothingSelected(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Add auth", authSet("toolu_1"))
	key, _ := g.asked("askuser ask", authSet("ask_1"), true)
	for _, page := range []struct{ show, answer string }{
		{"/s/" + id, "/s/" + id + "/answer/" + setKey("toolu_1")},
		{"/q/" + key, "/q/" + key + "/answer/" + setKey("ask_1")},
	} {
		body := g.get(page.show).Body.String()
		mustContain(t, body, `data-multi data-header="Providers" data-none="q1.none"`, `name="q1.none" value="1"`, "Submit with nothing selected")
		res := g.post(page.answer, url.Values{"q0": {"0"}})
		if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), `"Providers": nothing is ticked`) {
			t.Errorf("%s: an empty multi-select, not confirmed: status %d, %q; want 400", page.answer, res.Code, res.Body)
		}
		if res := g.post(page.answer, url.Values{"q0": {"0"}, "q1.none": {"1"}}); res.Code != http.StatusOK {
			t.Errorf("%s: confirmed: status %d, %q", page.answer, res.Code, res.Body)
		}
	}
	if d := g.mailed(id, "toolu_1"); len(d.Answers) != 2 || !d.Answers[1].Skipped {
		t.Errorf("the session's answer: %+v", d.Answers)
	}
}
