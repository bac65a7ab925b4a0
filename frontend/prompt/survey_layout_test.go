//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// TestSurveyLayout draws the seed's single select, the first of a set of
// two, at 80 and 40 columns, without colour, and compares the whole
// screen.
func TestSurveyLayout(t *testing.T) {
	q := ask.Question{
		Question: "Which authentication method should we use? The API is used by browsers and by the mobile app.",
		Header:   "Auth Method",
		Options: []ask.Option{
			{Label: "OAuth 2.0 (Recommended)", Description: "Industry standard, supports social login"},
			{Label: "JWT", Description: "Stateless tokens, good for APIs"},
			{Label: "Session-based", Description: "Traditional cookie sessions"},
		},
	}
	for _, tc := range []struct {
		sz   size
		want string
	}{
		{wide, `
☐ Auth Method  ☐ Database  Submit
╭─ Auth Method ─╮  Question 1 of 2
Which authentication method should we use? The API is used by browsers and by
the mobile app.

❯ ● 1. OAuth 2.0 (Recommended)
       Industry standard, supports social login
  ○ 2. JWT
       Stateless tokens, good for APIs
  ○ 3. Session-based
       Traditional cookie sessions
  ○ 4. Other
       Type your own answer

↑↓ move • ←→ question • 1-4 pick • enter select • esc cancel`},
		{narrow, `
☐ Auth Method  ☐ Database  Submit
╭─ Auth Method ─╮  Question 1 of 2
Which authentication method should we
use? The API is used by browsers and by
the mobile app.

❯ ● 1. OAuth 2.0 (Recommended)
       Industry standard, supports
       social login
  ○ 2. JWT
       Stateless tokens, good for APIs
  ○ 3. Session-based
       Traditional cookie sessions
  ○ 4. Other
       Type your own answer

↑↓ move • ←→ question • 1-4 pick •
enter select • esc cancel`},
		{short, `
☐ Auth Method  ☐ Database  Submit
╭─ Auth Method ─╮  Question 1 of 2
Which authentication method should we
use? The API is used by browsers and by
the mobile app.
❯ ● 1. OAuth 2.0 (Recommended)
  ○ 2. JWT
  ○ 3. Session-based
  ○ 4. Other
↑↓ move • ←→ question • 1-4 pick •
enter select • esc cancel`},
	} {
		t.Run(sizeName(tc.sz), func(t *testing.T) {
			t.Parallel()
			r := startSurvey(t, tc.sz, ask.Request{ID: "r", Questions: []ask.Question{q, databaseQuestion()}}, nil)
			r.ready("esc cancel")
			got := r.tm.Screen.String()
			if want := strings.TrimPrefix(tc.want, "\n"); got != want {
				t.Errorf("screen at %s:\n%s\nwant:\n%s", sizeName(tc.sz), r.tm.Screen.Dump(), want)
			}
			checkFits(t, r)
			r.tm.Send(sendCtrlC)
			r.finish()
		})
	}
}

// checkFits requires every line to leave the last column free (so the
// terminal never wraps one itself).
func checkFits(t *testing.T, r *surveyRun) {
	t.Helper()
	cols, _ := r.tm.Screen.Size()
	for _, l := range r.tm.Screen.Lines() {
		if n := utf8.RuneCountInString(l); n >= cols {
			t.Errorf("line %q is %d columns wide on a %d-column terminal", l, n, cols)
		}
	}
}

func sizeName(sz size) string {
	return strconv.Itoa(sz.cols) + "x" + strconv.Itoa(sz.rows)
}
