//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package prompt

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/termtest"
)

// writeApproval is the approval of a file write whose content has lines
// and one line far wider than the terminal, its Detail the call's input
// indented as internal/approval sends it, JSON escapes and all.
func writeApproval(t *testing.T) ask.Request {
	t.Helper()
	input := `{"path":"notes/plan.md","content":"# Plan\n\nStep one: add the login route, then a session cookie that expires after a day.\n\tdone = false\n"}`
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(input), "", "  "); err != nil {
		t.Fatal(err)
	}
	return ask.Request{ID: "w.approval", Kind: ask.KindApproval, Detail: indented.String(),
		Questions: []ask.Question{{Header: "Approve", Question: "Allow write_file to run?\npath: notes/plan.md",
			Options: []ask.Option{{Label: "Allow"}, {Label: "Deny"}}}}}
}

// wholeInput is how the whole input reads at 40 columns: the fields in the
// order written, the content as its lines under its key, the long line
// wrapped to the width with its indent kept. No JSON escape is left.
var wholeInput = []string{
	"path: notes/plan.md",
	"content:",
	"  # Plan",
	"",
	"  Step one: add the login route, then a",
	"  session cookie that expires after a",
	"  day.",
	"   done = false",
}

// TestSurveyApprovalWholeInput (issue 24 §1, at the terminal): Tab on an
// approval lays its input out as the web card does, wrapped to the
// terminal's width; on a screen too short for it, it scrolls.
func TestSurveyApprovalWholeInput(t *testing.T) {
	t.Run("tall", func(t *testing.T) {
		r := startSurvey(t, size{40, 24}, writeApproval(t), nil)
		r.ready("tab full input")
		r.play([]step{{keys(sendTab), []string{"content:", "tab back"}}})
		checkNoEscapes(t, r.tm.Screen)
		if !strings.Contains(trimmedScreen(r.tm.Screen), strings.Join(wholeInput, "\n")) {
			t.Errorf("the whole input reads:\n%s\nwant:\n%s", r.tm.Screen.Dump(), strings.Join(wholeInput, "\n"))
		}
		r.play([]step{{keys(sendTab), []string{"1. Allow"}}, {keys("2"), nil}})
		if res := r.finish(); res.err != nil {
			t.Fatal(res.err)
		}
	})
	t.Run("short", func(t *testing.T) {
		r := startSurvey(t, size{40, 10}, writeApproval(t), nil)
		r.ready("tab full input")
		r.play([]step{
			{keys(sendTab), []string{"path: notes/plan.md", "!done = false", "↓"}},
			{keys("\x1b[6~"), []string{"   done = false", "!path: notes/plan.md", "↑"}}, // Page Down
			{keys(sendEsc), []string{"1. Allow"}},
			{keys("2"), nil},
		})
		if res := r.finish(); res.err != nil {
			t.Fatal(res.err)
		}
	})
}

// TestSurveyPlainWholeInput: "?" in plain mode prints the same layout.
func TestSurveyPlainWholeInput(t *testing.T) {
	r := startSurvey(t, size{40, 24}, writeApproval(t), plain)
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	r.tm.Send("?\r")
	r.tm.WaitText("done = false")
	r.tm.Wait("a prompt", func(*termtest.Screen) bool { return promptShown(r) })
	checkNoEscapes(t, r.tm.Screen)
	if !strings.Contains(trimmedScreen(r.tm.Screen), strings.Join(wholeInput, "\n")) {
		t.Errorf("the plain prompt shows the input as:\n%s\nwant:\n%s", r.tm.Screen.Dump(), strings.Join(wholeInput, "\n"))
	}
	r.tm.Send("2\r")
	if res := r.finish(); res.err != nil {
		t.Fatal(res.err)
	}
}

// checkNoEscapes fails when a JSON escape or quoting shows on screen.
func checkNoEscapes(t *testing.T, s *termtest.Screen) {
	t.Helper()
	if screen := s.String(); strings.Contains(screen, `\n`) || strings.Contains(screen, `\t`) || strings.Contains(screen, `"content"`) {
		t.Errorf("the whole input shows JSON escapes or quotes:\n%s", s.Dump())
	}
}

// trimmedScreen is the screen's text without the spaces that end its
// lines.
func trimmedScreen(s *termtest.Screen) string {
	lines := strings.Split(s.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}
