package channeltest

import (
	"fmt"
	"time"

	"github.com/askuser/askuser/internal/channel"
)

// CheckRetryLater is what every channel's rate limit must say, checked:
// call is made twice at once, against a platform that rate-limited it for
// wait. The first error says to call again wait after the call
// (channel.RetryAt); the second, made before then, says the same time
// (the caller checks it reached no platform). It returns what is wrong,
// or "".
func CheckRetryLater(call func() error, wait time.Duration) string {
	before := time.Now()
	err := call()
	at, ok := channel.RetryAt(err)
	if !ok || at.Before(before.Add(wait)) || at.After(time.Now().Add(wait)) {
		return fmt.Sprintf("the 429 asking for %v gave %v (retry at %v, %v after the call)", wait, err, at, at.Sub(before))
	}
	again := call()
	if at2, _ := channel.RetryAt(again); at2.Sub(at).Abs() > 50*time.Millisecond {
		return fmt.Sprintf("a second call before then gave %v (retry at %v), not the first's time, %v", again, at2, at)
	}
	return ""
}
