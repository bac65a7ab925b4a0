package inbox

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/approval"
	pageview "github.com/askuser/askuser/internal/inbox/page"
	"github.com/askuser/askuser/internal/session"
)

// authPlan is a markdown file an agent asks to write: longer than an
// approval's summary shows (it cuts each value at 80 characters), with
// markup and an escape sequence a page must neither run nor pass on.
const authPlan = "# Authentication plan\n\nDecided with the user through askuser:\n\n" +
	"1. Auth Method (Which authentication method should we use?)\n   Selected: JWT\n\n" +
	"2. Providers (Which OAuth providers should we support?)\n   Selected: Google, GitHub\n\n" +
	"Steps:\n- add the login routes and a <script>alert(1)</script>-free callback page\n" +
	"- keep \x1b[31mtokens\x1b[0m in an HttpOnly cookie, never in local storage\n" +
	"- log every sign-in with its provider and time, for the audit trail\n" +
	"- rotate the signing key every 90 days; the last line of the plan ends here.\n"

// writeCall is a write_file call of the plan, as a run asks to approve it.
func writeCall(id, content string) approval.Request {
	in, _ := json.Marshal(map[string]string{"path": "AUTH_PLAN.md", "content": content})
	return approval.Request{ID: id, Tool: "mcp__fs__write_file", Input: in}
}

// planLines are the plan's lines as the page shows them: escaped, the
// escape sequence gone.
func planLines() []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(authPlan), "\n") {
		l = strings.NewReplacer("<", "&lt;", ">", "&gt;", "\x1b[31m", "", "\x1b[0m", "").Replace(l)
		out = append(out, l)
	}
	return out
}

// An approval's card shows the whole input in a disclosure: each line of
// the file it writes, as lines, made safe, beside the summary the
// question gives; answered, the card keeps it.
func TestCardApprovalShowsWholeInput(t *testing.T) {
	g := newCardRig(t)
	req := writeCall("toolu_w", authPlan).Question(true)
	ch := g.ask(context.Background(), req)
	page := g.get("/").Body.String()
	if len(authPlan) < 492 {
		t.Fatalf("the plan is %d characters; the issue's was 492", len(authPlan))
	}
	mustContain(t, page, `<details class="detail">`, `<summary>Show the whole input</summary>`,
		`<div class="jv-field"><dt>path</dt><dd><span class="jv-str">AUTH_PLAN.md</span></dd></div>`,
		`<div class="jv-field jv-wide"><dt>content</dt><dd><span class="jv-str jv-block"># Authentication plan`+"\n\n"+`Decided`)
	mustContain(t, page, planLines()...)
	if strings.Contains(page, "\x1b") || strings.Contains(page, "<script>alert") {
		t.Error("the input's escape sequence or markup reached the page")
	}
	if strings.Contains(page, "Open the whole text") {
		t.Error("an input the page shows whole links to itself as cut")
	}
	if res := g.post("/answer/"+setKey(req.ID), url.Values{"q0": {"0"}}); res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	waitAsked(t, ch)
	answered := g.get("/").Body.String()
	mustContain(t, answered, `data-state="answered"`, `<summary>Show the whole input</summary>`, planLines()[len(planLines())-1])
}

// A huge input does not make a huge page: the card shows the first
// maxDetailChars characters and links to the whole text, which is there.
func TestCardDetailBounded(t *testing.T) {
	g := newCardRig(t)
	huge := strings.Repeat("A line of a very large file, written by the agent.\n", 20000) + "THE END\n"
	req := writeCall("toolu_big", huge).Question(false)
	g.ask(context.Background(), req)
	page := g.get("/").Body.String()
	if len(page) > 3*pageview.MaxDetailChars {
		t.Errorf("a %d-byte input made a %d-byte page", len(huge), len(page))
	}
	href := "/input/" + setKey(req.ID)
	mustContain(t, page, "This shows the first 32,000 characters of 1,0", `<a href="`+href+`" target="_blank" rel="noopener">Open the whole text</a>`,
		"more characters</span>")
	if strings.Contains(page, "THE END") {
		t.Error("the page holds the end of an input it says it cut")
	}
	res := g.get(href)
	if res.Code != http.StatusOK || !strings.HasPrefix(res.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("the whole text: status %d, type %q", res.Code, res.Header().Get("Content-Type"))
	}
	if body := res.Body.String(); len(body) < len(huge) || !strings.Contains(body, `THE END\n"`) {
		t.Errorf("the whole text is %d bytes and lacks the end", len(body))
	}
	if res := g.get("/input/0000000000000000"); res.Code != http.StatusNotFound {
		t.Errorf("an unknown set's text: status %d", res.Code)
	}
}

