// The askuser binary runs on these systems; so do the helpers reused.
//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
)

// These tests drive real askuser processes against the fake Telegram Bot
// API (telegramfake), on loopback: people press buttons and reply in a
// group chat, and the agent goes on.

// tgToken is the bot's token: no output, log or file may show it.
const tgToken = "7345091234:AAH-e2e_token_never_to_be_seen_0123456"

// The group's people: alice and bob may answer; mallory may not.
var (
	tgAlice   = telegramfake.User{ID: 1001, FirstName: "Alice", Username: "alice"}
	tgBob     = telegramfake.User{ID: 1002, FirstName: "Bob"}
	tgMallory = telegramfake.User{ID: 666, FirstName: "Mallory", Username: "mallory"}
)

const tgGroup = -100500

// tgTimings shorten the channel's waits in the end-to-end build: a long
// poll of 1 s, abandoned 500 ms after that when it goes silent.
const tgTimings = "poll=1s,grace=500ms,call=3s,inline=5s,retry=200ms"

// fourScript asks four questions in one set, then ends with what it was
// told.
const fourScript = `model: scripted-telegram
turns:
  - text: Four things first.
    tool_calls:
      - id: toolu_setup
        name: AskUserQuestion
        input: {questions: [
          {question: "Which database should we use?", header: Database, multiSelect: false, options: [{label: "PostgreSQL (Recommended)", description: Relational}, {label: SQLite, description: Embedded}]},
          {question: "Which features should the first release have?", header: Features, multiSelect: true, options: [{label: Docs, description: A guide}, {label: Tests, description: Unit tests}, {label: Lint, description: Style checks}]},
          {question: "What should the service be called?", header: Name, multiSelect: false, options: [{label: api, description: Short}, {label: backend, description: Plain}]},
          {question: "Which region?", header: Region, multiSelect: false, options: [{label: eu-north, description: Stockholm}, {label: us-east, description: Virginia}]}]}
  - text: "Set up with what I was told:\n{{tool_results}}"
`

// tgRig is a fake Bot API with a group chat, and the environment that
// points askuser at it, with its own state directory.
type tgRig struct {
	srv   *telegramfake.Server
	env   []string
	state string
	dir   string
}

func newTgRig(t testing.TB) *tgRig {
	t.Helper()
	srv := telegramfake.NewServer(tgToken)
	t.Cleanup(srv.Close)
	srv.AddChat(tgGroup, "group")
	r := &tgRig{srv: srv, state: filepath.Join(t.TempDir(), "state"), dir: t.TempDir()}
	r.env = []string{"ASKUSER_STATE_DIR=" + r.state, "XDG_CONFIG_HOME=" + t.TempDir(), "TELEGRAM_BOT_TOKEN=" + tgToken,
		"ASKUSER_TELEGRAM_CHAT=-100500", "ASKUSER_TELEGRAM_USERS=1001,1002", "ASKUSER_TELEGRAM_API_URL=" + srv.URL,
		"ASKUSER_TELEGRAM_TEST_TIMINGS=" + tgTimings, "ASKUSER_FRONTEND=", "ASKUSER_ANSWERS=", "ASKUSER_NOTIFY_CMD="}
	return r
}

