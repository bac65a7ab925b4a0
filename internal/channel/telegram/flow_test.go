package telegram_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// Four questions in one set are asked one at a time in one message: a
// single select by a press, a multi-select by ticks and Done, Other by a
// reply to a ForceReply prompt. Every press is answered; the answers are
// @alice's, and the message ends showing the outcome without buttons.
func TestFourQuestionsOneAtATime(t *testing.T) {
	rg := newRig(t, testTimings)
	req := ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion, featuresQuestion, nameQuestion, regionQuestion}}
	a := askBackground(context.Background(), rg.frontend(), req)
	m := rg.message("asking question 1", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Question 1 of 4") })
	for _, want := range []string{"askuser ask\n", "Question 1 of 4 · Database\nWhich database should we use?\n",
		"• PostgreSQL (Recommended) — Relational\n• SQLite — Embedded\n"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the message lacks %q:\n%s", want, m.Text)
		}
	}
	if got := labels(m); !slices.Equal(got, []string{"PostgreSQL (Recommended)", "SQLite", "Other…"}) {
		t.Errorf("the buttons are %q", got)
	}
	presses := 0
	tap := func(label, want string) {
		t.Helper()
		presses++
		if got := rg.tap(alice, m.ID, label); got != want {
			t.Errorf("pressing %q was answered %q, want %q", label, got, want)
		}
	}
	tap("SQLite", "Recorded. Question 2 of 4 next.")
	q2 := rg.showing(m.ID, "Question 2 of 4 · Features")
	if !strings.Contains(q2.Text, "✓ Database: SQLite\n") {
		t.Errorf("question 2 does not show the answer so far:\n%s", q2.Text)
	}
	tap("☐ Docs", "")
	tap("☐ Lint", "")
	tap("☑ Docs", "")
	tap("☐ Tests", "")
	if got := labels(rg.showing(m.ID, "Question 2 of 4")); !slices.Equal(got, []string{"☐ Docs", "☑ Tests", "☑ Lint", "Other…", "Done"}) {
		t.Errorf("after the ticks the buttons are %q", got)
	}
	tap("Done", "Recorded. Question 3 of 4 next.")
	rg.showing(m.ID, "Question 3 of 4 · Name")
	tap("Other…", "Type your answer as a reply to my message.")
	prompt := rg.message("asking for typed text", func(m telegramfake.Message) bool { return m.ForceReply })
	if prompt.ReplyTo != m.ID || !strings.Contains(prompt.Text, "@alice, reply to this message with your answer to Name.") {
		t.Errorf("the prompt replies to %d and says:\n%s", prompt.ReplyTo, prompt.Text)
	}
	if _, err := rg.srv.Reply(alice, prompt.ID, "payments-\x1b[31mgateway\u202e"); err != nil {
		t.Fatal(err)
	}
	rg.showing(m.ID, "Question 4 of 4 · Region")
	presses++
	final := rg.tap(alice, m.ID, "us-east")
	if !strings.HasPrefix(final, "Answered: Database: SQLite; Features: Tests, Lint; Name: Other: payments-gateway; Region: us-east — by @alice on Telegram, ") {
		t.Errorf("the last press was answered %q", final)
	}
	answers, err := a.Wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if answers[0].Selected[0] != "SQLite" || strings.Join(answers[1].Selected, ",") != "Tests,Lint" ||
		len(answers[2].Selected) != 0 || answers[2].Custom != "payments-gateway" || answers[3].Selected[0] != "us-east" {
		t.Errorf("answers %+v", answers)
	}
	for _, a := range answers {
		if a.Source != ask.SourcePerson || a.Via != "@alice on Telegram" || a.AnsweredAt.IsZero() {
			t.Errorf("answer %+v is not @alice's", a)
		}
	}
	if text := ask.FormatResult(answers); !strings.Contains(text, "   Via: @alice on Telegram\n") {
		t.Errorf("the result lacks the Via line:\n%s", text)
	}
	done := rg.showing(m.ID, "✅ Answered: ")
	if done.Keyboard != nil || !strings.HasPrefix(done.Text, "askuser ask — Database, Name, Features, Region\n") && !strings.HasPrefix(done.Text, "askuser ask — Database, Features, Name, Region\n") {
		t.Errorf("the outcome shows:\n%s", telegramfake.Render(done))
	}
	if n := len(rg.srv.Calls("answerCallbackQuery")); n != presses {
		t.Errorf("%d presses, %d callback answers", presses, n)
	}
	for _, c := range rg.srv.Calls("") {
		for _, d := range callbackData(c) {
			if len(d) > 64 {
				t.Errorf("%s sent callback_data of %d bytes: %q", c.Method, len(d), d)
			}
		}
	}
}

// labels are the texts of a message's buttons, row by row.
func labels(m telegramfake.Message) []string {
	var out []string
	for _, row := range m.Keyboard {
		for _, b := range row {
			out = append(out, b.Text)
		}
	}
	return out
}

