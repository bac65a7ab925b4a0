package channel

import (
	"context"
	"sync"
)

// Recent remembers, in this process, the ids of the last deliveries taken
// (a Slack click, a WhatsApp message), so that one delivered again is
// dropped before anything is looked up; Taken and Take add the Host's
// durable record (Taker), for a delivery made again after a restart. It
// is safe for concurrent use.
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

// Taken reports whether delivery id was taken: by this process (its
// memory), or, when h keeps a record (Taker), by any process of the
// store since KeepTaken ago. An error is the record's, which could not
// be read: the delivery is to be refused for now, and taken when the
// platform delivers it again.
func (r *Recent) Taken(ctx context.Context, h Host, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	if r.Has(id) {
		return true, nil
	}
	if t, ok := h.(Taker); ok {
		return t.Taken(ctx, id)
	}
	return false, nil
}

// Take records delivery id as taken, in this process and in h's record.
func (r *Recent) Take(ctx context.Context, h Host, id string) error {
	if id == "" {
		return nil
	}
	r.Add(id)
	if t, ok := h.(Taker); ok {
		return t.Take(ctx, id)
	}
	return nil
}
