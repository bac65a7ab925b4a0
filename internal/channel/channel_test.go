package channel

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

func TestKeyIsShortStableAndSeparatesSessions(t *testing.T) {
	a, b := Key("s1", "call_0"), Key("s2", "call_0")
	if a == b {
		t.Fatalf("the same set id in two sessions gave one key %q", a)
	}
	if Key("s1", "call_0") != a {
		t.Fatal("Key is not stable")
	}
	if Key("s1\x00call", "_0") == Key("s1", "call_0\x00") {
		t.Fatal("ids that join alike gave one key")
	}
	for _, k := range []string{a, b, Key("", "ask_0123456789ab")} {
		if !ValidKey(k) {
			t.Errorf("Key gave %q, which ValidKey refuses", k)
		}
	}
	for _, bad := range []string{"", "abc", "ABCDEFGHIJ", "abcdefghi1", "abcdefghij0", "../../etc/x"} {
		if ValidKey(bad) {
			t.Errorf("ValidKey(%q) = true", bad)
		}
	}
}

func TestTokenRoundTripsWithinTelegramsLimit(t *testing.T) {
	for _, tok := range []Token{
		{Key: Key("s", "x"), Rev: 0, Action: "pick", Q: 0, O: 3},
		{Key: Key("s", "y"), Rev: 999999, Action: "submitxx", Q: -1, O: -1},
		{Key: Key("s", "z"), Rev: 12, Action: "other", Q: 3, O: -1},
	} {
		s := tok.String()
		if len(s) > MaxTokenBytes {
			t.Errorf("%+v encodes to %d bytes, over %d", tok, len(s), MaxTokenBytes)
		}
		got, err := ParseToken(s)
		if err != nil || got != tok {
			t.Errorf("ParseToken(%q) = %+v, %v; want %+v", s, got, err, tok)
		}
	}
}

func TestParseTokenRefusesWhatItDidNotMake(t *testing.T) {
	k := Key("s", "x")
	for _, s := range []string{
		"", "hello", k, k + ".1.pick.0", k + ".1.pick.0.1.2", k + ".x.pick.0.1", k + ".-1.pick.0.1",
		k + ".1.PICK.0.1", k + ".1..0.1", k + ".1.pick.01.1", k + ".1.pick.0.9999999",
		"abcdefghi!.1.pick.0.1", k + ".1.toolongaction.0.1", strings.Repeat("a", 65),
	} {
		if tok, err := ParseToken(s); err == nil {
			t.Errorf("ParseToken(%q) = %+v, want an error", s, tok)
		}
	}
}

func FuzzParseToken(f *testing.F) {
	f.Add(Token{Key: Key("s", "x"), Rev: 3, Action: "tick", Q: 1, O: 2}.String())
	f.Add("a.b.c.d.e")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := ParseToken(s)
		if err != nil {
			return
		}
		if tok.String() != s {
			t.Fatalf("ParseToken(%q) accepted a form String does not make: %q", s, tok.String())
		}
	})
}

func TestAllowListComparesWholeIDs(t *testing.T) {
	l, err := ParseAllowList("ASKUSER_SLACK_USERS", " U1, U22 ,,U1", nil)
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 2 || !l.Allows("U1") || !l.Allows("U22") {
		t.Fatalf("list %+v", l)
	}
	for _, id := range []string{"", "U2", "U222", "U", "u1", " U1"} {
		if l.Allows(id) {
			t.Errorf("Allows(%q) = true", id)
		}
	}
	if _, err := ParseAllowList("ASKUSER_SLACK_USERS", " , ", nil); err == nil || !strings.Contains(err.Error(), "ASKUSER_SLACK_USERS") {
		t.Errorf("an empty list gave %v, want an error naming the variable", err)
	}
}

