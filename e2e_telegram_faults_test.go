// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// approveScript writes a long file through the demo's MCP file server: an
// approval whose whole input does not fit one Telegram message.
var approveScript = `model: scripted-telegram-approve
turns:
  - text: I will write the notes.
    tool_calls:
      - id: toolu_write
        name: mcp__files__write_file
        input: {path: NOTES.md, content: "` + strings.Repeat("a line of the notes, ", 400) + `the end"}
  - text: "Written: {{tool_results}}"
`

// An approval asked in Telegram shows the tool and its whole input: a
// code block cut at Telegram's limit, with a link to the session's page
// in askuser serve for the rest, without serve's token (no call to
// Telegram carries it). Allow lets the call run.
func TestTelegramApprovalShowsTheWholeInput(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	serve := r.startServe(t)
	inbox := serve.url(t)
	work := t.TempDir()
	mcp, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"files": map[string]any{"command": askuserBin(), "args": []string{"__demo-files", work}}}})
	p := startBackground(t, r.env, "run", "-p", "--output-format", "stream-json", "--frontend", "telegram",
		"--script", r.script(t, "approve.yaml", approveScript), "--mcp-config", string(mcp), "Write the notes")
	m := r.message(t, "asking to approve", containing("write_file"))
	t.Logf("the approval as it renders:\n%s", telegramfake.Render(m))
	if n := len(utf16.Encode([]rune(m.Text))); n > 4096 || n < 3500 {
		t.Errorf("the message is %d characters: want it filled up to Telegram's 4,096", n)
	}
	base, _, _ := strings.Cut(inbox, "?")
	link := regexp.MustCompile(`… cut here: all of it is at ` + regexp.QuoteMeta(base) + `s/[0-9a-f-]{36} \(\d+ more characters\)$`)
	if !strings.HasPrefix(m.Text, "Approval · Write the notes\n") || !strings.Contains(m.Sent, "<pre>{\n  &#34;content&#34;: &#34;a line of the notes,") ||
		!link.MatchString(m.Text) || !strings.Contains(m.Sent, `<a href="`+base) {
		t.Errorf("the approval does not show the input cut, with a link:\n%s", m.Sent)
	}
	var labels []string
	for _, row := range m.Keyboard {
		labels = append(labels, row[0].Text)
	}
	if !slices.Equal(labels, []string{"Allow", "Allow for the rest of this session", "Deny", "Other…"}) {
		t.Errorf("the buttons: %q", labels)
	}
	if got := r.tap(t, tgAlice, m.ID, "Allow"); !strings.HasPrefix(got, "Answered: Allow — by @alice on Telegram") {
		t.Errorf("Allow was answered %q", got)
	}
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(work, "NOTES.md")); err != nil || !strings.HasSuffix(string(b), "the end") {
		t.Errorf("the approved call did not run: %v", err)
	}
	token := serveToken(t, inbox)
	for _, c := range r.srv.Calls("") {
		if b, _ := json.Marshal(c.Params); strings.Contains(string(b), token) {
			t.Errorf("serve's token was sent to Telegram, in %s: %.300s", c.Method, b)
		}
	}
}

// The faults, through the binary: sendMessage and answerCallbackQuery
// rate-limited (neither is called again before retry_after), the first
// long poll gone silent (abandoned past its timeout plus the grace, and
// made again). askuser ask still gets alice's answer. Neither --verbose,
// the output, nor the process list shows the token.
func TestTelegramFaults(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	r.srv.Silence(1)
	r.srv.RateLimit("sendMessage", 1)
	r.srv.RateLimit("answerCallbackQuery", 1)
	a := startBackground(t, r.env, "ask", "--verbose", "--frontend", "telegram", "testdata/questions/database.json")
	m := r.message(t, "asked once the rate limit is up", containing("Database"))
	if cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(a.cmd.Process.Pid) + "/cmdline"); err == nil {
		r.noToken(t, "the process list", string(cmdline))
	}
	polls, ok := r.srv.WaitCalls(waitLimit, func(cs []telegramfake.Call) bool {
		return len(getUpdates(cs)) >= 2 && !getUpdates(cs)[0].Ended.IsZero()
	})
	if !ok {
		t.Fatalf("the silent poll was not made again: %+v", polls)
	}
	silent, next := getUpdates(polls)[0], getUpdates(polls)[1]
	if held := silent.Ended.Sub(silent.At); silent.Status != 0 || held < 1400*time.Millisecond || next.At.Before(silent.Ended) {
		t.Errorf("the silent poll: answered %d, abandoned after %s (its timeout 1 s + 500 ms grace), next poll at %s",
			silent.Status, held, next.At.Sub(silent.Ended))
	}
	if got := r.tap(t, tgAlice, m.ID, "SQLite"); !strings.HasPrefix(got, "Answered: SQLite") {
		t.Errorf("the press was answered %q", got)
	}
	for _, method := range []string{"sendMessage", "answerCallbackQuery"} {
		calls := r.srv.Calls(method)
		if len(calls) < 2 || calls[0].Status != 429 || calls[1].At.Sub(calls[0].Ended) < time.Second {
			t.Errorf("%s after a 429 with retry_after 1: %+v", method, calls)
		}
	}
	if code := a.exit(t); code != 0 || !strings.Contains(a.stdout.String(), "Selected: SQLite\n   Via: @alice on Telegram") {
		t.Fatalf("ask: exit %d\n%s\n%s", code, a.stdout, a.stderr)
	}
	r.noToken(t, "ask's output", a.stdout.String()+a.stderr.String())
}

