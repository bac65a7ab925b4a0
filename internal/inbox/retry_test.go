package inbox

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A resume that ends without taking the answer given on the page (it
// failed, or was killed) is tried again, as a chat's late answer is: at
// most three resumes, the second 1 base later, the third 4 bases after
// that. The page says each time what happened, when the next try is, and,
// after the last, what to do.
func TestInboxRetriesAResumeThatDidNotTakeTheAnswer(t *testing.T) {
	const base = 300 * time.Millisecond
	g := newInboxRig(t, func(c *InboxConfig) { c.RetryBase = base })
	id := g.waiting("Add auth", authSet("toolu_1"))
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}, "q1": {"0"}}); res.Code != 200 {
		t.Fatalf("the answer: %d %s", res.Code, res.Body)
	}
	g.args(1)
	ended := time.Now()
	g.release(1) // the fake takes nothing: the answer stays in the mailbox
	g.eventually("the page to say a retry is coming", func() bool {
		b := g.get("/s/" + id).Body.String()
		return strings.Contains(b, "askuser resume ended (exit 6) without taking your answer. askuser serve tries again at ") &&
			strings.Contains(b, "(attempt 2 of 3)")
	})
	g.args(2)
	if d := time.Since(ended); d < base {
		t.Errorf("the second resume started %v after the first ended, before the %v it waits", d, base)
	}
	g.release(2)
	g.args(3)
	g.release(3)
	g.eventually("the page to say the retries are over", func() bool {
		return strings.Contains(g.get("/s/"+id).Body.String(), "askuser resume ended 3 times without taking your answer")
	})
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, "(the last: exit 6)", "askuser resume "+id, "restart askuser serve")
	if _, err := os.Stat(filepath.Join(g.dir, "args-4")); err == nil { // none is scheduled: the page says so
		t.Error("a fourth resume started")
	}
	if !strings.Contains(g.logged(), "askuser resume started, for another try: the last resume did not take the answer given on the page (attempt 2 of 3)") {
		t.Errorf("serve's log:\n%s", g.logged())
	}
}