// script writes a scripted model and returns its path.
func (r *tgRig) script(t testing.TB, name, yaml string) string {
	t.Helper()
	path := filepath.Join(r.dir, name)
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// message waits for a message that cond accepts.
func (r *tgRig) message(t testing.TB, what string, cond func(telegramfake.Message) bool) telegramfake.Message {
	t.Helper()
	m, ok := r.srv.WaitMessage(waitLimit, cond)
	if !ok {
		t.Fatalf("no message %s; the chat has:\n%s", what, r.srv.Dump())
	}
	return m
}

func containing(s string) func(telegramfake.Message) bool {
	return func(m telegramfake.Message) bool { return strings.Contains(m.Text, s) }
}

// tap presses label on message id as u and returns what the callback was
// answered.
func (r *tgRig) tap(t testing.TB, u telegramfake.User, id int, label string) string {
	t.Helper()
	text, err := r.srv.Tap(waitLimit, u, id, label)
	if err != nil {
		t.Fatalf("%v\nthe chat has:\n%s", err, r.srv.Dump())
	}
	return text
}

// startServe starts askuser serve on the rig's state directory and waits
// until it serves the channel.
func (r *tgRig) startServe(t testing.TB) *bgAskuser { return serveChannels(t, r.env, "telegram") }

// suspend runs script until it stops to wait on its question, asked in
// Telegram, and returns the session's id.
func (r *tgRig) suspend(t *testing.T, script string) string {
	t.Helper()
	id, out := suspendThrough(t, r.env, "telegram", script)
	r.noToken(t, "the run's output", out)
	return id
}

func (r *tgRig) journal(t testing.TB, id string) string { return readJournal(t, r.state, id) }

// noToken fails when s shows the bot's token, or its secret half.
func (r *tgRig) noToken(t testing.TB, where, s string) {
	t.Helper()
	_, secret, _ := strings.Cut(tgToken, ":")
	if strings.Contains(s, secret) {
		t.Errorf("%s shows the bot token:\n%s", where, s)
	}
}

// noTokenInState greps every file under the state directory.
func (r *tgRig) noTokenInState(t testing.TB) {
	t.Helper()
	n := 0
	_ = filepath.WalkDir(r.state, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			data, _ := os.ReadFile(path)
			r.noToken(t, path, string(data))
			n++
		}
		return nil
	})
	if n == 0 {
		t.Error("the state directory holds no file to look at")
	}
}

// reply waits for a message of the bot's posted as a reply to id.
func (r *tgRig) reply(t testing.TB, id int, holding string) telegramfake.Message {
	t.Helper()
	return r.message(t, "in reply to the question", func(m telegramfake.Message) bool {
		return m.From.IsBot && m.ReplyTo == id && strings.Contains(m.Text, holding)
	})
}

// A live run asks four questions in one set through Telegram, served by
// the run itself: a single select by a press, a multi-select by ticks and
// Done, Other by a reply to the ForceReply prompt, and a last press. The
// agent goes on with @alice's answers, and the message says who answered.
func TestTelegramAnswersALiveRun(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	p := startBackground(t, r.env, "run", "-p", "--output-format", "stream-json", "--frontend", "telegram",
		"--script", r.script(t, "four.yaml", fourScript), "Set up the project")
	m := r.message(t, "asking question 1", containing("Question 1 of 4"))
	t.Logf("sendMessage as the fake received it:\n%s\nas it renders:\n%s", jsonText(r.srv.Calls("sendMessage")[0].Params), telegramfake.Render(m))
	if !strings.HasPrefix(m.Text, "Set up the project\nQuestion 1 of 4 · Database\n") {
		t.Errorf("the message:\n%s", m.Text)
	}
	q1 := m.Keyboard[1][0].Data
	steps := []struct{ label, want string }{{"SQLite", "Recorded. Question 2 of 4 next."}, {"☐ Docs", ""}, {"☐ Tests", ""},
		{"Done", "Recorded. Question 3 of 4 next."}, {"Other…", "Type your answer as a reply to my message."}}
	for _, s := range steps {
		if got := r.tap(t, tgAlice, m.ID, s.label); got != s.want {
			t.Errorf("pressing %q was answered %q, want %q", s.label, got, s.want)
		}
	}
	// A press on question 1's buttons, which the message no longer shows.
	if q, err := r.srv.PressData(tgAlice, m.ID, q1); err != nil {
		t.Fatal(err)
	} else if got, _ := r.srv.Answer(waitLimit, q); got != "Question 1 is answered already; now question 3 of 4." {
		t.Errorf("a press on an older rendering was answered %q", got)
	}
	prompt := r.message(t, "asking for the name", func(x telegramfake.Message) bool { return x.ForceReply && x.ReplyTo == m.ID })
	if _, err := r.srv.Reply(tgAlice, prompt.ID, "payments"); err != nil {
		t.Fatal(err)
	}
	r.message(t, "asking question 4", func(x telegramfake.Message) bool { return x.ID == m.ID && strings.Contains(x.Text, "Question 4 of 4") })
	began := time.Now()
	if got := r.tap(t, tgAlice, m.ID, "us-east"); !strings.HasPrefix(got, "Answered: Database: SQLite; Features: Docs, Tests; Name: Other: payments; Region: us-east — by @alice on Telegram, ") {
		t.Errorf("the last press was answered %q", got)
	}
	t.Logf("from the last press to the tool result: %s", waitOutput(t, p, `"tool_result"`).Sub(began).Round(time.Millisecond))
	if code := p.exit(t); code != 0 {
		t.Fatalf("exit %d\nstderr: %s", code, p.stderr)
	}
	events := p.stdout.String()
	for _, want := range []string{`"selectedOptions":["SQLite"],"source":"person","via":"@alice on Telegram"`,
		`"selectedOptions":["Docs","Tests"],"source":"person","via":"@alice on Telegram"`,
		`"selectedOptions":[],"customInput":"payments","source":"person","via":"@alice on Telegram"`,
		`Selected: us-east\n   Via: @alice on Telegram\n`, `"subtype":"success"`} {
		if !strings.Contains(events, want) {
			t.Errorf("the run's events lack %s:\n%s", want, events)
		}
	}
	done := r.message(t, "showing the outcome", func(x telegramfake.Message) bool { return x.ID == m.ID && x.Keyboard == nil })
	if !strings.HasPrefix(done.Text, "Set up the project — Database, Features, Name, Region\n✅ Answered: Database: SQLite; ") {
		t.Errorf("the outcome shows:\n%s", done.Text)
	}
	r.noToken(t, "the run's output", events+p.stderr.String())
}

