package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/session"
)

// inboxRig is an Inbox over a temporary state directory whose "askuser
// resume" is a shell script: it saves the lines it was given in
// stdin-<n>, waits for a file named go-<n>, prints a line and exits 6,
// as a resume that answered some sets and stopped to wait would. It
// writes no journal: the tests check what the inbox hands over, and that
// the journal, not the inbox, says what is answered.
type inboxRig struct {
	*cardRig
	in    *Inbox
	store *session.Store
	dir   string
	log   string // the file that gets what serve would print on stderr
}

// logged is what the inbox has logged so far.
func (g *inboxRig) logged() string {
	b, _ := os.ReadFile(g.log)
	return string(b)
}

const fakeResume = `n=$(ls "$DIR" | grep -c '^stdin-'); n=$((n+1))
cat > "$DIR/stdin-$n.part"; mv "$DIR/stdin-$n.part" "$DIR/stdin-$n"
while [ ! -e "$DIR/go-$n" ]; do sleep 0.01; done
echo "resumed $1 ($n)"; exit 6`

func newInboxRig(t *testing.T) *inboxRig {
	t.Helper()
	dir := t.TempDir()
	store := &session.Store{Dir: filepath.Join(dir, "state")}
	log := filepath.Join(dir, "serve.stderr")
	logf, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	in, err := NewInbox(InboxConfig{Store: store, Poll: 20 * time.Millisecond, Log: logf,
		DescribeExit: func(code int) string { return fmt.Sprintf("exit %d", code) },
		Resume: func(id session.ID) *exec.Cmd {
			cmd := exec.Command("sh", "-c", fakeResume, "sh", string(id))
			cmd.Env = append(os.Environ(), "DIR="+dir)
			return cmd
		}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for i := 1; i < 10; i++ {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("go-%d", i)), nil, 0o600)
		}
		for len(in.Resuming()) > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		_ = in.Close(context.Background())
	})
	return &inboxRig{cardRig: visit(t, in.srv), in: in, store: store, dir: dir, log: log}
}

// waiting writes a session that waits on reqs, as a run that stopped
// would have left it; it returns the session's id.
func (g *inboxRig) waiting(prompt string, reqs ...ask.Request) string {
	g.t.Helper()
	s, err := g.store.Create(session.Meta{Provider: "script", Model: "scripted", FirstPrompt: prompt})
	if err != nil {
		g.t.Fatal(err)
	}
	defer s.Close()
	must := func(err error) {
		if err != nil {
			g.t.Fatal(err)
		}
	}
	must(s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}}))
	msg := agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: "I need <b>decisions</b>."}}}
	for _, req := range reqs {
		in, _ := json.Marshal(ask.Input{Questions: req.Questions})
		msg.Content = append(msg.Content, agentloop.Block{Type: agentloop.BlockToolUse, ID: req.ID, Name: ask.ToolName, Input: in})
	}
	must(s.Message(msg))
	for _, req := range reqs {
		must(s.Asked(req, req.ID, time.Now().Add(-2*time.Hour)))
	}
	return string(s.Meta.ID)
}

// finished writes a session whose run ended with text.
func (g *inboxRig) finished(prompt, text string) string {
	g.t.Helper()
	s, err := g.store.Create(session.Meta{Provider: "script", Model: "scripted", FirstPrompt: prompt})
	if err != nil {
		g.t.Fatal(err)
	}
	defer s.Close()
	s.Message(agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: prompt}}})
	s.Message(agentloop.Message{Role: agentloop.RoleAssistant, Content: []agentloop.Block{{Type: agentloop.BlockText, Text: text}}})
	if err := s.SetStatus(string(agentloop.StatusSuccess), "", 1, agentloop.Usage{}); err != nil {
		g.t.Fatal(err)
	}
	return string(s.Meta.ID)
}

