package prompt

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
)

func TestKeyDecoder(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		flush  bool
		want   []key
	}{
		{"arrows and enter", []string{"\x1b[A\x1b[B\x1bOA\r"}, false, []key{{kind: kUp}, {kind: kDown}, {kind: kUp}, {kind: kEnter}}},
		{"a sequence split between reads", []string{"\x1b", "[", "B"}, false, []key{{kind: kDown}}},
		{"a lone esc, once nothing follows", []string{"\x1b"}, true, []key{{kind: kEsc}}},
		{"esc esc", []string{"\x1b\x1b[A"}, false, []key{{kind: kEsc}, {kind: kUp}}},
		{"unknown sequences are dropped whole", []string{"\x1b[1;5Q\x1b[200~x"}, false, []key{{kind: kRune, r: 'x'}}},
		{"alt+letter is dropped", []string{"\x1bxy"}, false, []key{{kind: kRune, r: 'y'}}},
		{"control keys", []string{"\x03\x04\x7f\x08\x15\x17\t\n"}, false,
			[]key{{kind: kCtrlC}, {kind: kCtrlD}, {kind: kBackspace}, {kind: kBackspace}, {kind: kCtrlU}, {kind: kCtrlW}, {kind: kTab}, {kind: kEnter}}},
		{"home end page", []string{"\x1b[H\x1b[F\x1b[5~\x1b[6~\x1b[1~\x1b[4~\x01\x05"}, false,
			[]key{{kind: kHome}, {kind: kEnd}, {kind: kPageUp}, {kind: kPageDown}, {kind: kHome}, {kind: kEnd}, {kind: kHome}, {kind: kEnd}}},
		{"left right shift+tab delete", []string{"\x1b[D\x1b[C\x1bOD\x1b[Z\x1b[3~"}, false,
			[]key{{kind: kLeft}, {kind: kRight}, {kind: kLeft}, {kind: kShiftTab}, {kind: kDelete}}},
		{"a rune split between reads", []string{"\xc3", "\xa9"}, false, []key{{kind: kRune, r: 'é'}}},
		{"other control bytes are dropped", []string{"\x02\x06a"}, false, []key{{kind: kRune, r: 'a'}}},
		{"a sequence a byte per read", []string{"\x1b", "[", "3", "~", "\x1b", "[", "1", ";", "5", "Q", "x"}, false,
			[]key{{kind: kDelete}, {kind: kRune, r: 'x'}}},
		{"a malformed sequence ends at a control byte", []string{"\x1b[12", "3", "\r"}, false, []key{{kind: kEnter}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d keyDecoder
			var got []key
			for _, c := range tc.chunks {
				got = append(got, d.feed([]byte(c))...)
			}
			if tc.flush {
				if !d.hasPending() {
					t.Fatal("nothing pending before flush")
				}
				got = append(got, d.flush()...)
			}
			if d.hasPending() {
				t.Errorf("still pending: %q", d.pending)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("keys = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  []string
	}{
		{"short", 20, []string{"short"}},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"a  b", 10, []string{"a  b"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"x abcdefghijkl", 5, []string{"x", "abcde", "fghij", "kl"}},
		{"abc de" + nbsp + "fg", 6, []string{"abc", "de fg"}},
	} {
		var got []string
		for _, l := range wrapLine([]seg{{tc.in, ""}}, tc.width, nil, nil) {
			got = append(got, l.plain())
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("wrap %q at %d = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
	// Prefixes count towards the width; later lines take rest.
	var got []string
	for _, l := range wrapLine([]seg{{"alpha beta gamma", ""}}, 10, line{{"> ", ""}}, line{{"  ", ""}}) {
		got = append(got, l.plain())
	}
	if want := []string{"> alpha", "  beta", "  gamma"}; !reflect.DeepEqual(got, want) {
		t.Errorf("wrap with prefixes = %q, want %q", got, want)
	}
}

// TestFrameFits lays out questions at many sizes: the frame is never
// taller than the screen nor as wide as it, and keeps the header, the
// question's start, the focused option and the footer's first line.
func TestFrameFits(t *testing.T) {
	q := longQuestion()
	for cols := 20; cols <= 120; cols += 7 {
		for rows := 8; rows <= 40; rows += 3 {
			for _, focus := range []int{0, 2, 4} {
				p := newPromptState(q, false)
				p.focus = focus
				fi := frameInfo{total: 4, header: q.Header, agent: "a sub-agent with a long description of its task", question: q.Question, width: cols, height: rows, left: 90 * time.Second,
					tabs: []tab{{"Twelve chars", true}, {"Features", false}, {"Another one", false}, {"Last of four", true}}}
				all := checkFrame(t, p.frame(fi), cols, rows)
				for _, want := range []string{"Features", "Which", "❯ ☐ " + string(rune('1'+focus))} {
					if !strings.Contains(all, want) {
						t.Errorf("%dx%d focus %d: %q missing:\n%s", cols, rows, focus, want, all)
					}
				}
				if rows >= 12 && !strings.Contains(all, "cancel") {
					t.Errorf("%dx%d: no footer:\n%s", cols, rows, all)
				}
			}
		}
	}
}

// TestReviewFits lays out the review of four long answers at many sizes:
// never taller than the screen nor as wide as it, with the strip, the
// title and the key to submit whenever there is room for them.
func TestReviewFits(t *testing.T) {
	q := longQuestion()
	q.Header = "Twelve chars"
	req := ask.Request{ID: "r", Questions: []ask.Question{q, q, q, q}}
	for cols := 20; cols <= 120; cols += 7 {
		for rows := 8; rows <= 40; rows += 3 {
			set := newSetState(req)
			for _, p := range set.qs {
				p.takeOther(strings.Repeat("a long typed answer ", 20))
			}
			set.show(len(set.qs))
			all := checkFrame(t, set.frame(cols, rows, 90*time.Second), cols, rows)
			for _, want := range []string{"Submit", "Review your answers", "1. Twelve chars:", "enter"} {
				if !strings.Contains(all, want) {
					t.Errorf("%dx%d: %q missing:\n%s", cols, rows, want, all)
				}
			}
		}
	}
}

// checkFrame requires a frame for a cols × rows screen to be no taller
// than the screen and to leave its last column free, and returns its
// text.
func checkFrame(t *testing.T, frame []line, cols, rows int) string {
	t.Helper()
	var text []string
	for _, l := range frame {
		if l.width() >= max(cols, minWidth+1) {
			t.Errorf("%dx%d: line %q is too wide", cols, rows, l.plain())
		}
		text = append(text, l.plain())
	}
	if len(frame) > rows {
		t.Errorf("%dx%d: %d lines", cols, rows, len(frame))
	}
	return strings.Join(text, "\n")
}

func TestFormatLeft(t *testing.T) {
	for d, want := range map[time.Duration]string{
		299500 * time.Millisecond: "5m00s", 59 * time.Second: "59s", 100 * time.Millisecond: "1s", 0: "0s", 2*time.Hour + 5*time.Minute: "2h05m",
	} {
		if got := formatLeft(d); got != want {
			t.Errorf("formatLeft(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestPromptNeverAnswersUnasked: no key but a pick, Enter, or typed text
// with Enter answers; Ctrl+D and Esc cancel.
func TestPromptNeverAnswersUnasked(t *testing.T) {
	q := databaseQuestion()
	for _, k := range []key{{kind: kCtrlD}, {kind: kEsc}, {kind: kCtrlC}} {
		p := newPromptState(q, false)
		if got := p.handle(k); got != doneCancelled {
			t.Errorf("key %+v: outcome %v, want cancelled", k, got)
		}
	}
	p := newPromptState(q, false)
	for _, k := range []key{{kind: kUp}, {kind: kDown}, {kind: kTab}, {kind: kBackspace}, {kind: kRune, r: ' '}, {kind: kRune, r: 'z'}, {kind: kPageDown}, {kind: kRune, r: '0'}} {
		if got := p.handle(k); got != keepAsking {
			t.Errorf("key %+v answered or cancelled: %v", k, got)
		}
	}
	// Enter alone never answers a multi-select: with nothing ticked it
	// asks first.
	p = newPromptState(featuresQuestion(), false)
	if got := p.handle(key{kind: kEnter}); got != keepAsking {
		t.Errorf("enter with nothing ticked: outcome %v, want still asking", got)
	}
	// Esc with a filter clears the filter.
	p = newPromptState(q, false)
	p.handle(key{kind: kRune, r: 'x'})
	if got := p.handle(key{kind: kEsc}); got != keepAsking || p.filter != "" {
		t.Errorf("esc with a filter: outcome %v, filter %q; want still asking, no filter", got, p.filter)
	}
	var _ = ask.SourcePerson
}

// TestFilterFocusesTheBestMatch: the focus goes to the choice the filter
// matches best (its label starts so, then a word of it does), not to the
// first that holds it, even when that one is recommended and focused.
func TestFilterFocusesTheBestMatch(t *testing.T) {
	q := ask.Question{Question: "Which database?", Header: "Database", Options: []ask.Option{
		{Label: "PostgreSQL (Recommended)"}, {Label: "MySQL"}, {Label: "SQLite"}, {Label: "Cloud SQL"},
	}}
	for _, c := range []struct {
		typed string
		want  string
	}{
		{"sql", "SQLite"},
		{"SQL", "SQLite"},
		{"post", "PostgreSQL"},
		{"cloud s", "Cloud SQL"},
		{"ysq", "MySQL"},
		{"ql", "PostgreSQL"}, // inside every label: the first
	} {
		p := newPromptState(q, false)
		for _, r := range c.typed {
			p.handle(key{kind: kRune, r: r})
		}
		if got := p.entries[p.focus].label; got != c.want {
			t.Errorf("typed %q: focus on %q, want %q", c.typed, got, c.want)
		}
	}
}
