package whatsapp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel/whatsapp/whatsappfake"
)

// A single select of two options goes out as reply buttons; a tap answers
// it as a person's answer naming the number, and the outcome is a reply
// to the question, since WhatsApp cannot edit a message.
func TestATapOnAButtonAnswers(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_1", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	ix := m.Interactive()
	if ix == nil || ix.Type != "button" || ix.Header == nil || ix.Header.Text != "Set up the project" {
		t.Fatalf("not reply buttons under the set's title:\n%s", m.JSON)
	}
	if cs := m.Choices(); len(cs) != 2 || cs[0].Title != "PostgreSQL" || cs[1].Title != "SQLite" {
		t.Errorf("buttons %+v", cs)
	}
	for _, want := range []string{"1. PostgreSQL (Recommended) — Relational", "2. SQLite — Embedded", "Which database should we use?"} {
		if !strings.Contains(m.Text(), want) {
			t.Errorf("the body lacks %q:\n%s", want, m.Text())
		}
	}
	if m.To != alice {
		t.Errorf("sent to %q", m.To)
	}
	taken(t)(rg.fake.Tap(alice, m, 1))
	got := a.Answers(t)
	if len(got) != 1 || !slices.Equal(got[0].Selected, []string{"SQLite"}) || got[0].Source != ask.SourcePerson || got[0].Via != "+16505551234 on WhatsApp" {
		t.Fatalf("answers %+v", got)
	}
	rg.message("saying who answered", replyTo(m.ID, "Answered: SQLite — by +16505551234 on WhatsApp, "))
}

// Four options go out as a list; a typed number answers whichever form
// was sent, quoting the question or not.
func TestATypedNumberAnswersAList(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_2", Questions: []ask.Question{langQuestion}})
	m := rg.message("asking", asking1("Language"))
	if ix := m.Interactive(); ix == nil || ix.Type != "list" || len(m.Choices()) != 4 || m.Choices()[3].Description != "Small and new" {
		t.Fatalf("not a list of four:\n%s", m.JSON)
	}
	taken(t)(rg.fake.Type(alice, " 3 ", ""))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"Python"}) || got[0].Custom != "" {
		t.Fatalf("answers %+v", got)
	}
}

// A multi-select goes out as numbered text; "1,3" picks two, and any
// other text is Other, cleaned.
func TestMultiSelectAndOther(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_3", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("asking", asking1("Features"))
	if m.Type != "text" || !strings.Contains(m.Text(), "3. Lint") || !strings.Contains(m.Text(), "e.g. 1,3") {
		t.Fatalf("not numbered text:\n%s", m.Text())
	}
	taken(t)(rg.fake.Type(alice, "1, 3", m.ID))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"Docs", "Lint"}) {
		t.Fatalf("answers %+v", got)
	}

	b := rg.ask(ask.Request{ID: "ask_4", Questions: []ask.Question{dbQuestion}})
	m = rg.message("asking again", asking1("Database"))
	taken(t)(rg.fake.Type(alice, "Use both\x1b[31m, behind a flag", m.ID))
	if got := b.Answers(t); len(got[0].Selected) != 0 || got[0].Custom != "Use both, behind a flag" {
		t.Fatalf("answers %+v", got)
	}

	c := rg.ask(ask.Request{ID: "ask_5", Questions: []ask.Question{dbQuestion}})
	m = rg.message("asking a third time", func(x whatsappfake.Sent) bool { return x.ID != m.ID && asking1("Database")(x) })
	taken(t)(rg.fake.Type(alice, strings.Repeat("long words ", 250), m.ID))
	if got := c.Answers(t); len([]rune(got[0].Custom)) != ask.MaxFreeTextChars {
		t.Fatalf("typed text of %d characters; want it capped at %d", len([]rune(got[0].Custom)), ask.MaxFreeTextChars)
	}
}

