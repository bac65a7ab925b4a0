package cmdutil

import (
	"context"

	"github.com/askuser/askuser/ask"
)

// UntilDone returns what read returns or, when ctx ends first (a signal,
// a timeout), ctx's error at once. It is for reads that may block for
// ever, such as standard input a host keeps open or a named pipe: the
// first SIGTERM still ends the command. The read goes on in the
// background, and ends with the process.
func UntilDone[T any](ctx context.Context, read func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := read()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ask.CtxErr(ctx)
	}
}
