package channeltest

import (
	"slices"
	"time"
)

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
