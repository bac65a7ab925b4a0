package inbox

import "sync"

// hub tells the event streams that something on the page changed. Each
// change bumps a version and closes the channel the waiters hold, so any
// number of streams wake without a list of subscribers to keep.
type hub struct {
	mu      sync.Mutex
	version uint64
	changed chan struct{}
	closed  bool
}

func newHub() *hub { return &hub{changed: make(chan struct{})} }

// bump records a change and wakes every waiter.
func (h *hub) bump() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	h.version++
	close(h.changed)
	h.changed = make(chan struct{})
}

// watch returns the current version and a channel closed at the next
// change; closed reports that the server is going away.
func (h *hub) watch() (version uint64, next <-chan struct{}, closed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.version, h.changed, h.closed
}

// close wakes every waiter for the last time: the server is stopping.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.changed)
	}
}
