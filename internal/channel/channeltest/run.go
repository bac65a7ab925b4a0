package channeltest

import "context"

// Go runs run on its own goroutine until stop is called, as a test runs
// a relay: stop cancels run's context and returns once run has, so that
// nothing it does outlives the test's state directory. stop may be
// called more than once (by the test, then by its cleanup): cancelling is
// idempotent and done stays closed.
func Go(run func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { run(ctx); close(done) }()
	return func() { cancel(); <-done }
}
