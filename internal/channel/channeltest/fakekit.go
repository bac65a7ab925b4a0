package channeltest

import (
	"slices"
	"time"
)

// What every platform's fake (slackfake, telegramfake, whatsappfake, and
// this package's Server) does alike, written once.

// First waits, through a fake's waitFor (which waits up to limit for
// its messages to satisfy a condition), for a message cond accepts, and
// returns the first such; ok is false when none came in time. Every fake
// finds messages this way, so it is written once, here.
func First[T any](waitFor func(time.Duration, func([]T) bool) ([]T, bool), limit time.Duration, cond func(T) bool) (found T, ok bool) {
	_, ok = waitFor(limit, func(ms []T) bool {
		i := slices.IndexFunc(ms, cond)
		if i >= 0 {
			found = ms[i]
		}
		return i >= 0
	})
	return found, ok
}

// Named returns the calls whose name (as nameOf reads it: a path, a
// method) is name, in order; name "" keeps them all. Every fake's
// Calls(name) is this, under the fake's lock.
func Named[T any](calls []T, name string, nameOf func(T) string) []T {
	var out []T
	for _, c := range calls {
		if name == "" || nameOf(c) == name {
			out = append(out, c)
		}
	}
	return out
}