func TestSummaryAndOutcomeText(t *testing.T) {
	one := []ask.Answer{{Header: "Database", Selected: []string{"SQLite"}}}
	if got := Summary(one); got != "SQLite" {
		t.Errorf("Summary = %q", got)
	}
	two := []ask.Answer{
		{Header: "Database", Selected: []string{"PostgreSQL (Recommended)"}},
		{Header: "Features", Selected: []string{"Docs", "Tests"}, Custom: "and a \x1b[31mdemo"},
	}
	want := "Database: PostgreSQL; Features: Docs, Tests, Other: and a demo"
	if got := Summary(two); got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
	at := time.Date(2026, 11, 26, 14, 2, 0, 0, time.Local)
	if got := OutcomeText(one, "@alice on Slack", at); got != "Answered: SQLite — by @alice on Slack, 14:02" {
		t.Errorf("OutcomeText = %q", got)
	}
	if (Who{Channel: "telegram", Name: "@bob"}).Via() != "@bob on Telegram" {
		t.Error("Via")
	}
}

// A channel's answer names its person in the tool result: Who.Via is
// what ask.PersonVia recognises as a person's, with the platform's name.
func TestViaIsAPersonsVia(t *testing.T) {
	for _, w := range []Who{{Channel: "slack", Name: "@alice"}, {Channel: "whatsapp", Name: "+44 7700 900123"}, {Channel: "matrix", Name: "bob"}} {
		a := ask.Answer{Source: ask.SourcePerson, Via: w.Via()}
		if v, ok := a.PersonVia(); !ok || v != ask.ViaOn(w.Name, Title(w.Channel)) {
			t.Errorf("%+v: PersonVia() = %q, %v; want %q", w, v, ok, ask.ViaOn(w.Name, Title(w.Channel)))
		}
	}
}

func TestCutBlockFitsAndSaysWhereTheRestIs(t *testing.T) {
	long := strings.Repeat("x", 5000)
	got := CutBlock(long, 3000, "http://127.0.0.1:1/s/abc?token=t")
	if n := len([]rune(got)); n > 3000 {
		t.Fatalf("CutBlock gave %d characters, over 3000", n)
	}
	if !strings.Contains(got, "http://127.0.0.1:1/s/abc") || !strings.Contains(got, "more characters") {
		t.Errorf("CutBlock's last line does not say where the rest is: %q", got[len(got)-120:])
	}
	if CutBlock("short", 3000, "") != "short" {
		t.Error("CutBlock changed a text within the limit")
	}
}

func TestRedactRemovesTokens(t *testing.T) {
	in := "Post https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq/sendMessage failed; " +
		"slack said invalid_auth for xoxb-1234-5678-abcdEFGH and xapp-1-A1-99-ff; secret s3cr3t-value"
	got := Redact(in, "s3cr3t-value")
	for _, leak := range []string{"AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq", "xoxb-1234", "xapp-1", "s3cr3t-value", "123456789:"} {
		if strings.Contains(got, leak) {
			t.Errorf("Redact left %q in %q", leak, got)
		}
	}
	if !strings.Contains(got, "sendMessage failed") || !strings.Contains(got, "invalid_auth") {
		t.Errorf("Redact removed more than tokens: %q", got)
	}
}

// A Ref is stored as the JSON the channel made, not as base64.
func TestRefIsStoredAsItsJSON(t *testing.T) {
	in := struct {
		Ref Ref `json:"ref"`
	}{Ref(`{"channel":"C1","ts":"1.2"}`)}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `{"ref":{"channel":"C1","ts":"1.2"}}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	in.Ref = nil
	if err := json.Unmarshal(b, &in); err != nil || string(in.Ref) != `{"channel":"C1","ts":"1.2"}` {
		t.Fatalf("Unmarshal = %s, %v", in.Ref, err)
	}
}

// Sleep waits out a rate limit, or stops when its context ends: a wait
// of an hour on an ended context returns at once with the context's error.
func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on an ended context = %v, want context.Canceled", err)
	}
	if err := Sleep(t.Context(), time.Nanosecond); err != nil {
		t.Errorf("Sleep on a live context = %v, want nil once the wait is over", err)
	}
	if err := Sleep(t.Context(), -time.Second); err != nil {
		t.Errorf("Sleep of a wait already over = %v, want nil", err)
	}
}
