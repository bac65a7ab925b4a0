package relay

import (
	"context"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

var (
	_ channel.Lister  = (*host)(nil)
	_ channel.Noticer = (*host)(nil)
)

// Waiting implements channel.Lister: the sets still waiting that this
// channel serves, with the state it saved for each.
func (h *host) Waiting(ctx context.Context) ([]channel.Pending, error) {
	// Another set's damaged entry hides none of the others (the relay's
	// pass says it in the log).
	entries, err := h.r.cfg.Registry.List(ctx)
	if err := session.WithoutEntryDamage(err); err != nil {
		return nil, err
	}
	var out []channel.Pending
	for _, e := range entries {
		if !e.Pending() || !h.r.wants(e, h.name()) {
			continue
		}
		out = append(out, h.pending(e))
	}
	return out, nil
}

// Notice implements channel.Noticer: the relay's log, once per key and
// text.
func (h *host) Notice(key, text string) {
	h.r.logf(h.name()+" notice "+key, "askuser: %s: %s", h.name(), text)
}
