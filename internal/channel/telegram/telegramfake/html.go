package telegramfake

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// htmlTags are the tags Telegram's HTML parse mode takes.
var htmlTags = []string{"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a",
	"tg-emoji", "code", "pre", "blockquote"}

// parseHTML checks text in Telegram's HTML parse mode and returns what a
// person reads: tags dropped, entities decoded. As Telegram does, it
// refuses an unknown tag, an end tag that does not close the last one
// opened, a tag left open, and a bare <, > or & (they must be written
// &lt; &gt; &amp;); the only named entities are lt, gt, amp and quot.
func parseHTML(s string) (string, error) {
	var b strings.Builder
	var open []string
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '<':
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return "", fmt.Errorf("unclosed start tag at byte offset %d", i)
			}
			tag := s[i+1 : i+end]
			closing := strings.HasPrefix(tag, "/")
			name := strings.ToLower(strings.Fields(strings.TrimPrefix(tag, "/") + " ")[0])
			switch {
			case !slices.Contains(htmlTags, name):
				return "", fmt.Errorf("unsupported start tag %q at byte offset %d", name, i)
			case closing && (len(open) == 0 || open[len(open)-1] != name):
				return "", fmt.Errorf("unmatched end tag at byte offset %d, expected %q, found %q", i, lastOf(open), name)
			case closing:
				open = open[:len(open)-1]
			default:
				open = append(open, name)
			}
			i += end + 1
		case '&':
			r, n, err := entity(s[i:])
			if err != nil {
				return "", fmt.Errorf("%v at byte offset %d", err, i)
			}
			b.WriteString(r)
			i += n
		case '>':
			return "", fmt.Errorf("bare > at byte offset %d: write &gt;", i)
		default:
			b.WriteByte(c)
			i++
		}
	}
	if len(open) > 0 {
		return "", fmt.Errorf("can't find end tag corresponding to start tag %q", open[len(open)-1])
	}
	return b.String(), nil
}

func lastOf(open []string) string {
	if len(open) == 0 {
		return ""
	}
	return "</" + open[len(open)-1] + ">"
}

// entity decodes the HTML entity at the start of s: its text and length.
func entity(s string) (string, int, error) {
	end := strings.IndexByte(s, ';')
	if end < 0 || end > 12 {
		return "", 0, fmt.Errorf("bare & (write &amp;)")
	}
	name := s[1:end]
	switch name {
	case "lt":
		return "<", end + 1, nil
	case "gt":
		return ">", end + 1, nil
	case "amp":
		return "&", end + 1, nil
	case "quot":
		return `"`, end + 1, nil
	}
	if strings.HasPrefix(name, "#") {
		digits, base := name[1:], 10
		if strings.HasPrefix(digits, "x") || strings.HasPrefix(digits, "X") {
			digits, base = digits[1:], 16
		}
		if n, err := strconv.ParseInt(digits, base, 32); err == nil && n > 0 {
			return string(rune(n)), end + 1, nil
		}
	}
	return "", 0, fmt.Errorf("unsupported HTML entity %q", "&"+name+";")
}