// eventually waits for cond, failing with what after 5 s.
func (g *inboxRig) eventually(what string, cond func() bool) {
	g.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			g.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (g *inboxRig) stdin(n int) string {
	g.t.Helper()
	path := filepath.Join(g.dir, fmt.Sprintf("stdin-%d", n))
	g.eventually("resume "+fmt.Sprint(n)+" to read its input", func() bool { _, err := os.Stat(path); return err == nil })
	b, _ := os.ReadFile(path)
	return string(b)
}

func (g *inboxRig) release(n int) {
	os.WriteFile(filepath.Join(g.dir, fmt.Sprintf("go-%d", n)), nil, 0o600)
}

func TestInboxLists(t *testing.T) {
	g := newInboxRig(t)
	sub := authSet("toolu_sub")
	sub.Agent = "researcher"
	waitID := g.waiting("Add <script>alert(1)</script> auth", authSet("toolu_1"), sub)
	g.finished("Write the docs", "Done: docs written.")
	home := g.get("/").Body.String()
	waiting, others, _ := strings.Cut(home, `id="others"`)
	mustContain(t, waiting, `href="/s/`+waitID+`"`, "Add &lt;script&gt;alert(1)&lt;/script&gt; auth",
		"asked by the agent, sub-agent researcher", "2 h 0 min ago", "2 question sets", `<span class="chip">Providers</span>`)
	mustContain(t, others, "Write the docs", `status-finished">finished</strong>`)
	if strings.Contains(home, "<script>alert") {
		t.Error("a prompt's markup reached the page unescaped")
	}
	page := g.get("/s/" + waitID).Body.String()
	mustContain(t, page, "2 question sets wait", "Sub-agent: researcher", `action="/s/`+waitID+`/answer/`+setKey("toolu_1")+`"`,
		"I need &lt;b&gt;decisions&lt;/b&gt;.", "Tool call: AskUserQuestion", "[Auth Method] Which authentication method should we use? (OAuth 2.0, JWT, Session-based)")
	// A page's path is a whole id, as the links give it: neither a
	// prefix nor anything that is not an id.
	for _, path := range []string{"/s/nope", "/s/" + waitID[:8], "/s/" + strings.ToUpper(waitID), "/s/..%2f..%2fx", "/s/--print"} {
		if res := g.get(path); res.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", path, res.Code)
		}
	}
}

func TestInboxAnswerResumes(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Add auth", authSet("toolu_1"))
	path := "/s/" + id + "/answer/" + setKey("toolu_1")
	res := g.post(path, url.Values{"q0": {"1"}, "q1": {"0", "2", "other"}, "q1.other": {"Okta"}})
	if res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	mustContain(t, res.Body.String(), `data-state="sent"`, "<dd>Google, Microsoft, Other: Okta</dd>", "askuser resume is taking the answer")
	want := `{"id":"toolu_1","source":"person","answers":[{"question":"Which authentication method should we use?","selectedOptions":["JWT"]},` +
		`{"question":"Which OAuth providers should we support?","selectedOptions":["Google","Microsoft"],"customInput":"Okta"}]}` + "\n"
	if got := g.stdin(1); got != want {
		t.Errorf("askuser resume was given\n%s\nwant\n%s", got, want)
	}
	// While it runs, the set is answered: a second answer changes nothing.
	res = g.post(path, url.Values{"q0": {"2"}, "q1": {"1"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "Already answered") || !strings.Contains(res.Body.String(), "<dd>JWT</dd>") {
		t.Errorf("second answer: status %d, %s", res.Code, res.Body)
	}
	mustContain(t, g.get("/").Body.String(), "resuming")
	g.release(1)
	g.eventually("the resume to end", func() bool { return len(g.in.Resuming()) == 0 })
	// The fake wrote no journal, so the set is still pending: the page
	// offers it again, says the answer did not reach the session, and
	// shows how the resume ended.
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, `data-state="open"`, "Your answer did not reach the session: askuser resume ended (exit 6). Answer again above.",
		"did not reach the session: exit 6. Answer again", "resumed "+id+" (1)", "resuming with 1 answer line given on the page by a person")
	log, err := os.ReadFile(filepath.Join(g.store.Dir, "sessions", id+".d", logName))
	if err != nil || !strings.Contains(string(log), "askuser resume ended: exit 6") {
		t.Errorf("serve.log beside the session: %v\n%s", err, log)
	}
}

// Answers to several sets of one session go to askuser resume in order:
// one that arrives while a resume runs waits for the next.
func TestInboxQueuesAnswers(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Two calls", authSet("toolu_1"), authSet("toolu_2"))
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}}); res.Code != http.StatusOK {
		t.Fatalf("first: status %d: %s", res.Code, res.Body)
	}
	g.stdin(1)
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_2"), url.Values{"q0": {"2"}, "q1": {"1"}}); res.Code != http.StatusOK {
		t.Fatalf("second: status %d: %s", res.Code, res.Body)
	}
	if _, err := os.Stat(filepath.Join(g.dir, "stdin-2")); err == nil {
		t.Fatal("a second resume started while the first held the session")
	}
	g.release(1)
	if got := g.stdin(2); !strings.HasPrefix(got, `{"id":"toolu_2",`) || strings.Count(got, "\n") != 1 {
		t.Errorf("the second resume was given %q, want only the second set's line", got)
	}
	g.release(2)
}