// A run stops to wait (exit 6) while the Bot API is down; askuser serve
// holds the channel and sends the question once it is back. mallory's
// press is refused; alice presses twice at once, and one answer is taken:
// serve resumes the session in the background, the agent finishes with
// it, the message says who answered, and the agent's final text is
// posted as a reply to the question. The token shows nowhere.
func TestTelegramLateAnswerResumesTheSession(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	r.srv.EchoToken()
	r.srv.Down("sendMessage", 2)
	serve := r.startServe(t)
	id := r.suspend(t, r.script(t, "one.yaml", chanScript))
	m := r.message(t, "of the waiting session, once the API is back", containing("Which database"))
	if got := r.tap(t, tgMallory, m.ID, "SQLite"); got != channel.NotAllowed {
		t.Errorf("mallory's press was answered %q", got)
	}
	q1, err1 := r.srv.Press(tgAlice, m.ID, "SQLite")
	q2, err2 := r.srv.Press(tgAlice, m.ID, "SQLite")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	a1, _ := r.srv.Answer(waitLimit, q1)
	a2, _ := r.srv.Answer(waitLimit, q2)
	if !strings.HasPrefix(a1, "Answered: SQLite — by @alice on Telegram, ") || a2 != a1 {
		t.Errorf("the two presses were answered %q and %q", a1, a2)
	}
	done := r.reply(t, m.ID, "The agent went on and finished")
	if !strings.Contains(done.Text, "Selected: SQLite\n   Via: @alice on Telegram\n   Answered later: by a person") {
		t.Errorf("the reply beside the question:\n%s", done.Text)
	}
	widget := r.message(t, "showing who answered", func(x telegramfake.Message) bool { return x.ID == m.ID && x.Keyboard == nil })
	if !strings.Contains(widget.Text, "✅ Answered: SQLite — by @alice on Telegram, ") {
		t.Errorf("the question shows:\n%s", widget.Text)
	}
	j := r.journal(t, id)
	if strings.Count(j, `{"type":"answered",`) != 1 || !strings.Contains(j, `"via":"@alice on Telegram"`) || strings.Contains(j, "mallory") {
		t.Errorf("the journal does not record the run finished with alice's answer alone:\n%s", j)
	}
	if n := len(r.srv.Calls("answerCallbackQuery")); n != 3 {
		t.Errorf("%d callback answers for 3 presses", n)
	}
	r.noToken(t, "serve's output", serve.stderr.String()+serve.stdout.String())
	r.noTokenInState(t)
}

