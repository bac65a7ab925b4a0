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
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// inboxRig is an Inbox over a temporary state directory whose answers go
// to the state directory's mailbox, and whose "askuser resume" is a shell
// script: it saves its arguments in args-<n>, waits for a file named
// go-<n>, prints a line and exits 6, as a resume that stopped to wait
// again would. It writes no journal and takes nothing from the mailbox:
// the tests check what the inbox hands over, and that the journal, not
// the inbox, says what is answered.
type inboxRig struct {
	*cardRig
	in      *Inbox
	store   *session.Store
	dir     string
	answers *mailAnswers
	log     string // the file that gets what serve would print on stderr
}

// logged is what the inbox has logged so far.
func (g *inboxRig) logged() string {
	b, _ := os.ReadFile(g.log)
	return string(b)
}

const fakeResume = `n=$(ls "$DIR" | grep -c '^args-'); n=$((n+1))
echo "$@" > "$DIR/args-$n.part"; mv "$DIR/args-$n.part" "$DIR/args-$n"
while [ ! -e "$DIR/go-$n" ]; do sleep 0.01; done
echo "resumed $1 ($n)"; exit 6`

// mailAnswers is the mailbox as askuser serve wires it, keyed more simply.
type mailAnswers struct {
	st   *session.Store
	live map[string]bool // session id/set id
}

func (a *mailAnswers) box(id string, w session.Waiting) session.Box {
	return session.Box{Session: id, Key: channel.Key(id, w.ID)}
}

func (a *mailAnswers) Post(id string, w session.Waiting, d session.Delivery) error {
	return a.st.Mailbox().Post(context.Background(), a.box(id, w), d)
}

func (a *mailAnswers) Get(id string, w session.Waiting) (session.Delivery, bool) {
	d, ok, _ := a.st.Mailbox().Get(context.Background(), a.box(id, w))
	return d, ok
}

func (a *mailAnswers) Live(id string, w session.Waiting) bool { return a.live[id+"/"+w.ID] }

