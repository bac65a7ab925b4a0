package channel

import "sync"

// Recent remembers, in this process, the ids of the last deliveries taken
// (a Slack click, a WhatsApp message), so that one delivered again is
// dropped before anything is looked up. It is safe for concurrent use.
type Recent struct {
	mu   sync.Mutex
	ids  map[string]bool
	ring []string
	next int
}

// NewRecent returns a Recent that keeps the last n ids.
func NewRecent(n int) *Recent {
	return &Recent{ids: map[string]bool{}, ring: make([]string, n)}
}

// Has reports whether id is remembered.
func (r *Recent) Has(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ids[id]
}

// Add remembers id, forgetting the oldest once n are kept, and reports
// whether it is new; "" is never remembered.
func (r *Recent) Add(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id == "" || r.ids[id] {
		return false
	}
	delete(r.ids, r.ring[r.next])
	r.ring[r.next] = id
	r.ids[id] = true
	r.next = (r.next + 1) % len(r.ring)
	return true
}
