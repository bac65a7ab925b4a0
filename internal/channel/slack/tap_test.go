package slack

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

var (
	dbQ = ask.Question{Question: "Which database?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL (Recommended)", Description: "Relational"}, {Label: "SQLite", Description: "Embedded"}}}
	featQ = ask.Question{Question: "Which features?", Header: "Features", MultiSelect: true,
		Options: []ask.Option{{Label: "Docs"}, {Label: "Tests"}, {Label: "Lint"}}}
	testSet = channel.Set{Key: channel.Key("s", "toolu_1"), Rev: 3, Title: "t",
		Request: ask.Request{ID: "toolu_1", Questions: []ask.Question{dbQ, featQ}}}
	alice = channel.Who{Channel: Name, ID: "U0ALICE", Name: "@alice"}
)

// state is a submitted form's state.values, in Slack's JSON: block id →
// action id → value, for blocks of testSet's rendering at revision rev.
func state(t *testing.T, rev int, values map[string]string) *slack.BlockActionStates {
	t.Helper()
	raw := map[string]map[string]json.RawMessage{}
	for k, v := range values {
		action, q, _ := strings.Cut(k, "/")
		qi := int(q[0] - '0')
		id := channel.Token{Key: testSet.Key, Rev: rev, Action: action, Q: qi, O: -1}.String()
		act := idChoice
		if action == actOther {
			act = idOther
		}
		raw[id] = map[string]json.RawMessage{act: json.RawMessage(v)}
	}
	b, _ := json.Marshal(map[string]any{"values": raw})
	var st slack.BlockActionStates
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return &st
}

const (
	radio1   = `{"type":"radio_buttons","selected_option":{"text":{"type":"plain_text","text":"SQLite"},"value":"1"}}`
	noRadio  = `{"type":"radio_buttons","selected_option":null}`
	ticks02  = `{"type":"checkboxes","selected_options":[{"value":"0"},{"value":"2"}]}`
	noTicks  = `{"type":"checkboxes","selected_options":[]}`
	noText   = `{"type":"plain_text_input","value":null}`
	typedOwn = `{"type":"plain_text_input","value":"  MySQL \u001b[31mplease "}`
)

func TestAnswersOfReadsTheWholeForm(t *testing.T) {
	tok := channel.Token{Key: testSet.Key, Rev: 3, Action: actSubmit, Q: -1, O: -1}
	now := time.Unix(1700000000, 0)
	for _, tc := range []struct {
		name   string
		values map[string]string
		want   string // "Database=...|Features=..." or "error: ..."
	}{
		{"radio and ticks", map[string]string{"pick/0": radio1, "other/0": noText, "tick/1": ticks02, "other/1": noText},
			"SQLite;|Docs,Lint;"},
		// A radio button cannot be cleared: typed text answers instead.
		{"typed text over a radio button", map[string]string{"pick/0": radio1, "other/0": typedOwn, "tick/1": noTicks, "other/1": noText},
			";MySQL please|;"},
		{"ticks and typed text together", map[string]string{"pick/0": radio1, "tick/1": ticks02, "other/1": typedOwn},
			"SQLite;|Docs,Lint;MySQL please"},
		{"a single select left empty", map[string]string{"pick/0": noRadio, "other/0": noText, "tick/1": ticks02},
			`error: "Database" needs an answer`},
		{"a value that is no option", map[string]string{"pick/0": `{"type":"radio_buttons","selected_option":{"value":"7"}}`},
			`error: "Database": that choice is not one of`},
		{"a value that is not a number", map[string]string{"pick/0": `{"type":"radio_buttons","selected_option":{"value":"01"}}`},
			`error: "Database": that choice is not one of`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answers, err := answersOf(testSet, tok, state(t, 3, tc.values), alice, now)
			if strings.HasPrefix(tc.want, "error: ") {
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(tc.want, "error: ")) {
					t.Fatalf("err = %v, want %s", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range answers {
				got = append(got, strings.Join(a.Selected, ",")+";"+a.Custom)
				if a.Source != ask.SourcePerson || a.Via != "@alice on Slack" || !a.AnsweredAt.Equal(now) {
					t.Errorf("answer %+v is not @alice's, now", a)
				}
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("answers %q, want %q", strings.Join(got, "|"), tc.want)
			}
		})
	}
}

// Blocks of another revision, or of another set, are not read: a form
// filled in on an outdated rendering answers nothing.
func TestAnswersOfIgnoresOtherRenderings(t *testing.T) {
	tok := channel.Token{Key: testSet.Key, Rev: 3, Action: actSubmit, Q: -1, O: -1}
	_, err := answersOf(testSet, tok, state(t, 2, map[string]string{"pick/0": radio1, "tick/1": ticks02}), alice, time.Now())
	if err == nil || !strings.Contains(err.Error(), "needs an answer") {
		t.Fatalf("a form of revision 2 answered revision 3: %v", err)
	}
}

func TestWhoNamesThePersonCleanly(t *testing.T) {
	for _, tc := range []struct {
		u    slack.User
		want string
	}{
		{slack.User{ID: "U1", Username: "alice", Name: "alice.b"}, "@alice"},
		{slack.User{ID: "U1", Name: "bob"}, "@bob"},
		{slack.User{ID: "U1"}, "U1"},
		{slack.User{ID: "U1", Username: "\x1b[2Jmallory\u202e"}, "@mallory"},
	} {
		if got := who(tc.u); got.Name != tc.want || got.ID != "U1" || got.Channel != Name {
			t.Errorf("who(%+v) = %+v, want %s", tc.u, got, tc.want)
		}
	}
}

func TestNormaliseUserTakesIdsOnly(t *testing.T) {
	if got, err := NormaliseUser(" u024be7lh "); err != nil || got != "U024BE7LH" {
		t.Errorf("NormaliseUser = %q, %v", got, err)
	}
	for _, bad := range []string{"@alice", "alice", "C024BE7LH", "U", "U0-1"} {
		if _, err := NormaliseUser(bad); err == nil || !strings.Contains(err.Error(), "not a Slack user id") {
			t.Errorf("NormaliseUser(%q) = %v", bad, err)
		}
	}
}
