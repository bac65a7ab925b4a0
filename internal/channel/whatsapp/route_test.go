package whatsapp_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/approval"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// A typed reply answers only the set it was meant for: one that quotes
// nothing is never guessed onto one of several sets, never answers an
// approval, and never answers a question sent after it was written; a
// delivery is taken once, across restarts.

// approvalOf is the approval of running command with Bash, as askuser
// hook asks it.
func approvalOf(t *testing.T, id, command string) ask.Request {
	t.Helper()
	input, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	return approval.Request{ID: id, Tool: "Bash", Input: input}.Question(false)
}

// Two sets wait: "1" quoting nothing answers neither. The person is told
// which wait and how to answer one; a reply quoting each answers it.
func TestAnUnquotedReplyIsNotGuessedOntoOneOfSeveralSets(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	qa := rg.message("asking A", asking1("Database"))
	b := rg.ask(ask.Request{ID: "ask_2", Questions: []ask.Question{langQuestion}})
	qb := rg.message("asking B", asking1("Language"))
	d := taken(t)(rg.fake.Type(alice, "1", ""))
	told := rg.message("saying which sets wait", replyTo(d.ID, "2 questions wait for your answer: "))
	for _, want := range []string{"*Database* (Set up the project)", "*Language* (Set up the project)", "reply to it (swipe right on it"} {
		if !strings.Contains(told.Text(), want) {
			t.Errorf("the reply lacks %q:\n%s", want, told.Text())
		}
	}
	a.Pending(t)
	b.Pending(t)
	taken(t)(rg.fake.Type(alice, "2", qb.ID))
	if got := b.Answers(t); !slices.Equal(got[0].Selected, []string{"Rust"}) {
		t.Fatalf("B: %+v", got)
	}
	taken(t)(rg.fake.Type(alice, "2", qa.ID))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"SQLite"}) {
		t.Fatalf("A: %+v", got)
	}
}

// An approval alone waits: "1" quoting nothing does not allow it, and the
// person is told to tap or reply to it; "1" replying to it allows it. Its
// footer says so.
func TestAnApprovalTakesNoUnquotedReply(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(approvalOf(t, "toolu_1", "rm -rf ~/project"))
	m := rg.message("asking to approve", asking1("Approve"))
	if f := m.Interactive().Footer; f == nil || !strings.Contains(f.Text, "reply to this message") {
		t.Errorf("the footer does not say to reply to the approval:\n%s", whatsappfake.Render(m))
	}
	d := taken(t)(rg.fake.Type(alice, "1", ""))
	rg.message("refusing the unquoted reply", replyTo(d.ID, "An approval is answered only by a tap on its buttons, or by a reply to it"))
	a.Pending(t)
	taken(t)(rg.fake.Type(alice, "1", m.ID))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{approval.LabelAllow}) {
		t.Fatalf("answers %+v", got)
	}
}

// A set is answered; the person writes "1", and a second set is sent
// 3 s later by askuser's clock, before the reply arrives. The reply,
// stamped before the second set was sent, does not answer it; a reply
// quoting it does.
func TestAReplyWrittenBeforeTheQuestionWasSentDoesNotAnswerIt(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	taken(t)(rg.fake.Tap(alice, rg.message("asking A", asking1("Database")), 0))
	a.Answers(t)
	body, typed := rg.fake.Written(alice, "1", "")
	rg.skew.Store(int64(3 * time.Second))
	b := rg.ask(ask.Request{ID: "ask_2", Questions: []ask.Question{langQuestion}})
	qb := rg.message("asking B", asking1("Language"))
	taken(t)(rg.fake.Deliver(body))
	rg.message("refusing the earlier reply", replyTo(typed, "This was written before *Language* (Set up the project) was sent"))
	b.Pending(t)
	taken(t)(rg.fake.Type(alice, "4", qb.ID))
	if got := b.Answers(t); !slices.Equal(got[0].Selected, []string{"Zig"}) {
		t.Fatalf("answers %+v", got)
	}
}

// A delivery WhatsApp makes again after askuser serve restarted is taken
// no second time: "7", refused once with what to send, is not refused
// again; the next message is.
func TestADeliveryIsTakenOnceAcrossARestart(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	body, seven := rg.fake.Written(alice, "7", m.ID)
	taken(t)(rg.fake.Deliver(body))
	rg.message("refusing 7", replyTo(seven, `There is no option "7"`))
	rg.restart()
	taken(t)(rg.fake.Deliver(body))
	eight := taken(t)(rg.fake.Type(alice, "8", m.ID))
	rg.message("refusing 8", replyTo(eight.ID, `There is no option "8"`))
	if n := repliesTo(rg, seven); n != 1 {
		t.Errorf("%d replies to the message delivered again; want 1:\n%s", n, rg.fake.Transcript())
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	a.Answers(t)
}

// A message stamped longer ago than WhatsApp goes on delivering one (a
// replay of an old signed delivery, past the record's pruning) is not
// taken: it answers nothing, and gets no reply.
func TestAMessageOlderThanWhatsAppsRetriesIsNotTaken(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	old := whatsappfake.Envelope(map[string]any{"messaging_product": "whatsapp",
		"metadata": map[string]string{"display_phone_number": whatsappfake.DisplayNumber, "phone_number_id": phoneID},
		"messages": []any{map[string]any{"from": alice, "id": "wamid.old", "type": "text", "text": map[string]string{"body": "2"},
			"context":   map[string]string{"from": whatsappfake.DisplayNumber, "id": m.ID},
			"timestamp": strconv.FormatInt(time.Now().Add(-9*24*time.Hour).Unix(), 10)}}})
	taken(t)(rg.fake.Deliver(old))
	nine := taken(t)(rg.fake.Type(alice, "9", m.ID))
	rg.message("refusing 9", replyTo(nine.ID, `There is no option "9"`))
	a.Pending(t)
	if n := repliesTo(rg, "wamid.old"); n != 0 {
		t.Errorf("the old message got %d replies:\n%s", n, rg.fake.Transcript())
	}
	taken(t)(rg.fake.Tap(alice, m, 0))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"PostgreSQL"}) {
		t.Fatalf("answers %+v", got)
	}
}

// repliesTo counts the messages sent in reply to id.
func repliesTo(rg *rig, id string) int {
	n := 0
	for _, s := range rg.fake.Sent() {
		if s.ReplyTo == id {
			n++
		}
	}
	return n
}