func newInboxRig(t *testing.T, configure ...func(*InboxConfig)) *inboxRig {
	t.Helper()
	dir := t.TempDir()
	store := &session.Store{Dir: filepath.Join(dir, "state")}
	answers := &mailAnswers{st: store, live: map[string]bool{}}
	log := filepath.Join(dir, "serve.stderr")
	logf, err := os.Create(log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	cfg := InboxConfig{Store: store, Answers: answers, Poll: 20 * time.Millisecond, Log: logf,
		DescribeExit: func(code int) string { return fmt.Sprintf("exit %d", code) },
		Resume: func(id session.ID, args ...string) *exec.Cmd {
			cmd := exec.Command("sh", append([]string{"-c", fakeResume, "sh", string(id)}, args...)...)
			cmd.Env = append(os.Environ(), "DIR="+dir)
			return cmd
		}}
	for _, c := range configure {
		c(&cfg)
	}
	in, err := NewInbox(cfg, Options{})
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
	return &inboxRig{cardRig: visit(t, in.srv), in: in, store: store, dir: dir, answers: answers, log: log}
}

// waiting writes a session that waits on reqs, as a run that stopped
// would have left it; it returns the session's id.
func (g *inboxRig) waiting(prompt string, reqs ...ask.Request) string {
	g.t.Helper()
	return g.waitingAs(session.Meta{}, prompt, reqs...)
}

// waitingAs is waiting for a session whose meta says where it runs
// (Machine, Cwd).
func (g *inboxRig) waitingAs(meta session.Meta, prompt string, reqs ...ask.Request) string {
	g.t.Helper()
	meta.Provider, meta.Model, meta.FirstPrompt = "script", "scripted", prompt
	s, err := g.store.Create(meta)
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

// held writes a session that waits on reqs and holds it open, as the
// process that runs it does, until the test ends (or Close).
func (g *inboxRig) held(prompt string, reqs ...ask.Request) (string, *session.Session) {
	g.t.Helper()
	id := g.waiting(prompt, reqs...)
	s, err := g.store.Open(id)
	if err != nil {
		g.t.Fatal(err)
	}
	g.t.Cleanup(func() { s.Close() })
	return id, s
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

// args returns the arguments the n-th resume was started with.
func (g *inboxRig) args(n int) string {
	g.t.Helper()
	path := filepath.Join(g.dir, fmt.Sprintf("args-%d", n))
	g.eventually("resume "+fmt.Sprint(n)+" to read its input", func() bool { _, err := os.Stat(path); return err == nil })
	b, _ := os.ReadFile(path)
	return strings.TrimSpace(string(b))
}

// mailed returns the answer waiting in the mailbox for set id of session.
func (g *inboxRig) mailed(sid, id string) session.Delivery {
	g.t.Helper()
	d, ok := g.answers.Get(sid, session.Waiting{ID: id})
	if !ok {
		g.t.Fatalf("no answer to %s in the mailbox", id)
	}
	return d
}

// selections renders answers as "label,label+other" per question.
func selections(answers []ask.Answer) string {
	var parts []string
	for _, a := range answers {
		p := strings.Join(a.Selected, ",")
		if a.Custom != "" {
			p += "+" + a.Custom
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "; ")
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
	// The answer waits in the set's mailbox, a person's, for askuser resume
	// to take; the resume asks what comes next through the inbox.
	d := g.mailed(id, "toolu_1")
	if d.By != ByPage || selections(d.Answers) != "JWT; Google,Microsoft+Okta" || d.Answers[0].Source != ask.SourcePerson || d.Answers[0].Via != Via {
		t.Errorf("the mailbox holds %+v", d)
	}
	if got := g.args(1); got != id+" --frontend inbox --relay-defer" {
		t.Errorf("askuser resume was started with %q", got)
	}
	// While it runs, the set is answered: a second answer changes nothing.
	res = g.post(path, url.Values{"q0": {"2"}, "q1": {"1"}})
	if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "Already answered") || !strings.Contains(res.Body.String(), "<dd>JWT</dd>") {
		t.Errorf("second answer: status %d, %s", res.Code, res.Body)
	}
	mustContain(t, g.get("/").Body.String(), "resuming")
	g.release(1)
	g.eventually("the resume to end", func() bool { return len(g.in.Resuming()) == 0 })
	// The fake took nothing, so the set still waits, with its answer in
	// the mailbox: the page says so, how the resume ended, and when it is
	// tried again (TestInboxRetriesAResumeThatDidNotTakeTheAnswer).
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, `data-state="sent"`, "the session takes it when it goes on", "resumed "+id+" (1)",
		"askuser resume ended (exit 6) without taking your answer. askuser serve tries again at ",
		"(attempt 2 of 3); your answer waits in the session&#39;s mailbox meanwhile.",
		"resuming for an answer given on the page by a person")
	log, err := os.ReadFile(filepath.Join(g.store.Dir, "sessions", id+".d", logName))
	if err != nil || !strings.Contains(string(log), "askuser resume ended: exit 6") {
		t.Errorf("serve.log beside the session: %v\n%s", err, log)
	}
}

// Answers to several sets of one session are taken one resume at a time:
// one that arrives while a resume runs is taken by the next.
func TestInboxQueuesAnswers(t *testing.T) {
	g := newInboxRig(t)
	id := g.waiting("Two calls", authSet("toolu_1"), authSet("toolu_2"))
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}, "q1": {"0"}}); res.Code != http.StatusOK {
		t.Fatalf("first: status %d: %s", res.Code, res.Body)
	}
	g.args(1)
	if res := g.post("/s/"+id+"/answer/"+setKey("toolu_2"), url.Values{"q0": {"2"}, "q1": {"1"}}); res.Code != http.StatusOK {
		t.Fatalf("second: status %d: %s", res.Code, res.Body)
	}
	if _, err := os.Stat(filepath.Join(g.dir, "args-2")); err == nil {
		t.Fatal("a second resume started while the first held the session")
	}
	if d := g.mailed(id, "toolu_2"); selections(d.Answers) != "Session-based; GitHub" {
		t.Errorf("the second set's mailbox holds %+v", d)
	}
	g.release(1)
	if got := g.args(2); got != id+" --frontend inbox --relay-defer" {
		t.Errorf("the second resume was started with %q", got)
	}
	g.release(2)
}

// A session held by another process (its run, or a resume at a terminal)
// is not resumed from the page: nothing is sent, and the page says why.
func TestInboxSessionInUse(t *testing.T) {
	g := newInboxRig(t)
	id, held := g.held("Add auth", authSet("toolu_1"))
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

// A run that waits on its set through the inbox (askuser run --frontend
// inbox) holds its session, and still the page answers it: the answer goes
// to the mailbox, where the run takes it; no resume starts.
func TestInboxAnswersALiveInboxRun(t *testing.T) {
	g := newInboxRig(t)
	id, _ := g.held("Add auth", authSet("toolu_1"))
	g.answers.live[id+"/toolu_1"] = true
	page := g.get("/s/" + id).Body.String()
	mustContain(t, page, `data-state="open"`, "<form")
	res := g.post("/s/"+id+"/answer/"+setKey("toolu_1"), url.Values{"q0": {"0"}, "q1": {"1"}})
	if res.Code != http.StatusOK {
		t.Fatalf("status %d: %s", res.Code, res.Body)
	}
	mustContain(t, res.Body.String(), `data-state="sent"`, "the session takes it when it goes on")
	if d := g.mailed(id, "toolu_1"); selections(d.Answers) != "OAuth 2.0; GitHub" {
		t.Errorf("the mailbox holds %+v", d)
	}
	if len(g.in.Resuming()) > 0 {
		t.Error("a resume started for a session its run holds")
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
	if d := g.mailed(id, "toolu_1"); len(d.Answers) != 1 || d.Answers[0].Question != "Which OAuth providers should we support?" || selections(d.Answers) != "GitHub" {
		t.Errorf("the mailbox holds %+v, want an answer to the question still open only", d)
	}
	g.args(1)
	g.release(1)
}