func getUpdates(cs []telegramfake.Call) []telegramfake.Call { return getCalls(cs, "getUpdates") }

// getCalls are the calls of method among cs.
func getCalls(cs []telegramfake.Call, method string) []telegramfake.Call {
	var out []telegramfake.Call
	for _, c := range cs {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// The person deletes the question's message, then answers on the inbox
// page: the widget has nothing to update (no error, no retries), and
// what the agent did next is posted on its own.
func TestTelegramDeletedMessage(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	serve := r.startServe(t)
	inbox := serve.url(t)
	id := r.suspend(t, r.script(t, "one.yaml", chanScript))
	m := r.message(t, "of the waiting session", containing("Which database"))
	r.srv.Delete(m.ID)
	base, token, _ := strings.Cut(inbox, "?")
	webAnswer(t, base+"s/"+id+"?"+token, url.Values{"q0": {"1"}})
	done := r.message(t, "with what the agent did next", containing("The agent went on and finished"))
	if done.ReplyTo != 0 {
		t.Errorf("posted as a reply to the deleted message: %s", done)
	}
	edits := r.srv.Calls("editMessageText")
	if len(edits) != 1 || edits[0].Status != 400 {
		t.Errorf("editMessageText calls: %+v", edits)
	}
	if s := serve.stderr.String(); strings.Contains(s, "could not update") {
		t.Errorf("serve kept trying to update a deleted message:\n%s", s)
	}
}

// askuser channels test telegram sends a sample question, or says in one
// line what to fix.
func TestTelegramChannelsTest(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	test := func() (int, string) {
		cmd := exec.Command(askuserBin(), "channels", "test", "telegram")
		cmd.Env = append(os.Environ(), r.env...)
		out, _ := cmd.CombinedOutput()
		r.noToken(t, "channels test", string(out))
		return cmd.ProcessState.ExitCode(), string(out)
	}
	if code, out := test(); code != 0 || out != "telegram: ok: the settings work and a sample question was sent\n" {
		t.Errorf("exit %d: %s", code, out)
	}
	if ms := r.srv.Messages(); len(ms) != 1 || !strings.Contains(ms[0].Text, "A sample question from @askuser_fake_bot") {
		t.Errorf("the chat has:\n%s", r.srv.Dump())
	}
	r.srv.Refuse(tgGroup, "bot was kicked from the group chat")
	code, out := test()
	if code != 1 || !strings.HasPrefix(out, "askuser: telegram: the bot is not in that group: add it to the group, then try again (") || strings.Count(out, "\n") != 1 {
		t.Errorf("exit %d: %s", code, out)
	}
}

// The Bot API goes silent on the send (a call it would give up on only
// after 60 s): the run's own deadline (1 s) does not wait on it, and the
// run stops to wait (exit 6). The question is still pending: askuser
// serve sends it, and a press resumes the session.
func TestTelegramDeadlineDoesNotWaitOnTelegram(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	r.srv.Stall("sendMessage", 1)
	env := append(slices.Clone(r.env), "ASKUSER_TELEGRAM_TEST_TIMINGS=poll=1s,grace=500ms,call=60s")
	run := startBackground(t, env, "run", "-p", "--output-format", "json", "--frontend", "telegram", "--ask-timeout", "1s",
		"--on-timeout", "suspend", "--script", r.script(t, "one.yaml", chanScript), "Set up the project")
	if code := run.exit(t); code != 6 {
		t.Fatalf("exit %d, want 6 (stopped to wait)\n%s", code, run.stderr)
	}
	// The run let go of the send as it stopped.
	calls, ok := r.srv.WaitCalls(waitLimit, func(cs []telegramfake.Call) bool {
		sent := getCalls(cs, "sendMessage")
		return len(sent) > 0 && !sent[0].Ended.IsZero()
	})
	if sent := getCalls(calls, "sendMessage"); !ok || len(sent) != 1 || sent[0].Status != 0 {
		t.Errorf("the stalled send: %+v", sent)
	}
	r.startServe(t)
	m := r.message(t, "sent by serve", containing("Which database"))
	r.tap(t, tgAlice, m.ID, "SQLite")
	r.reply(t, m.ID, "The agent went on and finished")
}
