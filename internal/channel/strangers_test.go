package channel

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Answers to strangers wait in a bounded queue: what does not fit is
// dropped at once, never waited for; what was queued is made, one at a
// time, until Run's context ends.
func TestStrangersDropsWhatDoesNotFit(t *testing.T) {
	s := NewStrangers()
	s.every = time.Millisecond
	var made atomic.Int32
	queued := 0
	for range 2000 {
		if s.Tell(func(context.Context) { made.Add(1) }) {
			queued++
		}
	}
	if queued != strangersQueue {
		t.Fatalf("%d queued; want %d, the rest dropped", queued, strangersQueue)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	for deadline := time.Now().Add(10 * time.Second); made.Load() < int32(queued); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d made", made.Load(), queued)
		}
	}
	cancel()
	<-done
}
