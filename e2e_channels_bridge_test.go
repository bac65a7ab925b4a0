// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"bufio"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// askuser ask and askuser mcp have no session: their sets are answered
// through the channel askuser serve holds; a set from askuser mcp names
// the host that asked it.
func TestChannelAnswersAskAndMCPThroughServe(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	cr.startServe(t)
	a := startBackground(t, cr.env, "ask", "--frontend", "testchan", "testdata/questions/database.json")
	m := cr.message(t, "from askuser ask", func(x channeltest.Message) bool { return x.Title == "askuser ask" })
	cr.tap(t, m, channeltest.Pick{Options: []int{0}})
	if code := a.exit(t); code != 0 {
		t.Fatalf("ask: exit %d: %s", code, a.stderr)
	}
	if out := a.stdout.String(); !strings.HasPrefix(out, "User answered the following questions:") || !strings.Contains(out, "\n   Via: @alice on testchan\n") {
		t.Errorf("ask printed:\n%s", out)
	}

	mcp := startMCP(t, cr.env, "--frontend", "testchan")
	mcp.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[`+
		`{"question":"Which region?","header":"Region","multiSelect":false,"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}`)
	m = cr.message(t, "from askuser mcp", func(x channeltest.Message) bool { return x.Title == "askuser mcp · e2e" })
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if reply := mcp.reply(t, "2"); !strings.Contains(reply, `Selected: us-east\n   Via: @alice on testchan`) || strings.Contains(reply, `"isError":true`) {
		t.Errorf("the tool result: %s", reply)
	}
}

// mcpProc is askuser mcp driven with raw JSON-RPC lines, as a host would.
type mcpProc struct {
	in    io.WriteCloser
	lines chan string
}

func startMCP(t *testing.T, env []string, args ...string) *mcpProc {
	t.Helper()
	cmd := exec.Command(askuserBin(), append([]string{"mcp"}, args...)...)
	cmd.Dir, cmd.Env = repoRoot(t), append(os.Environ(), env...)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &mcpProc{in: in, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		if err := cmd.Wait(); err != nil {
			t.Logf("askuser mcp: %v\n%s", err, stderr.String())
		}
	})
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	p.reply(t, "1")
	p.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

func (p *mcpProc) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// reply returns the response to request id.
func (p *mcpProc) reply(t *testing.T, id string) string {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("askuser mcp ended before answering %s", id)
			}
			if strings.Contains(l, `"id":`+id+`,`) || strings.Contains(l, `"id":`+id+`}`) {
				return l
			}
		case <-deadline:
			t.Fatalf("no response to %s", id)
		}
	}
}

