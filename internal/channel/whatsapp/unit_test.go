package whatsapp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		"+16505551234": "16505551234", "+1 (650) 555-1234": "16505551234", "0016505551234": "16505551234",
		"16505551234": "16505551234", " +44 7700 900123 ": "447700900123", "+49.30.1234567": "49301234567",
	} {
		if got, err := Normalise(in); err != nil || got != want {
			t.Errorf("Normalise(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "+", "06505551234", "+1650555", "+1234567890123456", "+1 650 555 1234 ext 2", "1+6505551234", "++16505551234", "+1650555123\x00"} {
		if got, err := Normalise(in); err == nil {
			t.Errorf("Normalise(%q) = %q; want an error", in, got)
		} else if !strings.Contains(err.Error(), "international form") {
			t.Errorf("Normalise(%q): %v", in, err)
		}
	}
}

// Phone numbers on the allow-list are compared whole: no prefix, no
// suffix, however written.
func TestAllowListComparesWholeNumbers(t *testing.T) {
	l, err := channel.ParseAllowList("ASKUSER_WHATSAPP_USERS", "+1 650 555 1234, 0044 7700 900123", Normalise)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"16505551234": true, "447700900123": true,
		"6505551234": false, "165055512345": false, "1650555123": false, "4477009001": false, "": false} {
		if l.Allows(id) != want {
			t.Errorf("Allows(%q) = %v", id, !want)
		}
	}
}

func TestReadTyped(t *testing.T) {
	q := ask.Question{Header: "Pick", Options: []ask.Option{{Label: "A (Recommended)"}, {Label: "B"}, {Label: "C"}}}
	multi := q
	multi.MultiSelect = true
	for _, c := range []struct {
		q       ask.Question
		in      string
		labels  []string
		other   string
		problem string
	}{
		{q, "2", []string{"B"}, "", ""},
		{q, " 1 ", []string{"A (Recommended)"}, "", ""},
		{multi, "3,1", []string{"A (Recommended)", "C"}, "", ""},
		{multi, "1; 3  3", []string{"A (Recommended)", "C"}, "", ""},
		{multi, "2\n3", []string{"B", "C"}, "", ""},
		{q, "8 workers", nil, "8 workers", ""},
		{q, "B please", nil, "B please", ""},
		{q, "1.5", nil, "1.5", ""},
		{q, "4", nil, "", `There is no option "4" here`},
		{q, "0", nil, "", `There is no option "0" here`},
		{multi, "1,99999999999999999999", nil, "", "There is no option"},
		{q, "1,2", nil, "", "This question takes one answer"},
		{q, "  ", nil, "", "Send a number"},
	} {
		labels, other, problem := readTyped(c.q, c.in)
		if !slices.Equal(labels, c.labels) || other != c.other || !strings.HasPrefix(problem, c.problem) || (c.problem == "") != (problem == "") {
			t.Errorf("readTyped(%q, multi %v) = %q, %q, %q", c.in, c.q.MultiSelect, labels, other, problem)
		}
	}
}

