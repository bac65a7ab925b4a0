package inbox

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Closing a page answers every request already made. http.Server.Shutdown
// alone does not: it closes the listener, resetting the connections still
// waiting in its backlog, and a connection it accepted whose request it
// reads after shutdown began is closed unanswered. A card answered once
// (--frontend web) closes as soon as the answer is in, so people answering
// at the same moment met a reset where they should read "already
// answered". So Close first stops keep-alives, takes every connection the
// backlog holds (drainListener), waits until each accepted connection has
// been answered (connTracker), and only then shuts the server down.

// drainListener is the server's listener: until drain, it accepts as
// usual; then it hands on the connections already waiting and reports
// itself closed.
type drainListener struct {
	*net.TCPListener
	mu       sync.Mutex
	draining bool
	// drained is closed when Accept has reported the end.
	drained chan struct{}
	once    sync.Once
}

func newDrainListener(ln *net.TCPListener) *drainListener {
	return &drainListener{TCPListener: ln, drained: make(chan struct{})}
}

// Accept returns the next connection. Once draining, it returns only those
// already waiting, then net.ErrClosed.
func (l *drainListener) Accept() (net.Conn, error) {
	c, err := l.TCPListener.Accept()
	l.mu.Lock()
	draining := l.draining
	l.mu.Unlock()
	if !draining {
		return c, err
	}
	if err == nil {
		return c, nil
	}
	// drain's deadline has passed with the backlog empty.
	l.TCPListener.Close()
	l.once.Do(func() { close(l.drained) })
	return nil, net.ErrClosed
}

// drainWindow is how long drain waits for connections beyond those
// already in the backlog (those are taken at once): what closing a page
// costs.
const drainWindow = 50 * time.Millisecond

// drain makes Accept hand on what waits and then end; it returns when
// Accept has ended, or ctx has.
func (l *drainListener) drain(ctx context.Context) {
	l.mu.Lock()
	l.draining = true
	l.mu.Unlock()
	// Not a deadline already passed: Go's Accept would then return at
	// once without looking at the backlog. A near one makes Accept take
	// every connection waiting, then return when none came for a while.
	_ = l.TCPListener.SetDeadline(time.Now().Add(drainWindow))
	select {
	case <-l.drained:
	case <-ctx.Done():
	}
}

// connTracker counts the connections that are being served (new or
// active) through http.Server's ConnState hook.
type connTracker struct {
	mu      sync.Mutex
	busy    map[net.Conn]bool
	changed chan struct{} // closed and replaced at every change
}

func newConnTracker() *connTracker {
	return &connTracker{busy: map[net.Conn]bool{}, changed: make(chan struct{})}
}

// state is the ConnState hook.
func (t *connTracker) state(c net.Conn, st http.ConnState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st == http.StateNew || st == http.StateActive {
		t.busy[c] = true
	} else {
		delete(t.busy, c)
	}
	close(t.changed)
	t.changed = make(chan struct{})
}

// idle waits until no connection is being served, or ctx ends.
func (t *connTracker) idle(ctx context.Context) error {
	for {
		t.mu.Lock()
		n, changed := len(t.busy), t.changed
		t.mu.Unlock()
		if n == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// errNotTCP is returned for a listener that is not TCP's (never: askuser
// listens on TCP).
var errNotTCP = errors.New("not a TCP listener")