// askuser serve is killed (kill -9) after it sent a question; the next
// serve goes on, sending nothing twice. Then it is killed again after a
// press was taken but before Telegram heard the press was handled: the
// next serve gets the press again, and the session is answered once.
func TestTelegramSurvivesServeKilled(t *testing.T) {
	t.Parallel()
	r := newTgRig(t)
	serve := r.startServe(t)
	id := r.suspend(t, r.script(t, "one.yaml", chanScript))
	m := r.message(t, "of the waiting session", containing("Which database"))
	waitGlobHolding(t, filepath.Join(r.state, "relay", "*.json"), `"msg":`+strconv.Itoa(m.ID))
	kill(t, serve)
	serve = r.startServe(t)
	r.srv.KeepUpdates(true)
	q, err := r.srv.Press(tgAlice, m.ID, "SQLite")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r.srv.Answer(waitLimit, q); !strings.HasPrefix(got, "Answered: SQLite") {
		t.Fatalf("the press was answered %q", got)
	}
	kill(t, serve)
	serve = r.startServe(t)
	if !r.srv.WaitAnswered(waitLimit, q, 2) {
		t.Fatal("the next serve did not get the press again")
	}
	r.srv.KeepUpdates(false)
	r.reply(t, m.ID, "The agent went on and finished")
	if j := r.journal(t, id); strings.Count(j, `{"type":"answered",`) != 1 {
		t.Errorf("the call was not answered exactly once:\n%s", j)
	}
	asked := 0
	for _, c := range r.srv.Calls("sendMessage") {
		if _, keyboard := c.Params["reply_markup"]; keyboard && strings.Contains(c.Params["text"].(string), "Which database") && c.Status == 200 {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("the question was sent %d times", asked)
	}
}

// waitGlobHolding waits until a file matching pattern holds want.
func waitGlobHolding(t *testing.T, pattern, want string) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); ; time.Sleep(5 * time.Millisecond) {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no file %s holds %s", pattern, want)
		}
	}
}

// jsonText is v as indented JSON, for a person to read in a test's log.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
	return b.String()
}

// serveChannels starts askuser serve with env and waits until it serves
// the chat channels named (as its stderr lists them).
func serveChannels(t testing.TB, env []string, names string) *bgAskuser {
	t.Helper()
	p := startBackground(t, env, "serve")
	for deadline := time.Now().Add(waitLimit); !strings.Contains(p.stderr.String(), "serving chat channels: "+names); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start serving %s: %s", names, p.stderr)
		}
	}
	return p
}

// suspendThrough runs script, asking through frontend, until it stops to
// wait on its question (exit 6), and returns the session's id and what
// it printed.
func suspendThrough(t testing.TB, env []string, frontend, script string) (id, out string) {
	t.Helper()
	run := exec.Command(askuserBin(), "run", "-p", "--output-format", "json", "--frontend", frontend, "--ask-timeout", "1s",
		"--on-timeout", "suspend", "--script", script, "Set up the project")
	run.Dir, run.Env = repoRoot(t), append(os.Environ(), env...)
	b, err := run.Output()
	if run.ProcessState.ExitCode() != 6 {
		t.Fatalf("the run should stop to wait (exit 6): %v\n%s", err, b)
	}
	var res struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(b, &res); err != nil || res.SessionID == "" {
		t.Fatalf("the run's result: %v\n%s", err, b)
	}
	return res.SessionID, string(b)
}

// readJournal returns the journal of session id in state.
func readJournal(t testing.TB, state, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "sessions", id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