// waitingCall writes a session whose run waits on the approval of call.
func (g *inboxRig) waitingCall(prompt string, call approval.Request) string {
	g.t.Helper()
	s, err := g.store.Create(session.Meta{Provider: "script", Model: "scripted", FirstPrompt: prompt})
	if err != nil {
		g.t.Fatal(err)
	}
	defer s.Close()
	for _, err := range []error{
		s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}}),
		s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{
			{Type: agentloop.BlockText, Text: "I will write the plan."},
			{Type: agentloop.BlockToolUse, ID: call.ID, Name: call.Tool, Input: call.Input}}}),
		s.Asked(call.Question(true), call.ID, time.Now().Add(-time.Minute)),
	} {
		if err != nil {
			g.t.Fatal(err)
		}
	}
	return string(s.Meta.ID)
}

// The inbox's session page shows an approval's whole input on its card,
// and the transcript shows the call readably, its lines as lines.
func TestInboxApprovalShowsWholeInput(t *testing.T) {
	g := newInboxRig(t)
	id := g.waitingCall("Plan the auth", writeCall("toolu_w", authPlan))
	page := g.get("/s/" + id).Body.String()
	card, transcript, _ := strings.Cut(page, `id="transcript"`)
	mustContain(t, card, `data-state="open"`, `<summary>Show the whole input</summary>`)
	mustContain(t, card, planLines()...)
	mustContain(t, transcript, "Tool call: mcp__fs__write_file", `<dt>content</dt>`, planLines()[len(planLines())-1])
	if strings.Contains(page, `\n`) {
		t.Error("the page shows a JSON escape instead of a line break")
	}
	res := g.get("/s/" + id + "/input/" + setKey(approval.QuestionID("toolu_w")))
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), `"path": "AUTH_PLAN.md"`) {
		t.Errorf("the whole text: status %d\n%s", res.Code, res.Body)
	}
	if res := g.get("/s/" + id + "/input/0000000000000000"); res.Code != http.StatusNotFound {
		t.Errorf("an unknown set's text: status %d", res.Code)
	}
	// What the card is for is said where the person starts: the inbox's
	// list, and the session's status.
	mustContain(t, page, `status-waiting">waiting on an approval of mcp__fs__write_file</strong>`)
	mustContain(t, g.get("/").Body.String(), "waits on an approval of mcp__fs__write_file")
}

// An empty inbox says what it would list: approvals too.
func TestInboxEmpty(t *testing.T) {
	g := newInboxRig(t)
	mustContain(t, g.get("/").Body.String(), "No session is waiting on a question or an approval.")
}

// A detail that is not JSON is shown as its text, made safe, its lines
// kept, and cut at the same bound.
func TestCardTextDetail(t *testing.T) {
	g := newCardRig(t)
	req := authSet("toolu_t")
	req.Detail = "Background:\n\x1b]0;owned\x07the <i>old</i> service\n" + strings.Repeat("x", pageview.MaxDetailChars)
	g.ask(context.Background(), req)
	page := g.get("/").Body.String()
	mustContain(t, page, "<summary>Show the details</summary>", `<pre class="detail-text">Background:`+"\n"+`the &lt;i&gt;old&lt;/i&gt; service`,
		"This shows the first 32,000 characters of 32,0")
	if strings.Contains(page, "owned") || strings.Count(page, "x") > pageview.MaxDetailChars+1000 {
		t.Error("the detail's escape sequence reached the page, or the cut did not hold")
	}
}

// BenchmarkCardPage draws the card page of an approval: of the demo's
// plan, and of a 1 MB write, which the page cuts at maxDetailChars but
// still reads whole to count what it leaves out. Compare the two.
func BenchmarkCardPage(b *testing.B) {
	for _, size := range []struct {
		name, content string
	}{{"plan", authPlan}, {"1MB", strings.Repeat("A line of a very large file, written by the agent.\n", 20000)}} {
		b.Run(size.name, func(b *testing.B) {
			req := writeCall("toolu_b", size.content).Question(true)
			var n int
			for b.Loop() {
				v := pageview.NewCardView(req, setKey(req.ID), "", "csrf", time.Now())
				page, err := pageview.Render("cards", pageview.CardsData{Cards: []pageview.CardView{v}})
				if err != nil {
					b.Fatal(err)
				}
				n = len(page)
			}
			b.ReportMetric(float64(n), "page-bytes")
		})
	}
}
