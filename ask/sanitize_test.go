package ask

import (
	"strings"
	"testing"
	"unicode/utf8"
)

var displayTests = []struct {
	name, in, want string
}{
	{"plain", "Hello, world", "Hello, world"},
	{"empty", "", ""},
	{"CSI colour", "\x1b[31mred\x1b[0m and \x1b[1;38;5;208mbold\x1b[m", "red and bold"},
	{"cursor movement", "a\x1b[2Ab\x1b[10;20Hc\x1b[2Jd\x1b[Ke", "abcde"},
	{"private CSI", "\x1b[?25lhidden cursor\x1b[?1049h", "hidden cursor"},
	{"OSC title with BEL", "\x1b]0;evil title\x07ok", "ok"},
	{"OSC title with ESC backslash", "\x1b]2;evil title\x1b\\ok", "ok"},
	{"OSC 8 hyperlink", "\x1b]8;;https://evil.example/\x1b\\click here\x1b]8;;\x1b\\", "click here"},
	{"OSC 52 clipboard", "\x1b]52;c;cm0gLXJmIH4=\x07safe", "safe"},
	{"DCS", "\x1bPq#0;2;0;0;0#0~~\x1b\\after", "after"},
	{"APC and PM", "\x1b_payload\x1b\\a\x1b^privacy\x1b\\b", "ab"},
	{"8-bit CSI", "\u009b31mred\u009b0m", "red"},
	{"8-bit OSC with 8-bit ST", "\u009d0;title\u009cok", "ok"},
	{"8-bit DCS", "\u0090payload\u009cok", "ok"},
	{"other C1", "a\u0085b\u008ec\u009cd\u0080e", "abcde"},
	{"lone ESC at end", "text\x1b", "text"},
	{"lone 8-bit CSI at end", "text\u009b", "text"},
	{"ESC c reset", "\x1bcX", "X"},
	{"ESC charset", "\x1b(Bx\x1b)0y", "xy"},
	{"ESC 7 and 8", "\x1b7a\x1b8b", "ab"},
	{"CSI cut by a newline", "\x1b[31\nX", " X"},
	{"unterminated OSC swallows the rest", "ok\x1b]0;title that never ends", "ok"},
	{"OSC cut by another escape", "\x1b]0;title\x1b[1mbold", "bold"},
	{"BEL backspace NUL", "a\x07b\x08c\x00d", "abcd"},
	{"other C0", "a\x01b\x1fc\x0ed", "abcd"},
	{"DEL", "a\x7fb", "ab"},
	{"CR LF tab to space", "line1\nline2\r\nline3\tend", "line1 line2 line3 end"},
	{"VT and FF to space", "a\vb\fc", "a b c"},
	{"RLO override", "abc\u202Edef", "abcdef"},
	{"bidi isolates", "\u2066x\u2067y\u2068z\u2069", "xyz"},
	{"bidi embeddings and ALM", "\u202Aa\u202Bb\u202Cc\u202Dd\u061Ce", "abcde"},
	{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
	{"invalid UTF-8 sequence", "\xc3\x28x", "\uFFFD(x"},
	{"emoji", "🎉 ship it 👩‍💻 🇯🇵", "🎉 ship it 👩‍💻 🇯🇵"},
	{"CJK", "データベース 数据库", "データベース 数据库"},
	{"accents", "café naïve Ørsted", "café naïve Ørsted"},
	{"collapse spaces", "a   b    c", "a b c"},
	{"collapse mixed space", "a \t\n  b", "a b"},
	{"outer spaces kept, collapsed", "  a  ", " a "},
}

func TestDisplay(t *testing.T) {
	for _, tt := range displayTests {
		t.Run(tt.name, func(t *testing.T) {
			got := Display(tt.in)
			if got != tt.want {
				t.Errorf("Display(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := Display(got); again != got {
				t.Errorf("Display is not idempotent: Display(%q) = %q", got, again)
			}
			if bad := firstUnsafe(got, false); bad >= 0 {
				t.Errorf("Display(%q) = %q keeps unsafe rune %U", tt.in, got, bad)
			}
		})
	}
}

// firstUnsafe returns the first rune of s a terminal would act on (C0 but
// '\n' when newlines are allowed, DEL, C1, bidi controls), or -1.
func firstUnsafe(s string, newlines bool) rune {
	for _, r := range s {
		switch {
		case r == '\n' && newlines:
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, isBidiControl(r):
			return r
		}
	}
	return -1
}

func TestDisplayBlock(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"newline kept", "line1\nline2", "line1\nline2"},
		{"blank line kept", "para1\n\npara2", "para1\n\npara2"},
		{"CRLF is one newline", "a\r\nb\r\n", "a\nb\n"},
		{"lone CR is a newline", "a\rb", "a\nb"},
		{"tab to space", "a\tb", "a b"},
		{"spaces not collapsed", "a  b", "a  b"},
		{"escapes stripped", "\x1b[1mTitle\x1b[0m\nbody \x1b]0;t\x07text", "Title\nbody text"},
		{"controls dropped", "a\x00\x07\x7f\u0085b\n\u202Ec", "ab\nc"},
		{"invalid UTF-8", "a\xff\nb", "a\uFFFD\nb"},
		{"plain", "Just text.", "Just text."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DisplayBlock(tt.in)
			if got != tt.want {
				t.Errorf("DisplayBlock(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if bad := firstUnsafe(got, true); bad >= 0 {
				t.Errorf("DisplayBlock(%q) = %q keeps unsafe rune %U", tt.in, got, bad)
			}
		})
	}
	// Everything Display strips, DisplayBlock strips too.
	for _, tt := range displayTests {
		if bad := firstUnsafe(DisplayBlock(tt.in), true); bad >= 0 {
			t.Errorf("DisplayBlock(%q) keeps unsafe rune %U", tt.in, bad)
		}
	}
}

func TestCleanFreeText(t *testing.T) {
	long := strings.Repeat("é", MaxFreeTextChars+1)
	tests := []struct {
		name, in, want string
	}{
		{"trimmed", "  bun \n", "bun"},
		{"escapes", "\x1b[31mbun\x1b[0m", "bun"},
		{"lines joined", "use bun\nand biome", "use bun and biome"},
		{"empty", "", ""},
		{"only escapes", "\x1b[2J\x1b[H", ""},
		{"kept", "日本語で答える 🎉", "日本語で答える 🎉"},
		{"2001 multi-byte runes capped at 2000", long, strings.Repeat("é", MaxFreeTextChars)},
		{"exactly the cap", long[:2*MaxFreeTextChars], long[:2*MaxFreeTextChars]},
		{"cap then trim", strings.Repeat("a", MaxFreeTextChars-1) + " tail", strings.Repeat("a", MaxFreeTextChars-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CleanFreeText(tt.in)
			if got != tt.want {
				t.Errorf("CleanFreeText(%.40q…) = %.40q… (%d runes), want %.40q… (%d runes)",
					tt.in, got, utf8.RuneCountInString(got), tt.want, utf8.RuneCountInString(tt.want))
			}
		})
	}
	if n := utf8.RuneCountInString(CleanFreeText(long)); n != MaxFreeTextChars {
		t.Errorf("CleanFreeText of %d runes kept %d, want %d", MaxFreeTextChars+1, n, MaxFreeTextChars)
	}
}
