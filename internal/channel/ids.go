package channel

import (
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// KeyLen is the length of a Key.
const KeyLen = 10

// MaxTokenBytes is the most a Token may take: Telegram's callback_data
// limit, the smallest of the platforms'.
const MaxTokenBytes = 64

var keyEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Key names the question set setID of session sessionID ("" outside a
// session) in every process and on every platform: ten lower-case letters
// and digits, a hash of both ids, so a model's tool_use id ("call_0",
// reused by every session) never names two sets and nothing a model wrote
// reaches a platform's callback data or a file name.
func Key(sessionID, setID string) string {
	sum := sha256.Sum256([]byte(sessionID + "\x00" + setID))
	return keyEncoding.EncodeToString(sum[:])[:KeyLen]
}

// ValidKey reports whether s has the form Key gives.
func ValidKey(s string) bool {
	if len(s) != KeyLen {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// Token is what a button carries: the set, the rendering's revision, what
// the button does and to which question and option. Encoded it is at most
// MaxTokenBytes, whatever the set.
type Token struct {
	Key string
	Rev int
	// Action is the channel's own verb, one to eight lower-case letters
	// ("pick", "tick", "done", "other", "submit").
	Action string
	// Q and O index the question and the option; -1 when not used.
	Q, O int
}

// String encodes t as "key.rev.action.q.o".
func (t Token) String() string {
	return fmt.Sprintf("%s.%d.%s.%d.%d", t.Key, t.Rev, t.Action, t.Q, t.O)
}

// ParseToken decodes what String made. Anything else — another app's
// callback data, a forged or truncated one — is an error, never a panic.
func ParseToken(s string) (Token, error) {
	bad := func(why string) (Token, error) {
		return Token{}, fmt.Errorf("not an askuser button (%s)", why)
	}
	if len(s) > MaxTokenBytes {
		return bad("too long")
	}
	parts := strings.Split(s, ".")
	if len(parts) != 5 {
		return bad("wrong number of fields")
	}
	t := Token{Key: parts[0], Action: parts[2]}
	if !ValidKey(t.Key) {
		return bad("bad key")
	}
	if t.Action == "" || len(t.Action) > 8 || strings.Trim(t.Action, "abcdefghijklmnopqrstuvwxyz") != "" {
		return bad("bad action")
	}
	var err error
	if t.Rev, err = small(parts[1], 0); err != nil {
		return bad("bad revision")
	}
	if t.Q, err = small(parts[3], -1); err != nil {
		return bad("bad question")
	}
	if t.O, err = small(parts[4], -1); err != nil {
		return bad("bad option")
	}
	return t, nil
}

// small parses a non-negative number below a million, or -1 when min
// allows it.
func small(s string, min int) (int, error) {
	if s == "-1" && min < 0 {
		return -1, nil
	}
	if s == "" || len(s) > 6 || strings.Trim(s, "0123456789") != "" || (len(s) > 1 && s[0] == '0') {
		return 0, fmt.Errorf("bad number")
	}
	return strconv.Atoi(s)
}

// Remember adds id to ids, the last ids of deliveries taken (taps,
// updates, messages), so that one delivered again is known: unless it is
// "" or there already. Only the newest max are kept.
func Remember(ids []string, id string, max int) []string {
	if id != "" && !slices.Contains(ids, id) {
		ids = append(ids, id)
	}
	if n := len(ids); n > max {
		ids = ids[n-max:]
	}
	return ids
}