// askuser hook asks through a channel too (it needs no listener): the
// questions of a PreToolUse on AskUserQuestion, and an approval, whose
// whole tool input the message carries (cut at the platform's limit).
func TestChannelAnswersAHook(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	hook := func(event string) *bgAskuser {
		p := exec.Command(askuserBin(), "hook", "--frontend", "testchan")
		b := &bgAskuser{cmd: p, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
		p.Dir, p.Env, p.Stdin, p.Stdout, p.Stderr = repoRoot(t), append(os.Environ(), cr.env...), strings.NewReader(event), b.stdout, b.stderr
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { _ = p.Wait(); close(b.done) }()
		t.Cleanup(func() { _ = p.Process.Kill(); <-b.done })
		return b
	}
	h := hook(`{"hook_event_name":"PreToolUse","tool_name":"AskUserQuestion","tool_use_id":"toolu_1","tool_input":{"questions":[` +
		`{"question":"Which database should we use?","header":"Database","options":[{"label":"PostgreSQL (Recommended)","description":"R"},{"label":"SQLite","description":"E"}],"multiSelect":false}]}}`)
	m := cr.message(t, "from the hook", func(x channeltest.Message) bool { return x.Title == "askuser hook" })
	cr.tap(t, m, channeltest.Pick{Options: []int{1}})
	if code := h.exit(t); code != 0 || !strings.Contains(h.stdout.String(), `"permissionDecision":"allow"`) || !strings.Contains(h.stdout.String(), `"Which database should we use?":"SQLite"`) {
		t.Errorf("the hook: exit %d\n%s\n%s", code, h.stdout, h.stderr)
	}

	long := strings.Repeat("echo line; ", 300)
	h = hook(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_2","tool_input":{"command":"` + long + `rm -rf build"}}`)
	m = cr.message(t, "asking to approve", func(x channeltest.Message) bool { return x.Title == "askuser hook" && x.ID > m.ID })
	if !strings.Contains(m.Text, "echo line; echo line;") || !strings.Contains(m.Text, "more characters") {
		t.Errorf("the approval does not show the input, cut:\n%s", m.Text)
	}
	var allow int
	for i, o := range m.Questions[0].Options {
		if o.Label == "Allow" {
			allow = i
		}
	}
	cr.tap(t, m, channeltest.Pick{Options: []int{allow}})
	if code := h.exit(t); code != 0 || !strings.Contains(h.stdout.String(), `"permissionDecision":"allow"`) {
		t.Errorf("the approval: exit %d\n%s\n%s", code, h.stdout, h.stderr)
	}
}

// askuser hook, mcp and ask have no session: their sets asked through
// --frontend inbox are listed on askuser serve's first page, with what
// asked them (the MCP host named) and since when, and answered on a page
// of their own, an approval with its whole input. The message serve sends
// to its channel links to that page, without serve's token.
func TestInboxPageAnswersHookMCPAndAsk(t *testing.T) {
	t.Parallel()
	cr := newChanRig(t)
	serve := cr.startServe(t)
	printed := serve.url(t)
	base, query, _ := strings.Cut(printed, "?")
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	get := func(u string) string {
		t.Helper()
		body, _ := inboxGet(t, browser, u)
		return body
	}
	get(printed)
	// pageOf is the page a set's message links to, and the set's page as
	// the browser shows it.
	pageOf := func(m channeltest.Message) (string, string) {
		t.Helper()
		link := regexp.MustCompile(`Inbox: (\S+)`).FindStringSubmatch(m.Text)
		if link == nil || !regexp.MustCompile(`^`+regexp.QuoteMeta(base)+`q/[a-z2-7]+$`).MatchString(link[1]) {
			t.Fatalf("the message does not link to the set's page, without the token:\n%s", m.Text)
		}
		return link[1], get(link[1])
	}

	long := strings.Repeat("echo line; ", 300)
	hook := exec.Command(askuserBin(), "hook", "--frontend", "inbox")
	var hookOut strings.Builder
	hook.Dir, hook.Env, hook.Stdout = repoRoot(t), append(os.Environ(), cr.env...), &hookOut
	hook.Stdin = strings.NewReader(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_2","tool_input":{"command":"` + long + `rm -rf build"}}`)
	if err := hook.Start(); err != nil {
		t.Fatal(err)
	}
	hookDone := make(chan error, 1)
	go func() { hookDone <- hook.Wait() }()
	m := cr.message(t, "from the hook", func(x channeltest.Message) bool { return x.Title == "askuser hook" })
	if !strings.Contains(m.Text, "more characters") || !strings.Contains(m.Text, "all of it is at "+base+"q/") {
		t.Errorf("the approval's cut input does not say where the rest is:\n%s", m.Text)
	}
	link, page := pageOf(m)
	for _, want := range []string{"Asked by askuser hook", "Allow Bash to run?", "Show the whole input", "waiting since"} {
		if !strings.Contains(page, want) {
			t.Errorf("the set's page lacks %q", want)
		}
	}
	home := get(base)
	key := strings.TrimPrefix(link, base+"q/")
	for _, want := range []string{`id="asked"`, `href="/q/` + key + `"`, "an approval asked by askuser hook", "just now"} {
		if !strings.Contains(home, want) {
			t.Errorf("the inbox's first page lacks %q:\n%s", want, home)
		}
	}
	webAnswer(t, link+"?"+query, url.Values{"q0": {"0"}})
	select {
	case <-hookDone:
	case <-time.After(waitLimit):
		t.Fatal("the hook did not end")
	}
	if !strings.Contains(hookOut.String(), `"permissionDecision":"allow"`) {
		t.Errorf("the hook: %s", hookOut.String())
	}
	u := cr.message(t, "updated", func(x channeltest.Message) bool { return x.ID == m.ID && len(x.Updates) > 0 })
	if !strings.HasPrefix(u.Updates[0], "Answered: Allow — by a person on the inbox page, ") {
		t.Errorf("the widget shows %q", u.Updates)
	}

	mcp := startMCP(t, cr.env, "--frontend", "inbox")
	mcp.send(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"AskUserQuestion","arguments":{"questions":[`+
		`{"question":"Which region?","header":"Region","multiSelect":false,"options":[{"label":"eu-north","description":"Stockholm"},{"label":"us-east","description":"Virginia"}]}]}}}`)
	m = cr.message(t, "from askuser mcp", func(x channeltest.Message) bool { return strings.HasPrefix(x.Title, "askuser mcp") })
	if m.Title != "askuser mcp · e2e" {
		t.Errorf("the set from askuser mcp says it comes from %q, want the host named", m.Title)
	}
	link, _ = pageOf(m)
	if home := get(base); !strings.Contains(home, "a question asked by askuser mcp · e2e") {
		t.Errorf("the inbox's first page does not list the MCP host's question:\n%s", home)
	}
	webAnswer(t, link+"?"+query, url.Values{"q0": {"1"}})
	if reply := mcp.reply(t, "2"); !strings.Contains(reply, `Selected: us-east`) || strings.Contains(reply, `"isError":true`) {
		t.Errorf("the tool result: %s", reply)
	}

	a := startBackground(t, cr.env, "ask", "--frontend", "inbox", "testdata/questions/database.json")
	m = cr.message(t, "from askuser ask", func(x channeltest.Message) bool { return x.Title == "askuser ask" })
	link, _ = pageOf(m)
	webAnswer(t, link+"?"+query, url.Values{"q0": {"1"}})
	if code := a.exit(t); code != 0 || !strings.Contains(a.stdout.String(), "Selected: MongoDB") {
		t.Errorf("ask: exit %d\n%s\n%s", code, a.stdout, a.stderr)
	}
	if home := get(base); strings.Contains(home, `id="asked"`) {
		t.Errorf("answered sets are still listed as waiting:\n%s", home)
	}
	cr.noServeToken(t, serveToken(t, printed))
}
