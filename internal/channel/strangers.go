package channel

import (
	"context"
	"time"
)

// Strangers is how a channel answers the people not on its allow-list,
// off the path of the allowed person's answers: one at a time, paced
// (Every), best effort. A flood of strangers' taps (2,000 in a group)
// never waits in front of the person's answer, never spends the
// platform's rate limit the person's answer needs, and costs a bounded
// queue: what does not fit is dropped, and that stranger hears nothing
// (as on WhatsApp, where strangers never do).
type Strangers struct {
	q     chan func(context.Context)
	every time.Duration
}

// Pacing of the answers to strangers.
const (
	strangersQueue = 32
	strangersEvery = 100 * time.Millisecond
)

// NewStrangers returns a queue of answers to strangers; Run serves it.
func NewStrangers() *Strangers {
	return &Strangers{q: make(chan func(context.Context), strangersQueue), every: strangersEvery}
}

// Tell queues fn, which answers a stranger, and reports whether it was
// queued (false: dropped, the queue being full).
func (s *Strangers) Tell(fn func(context.Context)) bool {
	select {
	case s.q <- fn:
		return true
	default:
		return false
	}
}

// Run makes the answers queued, one at a time and at most one per pace,
// until ctx ends; what is still queued then is dropped.
func (s *Strangers) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case fn := <-s.q:
			fn(ctx)
			if Sleep(ctx, s.every) != nil {
				return
			}
		}
	}
}
