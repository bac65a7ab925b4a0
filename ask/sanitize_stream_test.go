package ask

import (
	"bytes"
	"strings"
	"testing"
)

// Every way of splitting the input into writes gives the same safe text:
// a sequence cut in two is still removed whole.
func TestDisplayWriter(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\n\tindented\n", "plain text\n\tindented\n"},
		{"title\x1b]0;pwned\x07 clipboard\x1b]52;c;cHduZWQ=\x07 done", "title clipboard done"},
		{"clear\x1b[2J\x1b[H reset\x1bc!", "clear reset!"},
		{"st\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "stlink"},
		{"8-bit\u009b31mred\u009d0;t\u009c ok", "8-bitred ok"},
		{"crlf\r\nline\rover", "crlf\nlineover"},
		{"bidi \u202egnp.exe\u202c ok", "bidi gnp.exe ok"},
		{"bad \xff utf8 é 日本", "bad \uFFFD utf8 é 日本"},
		{"dcs\x1bPq#0;2;0;0;0\x1b\\after", "dcsafter"},
		{"bell\x07 del\x7f nul\x00", "bell del nul"},
	}
	for _, tt := range tests {
		for split := 0; split <= len(tt.in); split++ {
			var b bytes.Buffer
			w := NewDisplayWriter(&b)
			if n, err := w.Write([]byte(tt.in[:split])); err != nil || n != split {
				t.Fatalf("write: %d %v", n, err)
			}
			w.Write([]byte(tt.in[split:]))
			if got := b.String(); got != tt.want {
				t.Errorf("%q split at %d: got %q, want %q", tt.in, split, got, tt.want)
				break
			}
		}
	}
}

func TestDisplayWriterByteByByte(t *testing.T) {
	in := "a\x1b[31;1mb\x1b]0;x\x07c\u202ed日\n"
	var b bytes.Buffer
	w := NewDisplayWriter(&b)
	for i := range len(in) {
		w.Write([]byte{in[i]})
	}
	if got := b.String(); got != "abcd日\n" || strings.ContainsRune(got, 0x1b) {
		t.Errorf("got %q", got)
	}
}
