package cmdutil

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// SignalContext returns a context cancelled by the first SIGINT, SIGTERM
// or SIGHUP: a terminal that hangs up ends every command as SIGTERM does
// (a run records how it stopped, a hook prints its deny), rather than
// killing it with nothing said. SIGHUP is left alone when it is ignored
// (nohup askuser serve): catching it would undo that. A second signal is
// not caught, so it stops the process at once. stop releases the signal
// handler.
func SignalContext() (context.Context, func()) {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return NotifyContext(context.Background(), sigs...)
}

// NotifyContext is ctx, also cancelled by the first of sigs, with a cause
// naming it. A second signal is not caught.
func NotifyContext(ctx context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	go func() {
		select {
		case sig := <-ch:
			signal.Reset(sigs...)
			cancel(errors.New("interrupted by " + signalName(sig)))
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel(nil) }
}

// signalName is a signal's conventional name, as people write it.
func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return sig.String()
}
