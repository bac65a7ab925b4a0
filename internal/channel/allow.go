package channel

import (
	"fmt"
	"slices"
	"strings"
)

// AllowList is who may answer through a channel: platform user ids (Slack,
// Telegram) or phone numbers (WhatsApp, normalised by that channel before
// they are put here and before they are compared). Ids are compared whole,
// never by prefix or suffix.
type AllowList struct {
	ids []string
}

// ParseAllowList reads a comma-separated list from the variable or flag
// named from. An empty list is an error naming from: a channel with no
// allow-list would let anyone who can see the message answer.
func ParseAllowList(from, value string, normalise func(string) (string, error)) (AllowList, error) {
	var l AllowList
	for _, f := range strings.Split(value, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if normalise != nil {
			n, err := normalise(f)
			if err != nil {
				return AllowList{}, fmt.Errorf("%s: %w", from, err)
			}
			f = n
		}
		if !slices.Contains(l.ids, f) {
			l.ids = append(l.ids, f)
		}
	}
	if len(l.ids) == 0 {
		return AllowList{}, fmt.Errorf("%s is empty: set it to the ids of the people who may answer, comma-separated", from)
	}
	return l, nil
}

// Allows reports whether id is on the list, compared whole.
func (l AllowList) Allows(id string) bool { return id != "" && slices.Contains(l.ids, id) }

// Len is how many ids the list holds.
func (l AllowList) Len() int { return len(l.ids) }

// NotAllowed is what a refused tap is told, where the platform lets a
// channel tell them privately.
const NotAllowed = "You are not allowed to answer this question."