// A session held by another process (its run, or a resume at a terminal)
// is not resumed from the page: nothing is sent, and the page says why.
func TestInboxSessionInUse(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Add auth", authSet("toolu_1"))
	held, err := g.store.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, `data-state="busy"`, "Asked right now by the askuser process that runs this session")
	if strings.Contains(page, "<form") {
		t.Error("a session its own process is asking offers a form")
	}
	mustContain(t, g.get("/").Body.String(), "asking in its own process")
	res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "in use by another askuser process") {
		t.Errorf("status %d, %s", res.Code, res.Body)
	}
	if len(g.in.Resuming()) > 0 {
		t.Error("a resume started for a session in use")
	}
	held.Close()
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"9"}}); res.Code != http.StatusBadRequest {
		t.Errorf("a bad form: status %d", res.Code)
	}
	if res := g.post("/s/"+id+"/answer/0000000000000000", url.Values{"q0": {"0"}}); res.Code != http.StatusConflict {
		t.Errorf("a set that is not pending: status %d", res.Code)
	}
}

func TestInboxFinishedSession(t *testing.T) {
	g := newInboxRig(t)
	id := g.finished("Write the docs", "Done: the docs are in docs/ \x1b[31m<now>\x1b[0m.")
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, `<section id="result"`, "Done: the docs are in docs/ &lt;now&gt;.", `status-finished">finished`)
	if strings.Contains(page, "<form") || strings.Contains(page, "\x1b") {
		t.Error("a finished session's page offers a form, or shows an escape sequence")
	}
}

// The inbox notices what other processes do to the state directory.
func TestInboxWatchesStateDir(t *testing.T) {
	g := newInboxRig(t)
	v0, next, _ := g.in.srv.hub.watch()
	g.waiting("Add auth", authSet("toolu_1"))
	select {
	case <-next:
	case <-time.After(5 * time.Second):
		t.Fatal("a new waiting session did not wake the pages")
	}
	if v, _, _ := g.in.srv.hub.watch(); v == v0 {
		t.Error("version did not change")
	}
}

// A set answered in parts (some of its questions at the terminal, say)
// asks only the rest, on the page and in what goes to askuser resume.
func TestInboxPartlyAnsweredSet(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Add auth", authSet("toolu_1"))
	s, err := g.store.Open(id)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := ask.Selection(authSet("toolu_1").Questions[0], []string{"JWT"}, "", ask.SourcePerson)
	if err := s.Partial("toolu_1", []ask.Answer{first}, []int{0}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	page := g.get("/s/" + id).Body.String()
	if strings.Contains(page, "Which authentication method") && strings.Contains(page, `name="q1"`) {
		t.Error("the card asks the question answered already")
	}
	mustContain(t, page, `<span class="chip">Providers</span>`, `type="checkbox" name="q0" value="1">`)
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"1"}}); res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	want := `{"id":"toolu_1","source":"person","answers":[{"question":"Which OAuth providers should we support?","selectedOptions":["GitHub"]}]}` + "\n"
	if got := g.stdin(1); got != want {
		t.Errorf("askuser resume was given\n%s\nwant\n%s", got, want)
	}
	g.release(1)
}