// callbackData is every callback_data a call sent.
func callbackData(c telegramfake.Call) []string {
	b, _ := json.Marshal(c.Params["reply_markup"])
	var kb struct {
		Rows [][]struct {
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	_ = json.Unmarshal(b, &kb)
	var out []string
	for _, row := range kb.Rows {
		for _, b := range row {
			out = append(out, b.Data)
		}
	}
	return out
}

// A press, or a reply, from someone not on the allow-list (a user id,
// not the group) is told "not allowed" and changes nothing; the set is
// still answered by alice. bob, who has no username, is named by his id.
func TestStrangersAreRefused(t *testing.T) {
	rg := newRig(t, testTimings)
	req := ask.Request{ID: "ask_2", Questions: []ask.Question{nameQuestion}}
	a := askBackground(context.Background(), rg.frontend(), req)
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Name") })
	if got := rg.tap(mallory, m.ID, "api"); got != channel.NotAllowed {
		t.Errorf("mallory's press was answered %q", got)
	}
	if got := rg.tap(mallory, m.ID, "Other…"); got != channel.NotAllowed {
		t.Errorf("mallory's Other… was answered %q", got)
	}
	if now, _ := rg.srv.Message(m.ID); len(now.Edits) != 0 || len(rg.srv.Messages()) != 1 {
		t.Errorf("a stranger's press changed the chat:\n%s", rg.srv.Dump())
	}
	e, err := rg.st.Registry().Get(context.Background(), relay.Key("", "ask_2", time.Time{}))
	if err != nil || e.Sent["telegram"] != nil && e.Sent["telegram"].State != nil {
		t.Errorf("a stranger's press was kept: %+v, %v", e, err)
	}
	rg.tap(bob, m.ID, "Other…")
	prompt := rg.message("prompting bob", func(m telegramfake.Message) bool { return m.ForceReply })
	if _, err := rg.srv.Reply(mallory, prompt.ID, "mallory was here"); err != nil {
		t.Fatal(err)
	}
	if _, err := rg.srv.Reply(bob, prompt.ID, "billing"); err != nil {
		t.Fatal(err)
	}
	answers, err := a.Wait(t)
	if err != nil || answers[0].Custom != "billing" || answers[0].Via != "1002 on Telegram" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
	for _, m := range rg.srv.Messages() {
		if m.From.IsBot && m.ReplyTo != 0 && m.ReplyTo != 1 {
			t.Errorf("the bot answered a stranger's reply: %s", m)
		}
	}
}

// A press on an older rendering is refused: on a question answered
// already (same revision), and on a message replaced by a newer
// revision of the set.
func TestStalePressesAreRefused(t *testing.T) {
	rg := newRig(t, testTimings)
	req := ask.Request{ID: "ask_3", Questions: []ask.Question{dbQuestion, regionQuestion}}
	a := askBackground(context.Background(), rg.frontend(), req)
	old := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Question 1 of 2") })
	sqlite := old.Keyboard[1][0].Data
	rg.tap(alice, old.ID, "SQLite")
	rg.showing(old.ID, "Question 2 of 2")
	if got, _ := rg.srv.Answer(limit, mustPress(t, rg, alice, old.ID, sqlite)); got != "Question 1 is answered already; now question 2 of 2." {
		t.Errorf("a press on question 1 again was answered %q", got)
	}
	eu := mustMessage(t, rg, old.ID).Keyboard[0][0].Data
	key := relay.Key("", "ask_3", time.Time{})
	_, err := rg.st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request.Questions[1].Options = append(e.Request.Questions[1].Options, ask.Option{Label: "ap-south"})
		e.Rev++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Revision 2 asks from its first question again, in a new message.
	rg.message("of revision 2", func(m telegramfake.Message) bool { return m.ID > old.ID && strings.Contains(m.Text, "Question 1 of 2") })
	rg.showing(old.ID, "Replaced by a newer message.")
	if got, _ := rg.srv.Answer(limit, mustPress(t, rg, alice, old.ID, eu)); got != "This message is out of date: answer the newest one." {
		t.Errorf("a press on revision 1 was answered %q", got)
	}
	if a.Answered() {
		t.Fatal("a stale press answered the set")
	}
}

func mustPress(t *testing.T, rg *rig, u telegramfake.User, id int, data string) string {
	t.Helper()
	q, err := rg.srv.PressData(u, id, data)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustMessage(t *testing.T, rg *rig, id int) telegramfake.Message {
	t.Helper()
	m, ok := rg.srv.Message(id)
	if !ok {
		t.Fatalf("no message %d", id)
	}
	return m
}

// The same button pressed twice before the first is handled counts once:
// both presses are told the one answer taken. Another allowed person
// pressing after that is told whose answer it was.
func TestDoublePressIsAnsweredOnce(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_4", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Database") })
	q1, err1 := rg.srv.Press(alice, m.ID, "SQLite")
	q2, err2 := rg.srv.Press(alice, m.ID, "SQLite")
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	first, _ := rg.srv.Answer(limit, q1)
	second, _ := rg.srv.Answer(limit, q2)
	// The second is told the answer taken, which is hers.
	if !strings.HasPrefix(first, "Answered: SQLite — by @alice on Telegram, ") || second != first {
		t.Errorf("the presses were answered %q and %q", first, second)
	}
	answers, err := a.Wait(t)
	if err != nil || len(answers) != 1 || answers[0].Selected[0] != "SQLite" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
	rg.showing(m.ID, "✅")
	if got, _ := rg.srv.Answer(limit, mustPress(t, rg, bob, m.ID, m.Keyboard[0][0].Data)); got != "This question set was answered by @alice." {
		t.Errorf("bob's press afterwards was answered %q", got)
	}
	key := relay.Key("", "ask_4", time.Time{})
	d, ok, err := rg.st.Mailbox().Get(context.Background(), session.Box{Key: key})
	if err != nil || !ok || d.Answers[0].Selected[0] != "SQLite" || d.By != "@alice on Telegram" {
		t.Errorf("the mailbox holds %+v (%v, %v)", d, ok, err)
	}
}

