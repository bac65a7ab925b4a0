package channeltest_test

import (
	"context"
	"testing"

	"github.com/askuser/askuser/internal/channel/channeltest"
)

// stop returns only once run has: a relay's last writes must land before
// the test's state directory goes.
func TestGoStopWaitsForRun(t *testing.T) {
	started, finished := make(chan struct{}), false
	stop := channeltest.Go(func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		finished = true // read after stop without a lock: stop must wait for this
	})
	<-started
	stop()
	if !finished {
		t.Fatal("stop returned before run did")
	}
	stop() // the cleanup's second stop must not block or panic
}