// Four questions in one set are asked one at a time, each a reply to the
// first; each answer is said back in the next question, and the set is
// answered once the last is.
func TestFourQuestionsOneAtATime(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_5", Questions: []ask.Question{dbQuestion, langQuestion, featuresQuestion, nameQuestion}})
	q1 := rg.message("asking the first", asking1("Database"))
	if !strings.Contains(q1.Text(), "question 1 of 4") {
		t.Errorf("the first question does not say where it is:\n%s", q1.Text())
	}
	taken(t)(rg.fake.Tap(alice, q1, 0))
	q2 := rg.message("asking the second", asking1("Language"))
	if q2.ReplyTo != q1.ID || !strings.HasPrefix(q2.Text(), "✓ Database: PostgreSQL") {
		t.Errorf("the second question does not follow the first:\n%s", whatsappfake.Render(q2))
	}
	taken(t)(rg.fake.Tap(alice, q2, 3))
	q3 := rg.message("asking the third", asking1("Features"))
	taken(t)(rg.fake.Type(alice, "2 3", ""))
	q4 := rg.message("asking the fourth", asking1("Name"))
	if q3.ReplyTo != q1.ID || q4.ReplyTo != q1.ID {
		t.Errorf("later questions reply to %q, %q; want %q", q3.ReplyTo, q4.ReplyTo, q1.ID)
	}
	taken(t)(rg.fake.Type(alice, "askuser-ng", q4.ID))
	got := a.Answers(t)
	want := [][]string{{"PostgreSQL"}, {"Zig"}, {"Tests", "Lint"}, {}}
	for i, w := range want {
		if !slices.Equal(got[i].Selected, w) || got[i].Via != "+16505551234 on WhatsApp" {
			t.Errorf("answer %d: %+v", i, got[i])
		}
	}
	if got[3].Custom != "askuser-ng" {
		t.Errorf("the typed name: %+v", got[3])
	}
	rg.message("saying who answered", replyTo(q1.ID, "Answered: Database: PostgreSQL; Language: Zig; Features: Tests, Lint; Name: Other: askuser-ng"))
}

// A reply that is numbers but not options is not taken as free text: the
// person is told what to send, and the question still waits.
func TestNumbersThatDoNotFitAreRefused(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_6", Questions: []ask.Question{dbQuestion}})
	m := rg.message("asking", asking1("Database"))
	d := taken(t)(rg.fake.Type(alice, "7", ""))
	rg.message("saying there is no 7", replyTo(d.ID, `There is no option "7" here: send a number from 1 to 2`))
	d = taken(t)(rg.fake.Type(alice, "1,2", m.ID))
	rg.message("saying it takes one", replyTo(d.ID, "This question takes one answer"))
	a.Pending(t)
	taken(t)(rg.fake.Type(alice, "2", m.ID))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"SQLite"}) {
		t.Fatalf("answers %+v", got)
	}
}

// A multi-select is never answered with nothing: it goes out as numbered
// text, with no button a stray tap could send, and a reply of nothing,
// or of no option, is refused with what to send.
func TestAMultiSelectIsNeverAnsweredEmpty(t *testing.T) {
	rg := newRig(t).start()
	a := rg.ask(ask.Request{ID: "ask_6", Questions: []ask.Question{featuresQuestion}})
	m := rg.message("asking", asking1("Features"))
	if m.Interactive() != nil || len(m.Choices()) != 0 {
		t.Fatalf("a multi-select went out with buttons:\n%s", whatsappfake.Render(m))
	}
	for _, c := range []struct{ text, told string }{{"  ", "Send a number"}, {"0", `There is no option "0"`}} {
		d := taken(t)(rg.fake.Type(alice, c.text, m.ID))
		rg.message("refusing "+c.text, replyTo(d.ID, c.told))
	}
	a.Pending(t)
	taken(t)(rg.fake.Type(alice, "2", m.ID))
	if got := a.Answers(t); !slices.Equal(got[0].Selected, []string{"Tests"}) {
		t.Fatalf("answers %+v", got)
	}
}