// One person answers a set: another allowed person who presses half-way
// starts it over for themselves, and then every answer is theirs.
func TestAnotherPersonStartsOver(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_5", Questions: []ask.Question{dbQuestion, regionQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Question 1 of 2") })
	rg.tap(alice, m.ID, "SQLite")
	rg.showing(m.ID, "Question 2 of 2")
	if got := rg.tap(bob, m.ID, "eu-north"); got != "Starting over from question 1 for you (@alice had answered 1 of 2)." {
		t.Errorf("bob's press half-way was answered %q", got)
	}
	rg.showing(m.ID, "Question 1 of 2")
	rg.tap(bob, m.ID, "PostgreSQL (Recommended)")
	rg.showing(m.ID, "Question 2 of 2")
	rg.tap(bob, m.ID, "eu-north")
	answers, err := a.Wait(t)
	if err != nil || answers[0].Selected[0] != "PostgreSQL" || answers[1].Selected[0] != "eu-north" {
		t.Fatalf("answers %+v, %v", answers, err)
	}
	for _, a := range answers {
		if a.Via != "1002 on Telegram" {
			t.Errorf("answer %+v is not bob's", a)
		}
	}
}

// An outcome is the last thing a message shows: a press handled after
// it (one in flight when the set was answered elsewhere) does not bring
// the keyboard back.
func TestOutcomeIsTheLastThingShown(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_o", Questions: []ask.Question{featuresQuestion, dbQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Features") })
	tick, other := m.Keyboard[0][0].Data, m.Keyboard[3][0].Data
	key := relay.Key("", "ask_o", time.Time{})
	e, err := rg.st.Registry().Get(context.Background(), key)
	for err == nil && (e.Sent["telegram"] == nil || len(e.Sent["telegram"].Ref) == 0) {
		time.Sleep(10 * time.Millisecond)
		e, err = rg.st.Registry().Get(context.Background(), key)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := rg.ch.Update(context.Background(), e.Sent["telegram"].Ref, channel.Outcome{State: channel.Answered, Text: "Answered elsewhere."}); err != nil {
		t.Fatal(err)
	}
	rg.srv.Answer(limit, mustPress(t, rg, alice, m.ID, tick))
	rg.srv.Answer(limit, mustPress(t, rg, alice, m.ID, other))
	if now := mustMessage(t, rg, m.ID); now.Keyboard != nil || !strings.Contains(now.Text, "Answered elsewhere.") {
		t.Errorf("after the outcome, a press made the message show:\n%s", telegramfake.Render(now))
	}
	if a.Answered() {
		t.Error("the set was answered")
	}
}

// The answers so far live in the state directory: a relay started again
// (askuser serve restarted) goes on from the question asked now. Typed
// text is cleaned and capped as at the terminal.
func TestRestartGoesOnAndTextIsCapped(t *testing.T) {
	rg := newRig(t, testTimings)
	a := askBackground(context.Background(), rg.frontend(), ask.Request{ID: "ask_g", Questions: []ask.Question{featuresQuestion, nameQuestion}})
	m := rg.message("asking", func(m telegramfake.Message) bool { return strings.Contains(m.Text, "Question 1 of 2") })
	rg.tap(alice, m.ID, "☐ Lint")
	rg.tap(alice, m.ID, "Done")
	rg.showing(m.ID, "Question 2 of 2")
	rg.stop()
	rg.start()
	rg.tap(alice, m.ID, "Other…")
	prompt := rg.message("prompting", func(m telegramfake.Message) bool { return m.ForceReply })
	long := "\x1b]8;;http://evil\x07" + strings.Repeat("ab", 1500)
	if _, err := rg.srv.Reply(alice, prompt.ID, long); err != nil {
		t.Fatal(err)
	}
	answers, err := a.Wait(t)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(answers[0].Selected, ",") != "Lint" {
		t.Errorf("the answer given before the restart: %+v", answers[0])
	}
	if got := answers[1].Custom; len([]rune(got)) != ask.MaxFreeTextChars || strings.ContainsAny(got, "\x1b\x07") || !strings.HasPrefix(got, "abab") {
		t.Errorf("the typed answer, %d characters: %q…", len([]rune(got)), got[:min(len(got), 40)])
	}
}
