package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"time"

	"github.com/askuser/askuser/internal/channel"
)

var _ channel.Taker = (*host)(nil)

// maxTakenID bounds a delivery's id as stored: a longer one (a platform's
// id is its own text) is stored as its hash.
const maxTakenID = 200

// takenID is how delivery is named in the record: after the channel, so
// two platforms' ids never meet.
func (h *host) takenID(delivery string) string {
	id := h.name() + ":" + delivery
	if len(id) > maxTakenID {
		sum := sha256.Sum256([]byte(id))
		id = h.name() + ":sha256:" + hex.EncodeToString(sum[:])
	}
	return id
}

// Taken implements channel.Taker.
func (h *host) Taken(ctx context.Context, delivery string) (bool, error) {
	return h.r.cfg.Deliveries.Taken(ctx, h.takenID(delivery))
}

// Take implements channel.Taker. It is made whole though the relay stops
// meanwhile: the delivery was acted on.
func (h *host) Take(ctx context.Context, delivery string) error {
	return h.r.cfg.Deliveries.Take(context.WithoutCancel(ctx), h.takenID(delivery), h.r.cfg.Now())
}

// pruneTaken forgets, once an hour, the deliveries taken longer ago than
// any platform delivers one again.
func (r *Relay) pruneTaken(ctx context.Context) {
	now := r.cfg.Now()
	if now.Sub(r.prunedTaken) < time.Hour {
		return
	}
	r.prunedTaken = now
	if err := r.cfg.Deliveries.Prune(ctx, now.Add(-channel.KeepTaken)); err != nil {
		r.logf("prune deliveries", "askuser: %v", err)
	}
}

// memDeliveries keeps the deliveries taken in this process's memory: a
// relay given no store for them (tests).
type memDeliveries struct {
	mu sync.Mutex
	at map[string]time.Time
}

func (m *memDeliveries) Taken(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.at[id]
	return ok, nil
}

func (m *memDeliveries) Take(_ context.Context, id string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.at[id]; !ok {
		m.at[id] = at
	}
	return nil
}

func (m *memDeliveries) Prune(_ context.Context, before time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, at := range m.at {
		if at.Before(before) {
			delete(m.at, id)
		}
	}
	return nil
}