// Each form keeps the Cloud API's limits, whatever the model wrote.
func TestQuestionFitsWhatsAppsLimits(t *testing.T) {
	long := strings.Repeat("very long words ", 40)
	opt := func(n int) []ask.Option {
		var o []ask.Option
		for i := range n {
			o = append(o, ask.Option{Label: long[:30+i], Description: long})
		}
		return o
	}
	for _, c := range []struct {
		q      ask.Question
		detail string
		form   string
	}{
		{ask.Question{Header: "H", Question: long, Options: []ask.Option{{Label: long[:60], Description: "d"}, {Label: "B"}}}, "", "button"},
		{ask.Question{Header: "H", Question: long, Options: opt(2)}, long, "list"}, // too long for buttons
		{ask.Question{Header: "H", Question: long + long + long, Options: opt(3)}, "", "list"},
		{ask.Question{Header: "H", Question: long, Options: opt(4)}, long + long + long + long + long + long + long, "list"},
		{ask.Question{Header: "H", Question: long, Options: opt(3), MultiSelect: true}, long, "text"},
		{ask.Question{Header: "H", Question: long, Options: opt(11)}, "", "text"},
		{ask.Question{Header: "H", Question: "Same?", Options: []ask.Option{{Label: long}, {Label: long + "x"}}}, "", "list"},
	} {
		for _, resent := range []bool{false, true} {
			s := channel.Set{Key: "abcdefghij", Rev: 3, Title: long, Request: ask.Request{Questions: []ask.Question{c.q}, Detail: c.detail}, Resent: resent}
			m := question("16505551234", s, 0, nil, "")
			got, body := m.Type, ""
			if m.Interactive != nil {
				got, body = m.Interactive.Type, m.Interactive.Body.Text
			} else {
				body = m.Text.Body
			}
			if got != c.form && !(resent && c.form == "button" && got == "list") {
				t.Errorf("%d options, multi %v, %d characters: %s; want %s", len(c.q.Options), c.q.MultiSelect, len(c.q.Question), got, c.form)
			}
			// A set sent again after a restart says so, first.
			if strings.Contains(body, channel.ResentNote) != resent {
				t.Errorf("resent %v, the body:\n%.300s", resent, body)
			}
			checkLimits(t, m)
		}
	}
}

func checkLimits(t *testing.T, m message) {
	t.Helper()
	n := utf8.RuneCountInString
	if m.Text != nil && n(m.Text.Body) > maxBody {
		t.Errorf("a text of %d characters", n(m.Text.Body))
	}
	ix := m.Interactive
	if ix == nil {
		return
	}
	if (ix.Type == "button" && n(ix.Body.Text) > maxButtonBody) || n(ix.Body.Text) > maxBody || n(ix.Header.Text) > maxHeader || n(ix.Footer.Text) > maxFooter {
		t.Errorf("%s: body %d, header %d, footer %d characters", ix.Type, n(ix.Body.Text), n(ix.Header.Text), n(ix.Footer.Text))
	}
	for _, b := range ix.Action.Buttons {
		if n(b.Reply.Title) > maxButtonTitle || len(b.Reply.ID) > channel.MaxTokenBytes {
			t.Errorf("button %+v", b)
		}
	}
	for _, r := range ix.Action.Sections[0:min(1, len(ix.Action.Sections))] {
		for _, row := range r.Rows {
			if n(row.Title) > maxRowTitle || n(row.Description) > maxRowDescription {
				t.Errorf("row %+v", row)
			}
		}
	}
}

// What a platform or a proxy says comes back cleaned: no secret, no
// terminal escape, one line.
func TestPlatformWordsAreCleaned(t *testing.T) {
	const secret = "EAAGsecret0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("proxy error\x1b[2J\nfor " + secret + "\r\nat " + r.URL.Path))
	}))
	defer srv.Close()
	c := &client{api: srv.URL, phoneID: "106540352242922", token: secret, secrets: []string{secret, "106540352242922"},
		http: srv.Client(), now: time.Now}
	err := c.call(context.Background(), "/106540352242922/messages", map[string]string{}, nil, true)
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	if strings.Contains(got, secret) || strings.Contains(got, "106540352242922") || strings.ContainsAny(got, "\x1b\r\n") || !strings.Contains(got, "proxy error") {
		t.Errorf("the error reads %q", got)
	}
}

// Every hint that goes in a footer (buttons, a list: a single select)
// fits WhatsApp's 60 characters, an approval's included.
func TestHintsFitTheFooter(t *testing.T) {
	for _, kind := range []string{"", ask.KindApproval} {
		for _, f := range []form{formButtons, formList} {
			if h := hint(kind, ask.Question{}, f); utf8.RuneCountInString(h) > maxFooter {
				t.Errorf("kind %q, form %d: %q is %d characters", kind, f, h, utf8.RuneCountInString(h))
			}
		}
	}
}
