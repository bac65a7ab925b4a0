package telegram_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channel/telegram/telegramfake"
	"github.com/askuser/askuser/internal/session"
)

const inboxLink = "http://127.0.0.1:9/s/sess?token=0123abcd"

// An approval shows the tool and its whole input as a code block, cut at
// Telegram's 4,096 characters (counted as Telegram counts them) with a
// link to the inbox page for the rest; its options are Allow, Allow for
// the rest of this session, Deny and Other, whose prompt asks what the
// agent should do instead.
func TestApprovalShowsTheWholeInput(t *testing.T) {
	rg := newRig(t, testTimings, func(rg *rig) {
		rg.cfg.Link = func(session.Entry) string { return inboxLink }
	})
	last := 0
	for _, c := range []struct {
		name, body string
		cut        bool
	}{
		{"short", "echo hello > greeting.txt", false},
		{"long", "cat <<'EOF' > notes.txt\n" + strings.Repeat("a line of the heredoc <b>&amp;\n", 400) + "EOF", true},
		{"wide", strings.Repeat("😀", 5000), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			input, _ := json.Marshal(map[string]string{"command": c.body})
			req := approval.Request{ID: "toolu_" + c.name, Tool: "Bash", Input: input}.Question(true)
			a := askBackground(context.Background(), rg.frontend(), req)
			m := rg.message("asking to approve "+c.name, func(m telegramfake.Message) bool {
				return m.ID > last && strings.Contains(m.Text, "Allow Bash to run?")
			})
			last = m.ID
			if n := len(utf16.Encode([]rune(m.Text))); n > 4096 {
				t.Errorf("the message is %d UTF-16 units long", n)
			}
			if !strings.HasPrefix(m.Text, "Approval · askuser ask\n") || !strings.Contains(m.Sent, "<pre>{\n  &#34;command&#34;: &#34;") {
				t.Errorf("the message does not show the input as a code block:\n%s", m.Sent)
			}
			cut := strings.Contains(m.Text, "… cut here: all of it is at "+inboxLink+" (")
			if cut != c.cut || c.cut && !strings.Contains(m.Sent, `<a href="`+strings.ReplaceAll(inboxLink, "&", "&amp;")+`">`) {
				t.Errorf("cut %v, want %v:\n%s", cut, c.cut, m.Sent)
			}
			if !c.cut && !strings.Contains(m.Text, c.body) {
				t.Errorf("the short input is not shown whole:\n%s", m.Text)
			}
			if got := labels(m); !slices.Equal(got, []string{"Allow", "Allow for the rest of this session", "Deny", "Other…"}) {
				t.Errorf("the buttons are %q", got)
			}
			rg.tap(alice, m.ID, "Other…")
			prompt := rg.message("prompting", func(p telegramfake.Message) bool { return p.ForceReply && p.ReplyTo == m.ID })
			last = prompt.ID
			if !strings.Contains(prompt.Text, "reply to this message with what the agent should do instead") {
				t.Errorf("the prompt says:\n%s", prompt.Text)
			}
			if _, err := rg.srv.Reply(alice, prompt.ID, "run it with --dry-run first"); err != nil {
				t.Fatal(err)
			}
			answers, err := a.Wait(t)
			if err != nil || answers[0].Custom != "run it with --dry-run first" || len(answers[0].Selected) != 0 {
				t.Fatalf("answers %+v, %v", answers, err)
			}
		})
	}
}
