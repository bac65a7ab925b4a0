package channel

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askuser/askuser/ask"
)

// Summary says in one line what answers chose: "SQLite", "Docs, Tests",
// "Other: use both"; with several questions, each after its header:
// "Database: SQLite; Features: Docs, Tests". Labels are bare and cleaned;
// typed text is cut.
func Summary(answers []ask.Answer) string {
	parts := make([]string, 0, len(answers))
	for _, a := range answers {
		var s []string
		for _, l := range a.Selected {
			s = append(s, ask.Display(ask.BareLabel(l)))
		}
		if a.Custom != "" {
			s = append(s, "Other: "+Cut(ask.Display(a.Custom), 80))
		}
		one := strings.Join(s, ", ")
		switch {
		case a.Declined != nil:
			one = "declined"
		case one == "":
			one = "(none)"
		}
		if len(answers) > 1 {
			one = ask.Display(a.Header) + ": " + one
		}
		parts = append(parts, one)
	}
	return strings.Join(parts, "; ")
}

// Cut shortens s to at most n characters, ending in "…" when it was cut.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 1 {
		return ""
	}
	r := []rune(s)
	return strings.TrimRightFunc(string(r[:n-1]), func(c rune) bool { return c == ' ' || c == '\n' }) + "…"
}

// CutBlock fits an approval's whole input (or an agent's final text) into
// a platform's limit of n characters: cut, with a last line saying how
// much was left out and, when link is set, where to read all of it.
func CutBlock(s string, n int, link string) string {
	kept, note := CutBlockNote(s, n, link)
	return kept + note
}

// CutBlockNote is CutBlock in two parts, for a platform that shows the
// kept text as code and the note after it, where its link can be
// followed: note is "" when nothing was cut, and together they take at
// most n characters.
func CutBlockNote(s string, n int, link string) (kept, note string) {
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, ""
	}
	note = "\n… cut here"
	if link != "" {
		note += ": all of it is at " + link
	}
	keep := n - utf8.RuneCountInString(note) - 24
	if keep < 0 {
		keep = 0
	}
	return string([]rune(s)[:keep]), note + " (" + strconv.Itoa(total-keep) + " more characters)"
}

// Redact removes secrets from text a platform or a proxy sent back (an
// error body, a URL with a bot token in its path) before it is shown or
// logged: each secret given, and anything shaped like a Slack token
// (xoxb-, xoxp-, xapp-…) or a Telegram bot token (digits:35 characters).
func Redact(s string, secrets ...string) string {
	for _, sec := range secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	var b strings.Builder
	for len(s) > 0 {
		i := tokenStart(s)
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		b.WriteString("[redacted]")
		s = s[i+tokenLen(s[i:]):]
	}
	return b.String()
}

// tokenStart finds the first Slack-shaped or Telegram-shaped token in s.
func tokenStart(s string) int {
	best := -1
	for _, p := range []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-", "xoxe."} {
		if i := strings.Index(s, p); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	// A Telegram bot token: 6+ digits, ':', 30+ of [A-Za-z0-9_-].
	for i := 0; i < len(s); i++ {
		if best >= 0 && i >= best {
			break
		}
		if j := telegramToken(s[i:]); j > 0 && (i == 0 || !isDigit(s[i-1])) {
			return i
		}
	}
	return best
}

func tokenLen(s string) int {
	if n := telegramToken(s); n > 0 {
		return n
	}
	n := 0
	for n < len(s) && (isWord(s[n]) || s[n] == '-' || s[n] == '.') {
		n++
	}
	return n
}

// telegramToken returns the length of a bot token at the start of s, or 0.
func telegramToken(s string) int {
	d := 0
	for d < len(s) && isDigit(s[d]) {
		d++
	}
	if d < 6 || d >= len(s) || s[d] != ':' {
		return 0
	}
	n := d + 1
	for n < len(s) && (isWord(s[n]) || s[n] == '-') {
		n++
	}
	if n-d-1 < 30 {
		return 0
	}
	return n
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_'
}
