package relay

import (
	"context"
	"errors"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// lostEvery is how often a served channel's hold is checked (Config.Lost).
const lostEvery = 2 * time.Second

// serve holds channel s and serves it until ctx ends. A hold lost to
// another process (this one was away from the store past its lease) ends
// the serving at once, so two processes never both answer the channel's
// taps; with WaitForHold, it is then taken again when that one ends.
func (r *Relay) serve(ctx context.Context, s Served) {
	name := s.Channel.Name()
	for {
		release, ok := r.hold(ctx, name)
		if !ok {
			return
		}
		lost := r.serveHeld(ctx, s, release)
		if !lost || !r.cfg.WaitForHold || ctx.Err() != nil {
			return
		}
	}
}

// serveHeld serves s, whose hold release gives back, until ctx ends or
// the hold is lost (reported).
func (r *Relay) serveHeld(ctx context.Context, s Served, release func()) (lost bool) {
	name := s.Channel.Name()
	defer release()
	r.setHeld(name, true)
	defer r.setHeld(name, false)
	r.Wake()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	watched := make(chan bool, 1)
	go func() { watched <- r.watchHold(sctx, name, stop) }()
	if err := s.Channel.Serve(sctx, &host{r: r, s: s}); err != nil && !errors.Is(err, context.Canceled) {
		r.logf(name, "askuser: %s stopped serving: %v", name, err)
	}
	stop()
	if lost = <-watched; lost {
		r.logf(name, "askuser: %s: another askuser process took this channel while this one could not reach the store; it serves the channel now, and this one stopped serving it", name)
		return true
	}
	if ctx.Err() != nil {
		// The last pass shows outcomes on the channels held only: a
		// Serve that returned at once must not leave it nothing to show.
		<-r.lastPassed
	}
	return false
}

// watchHold looks at the hold of channel name until ctx ends, and calls
// stop when it was lost, reporting so.
func (r *Relay) watchHold(ctx context.Context, name string, stop func()) bool {
	if r.cfg.Lost == nil {
		return false
	}
	t := time.NewTicker(lostEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			if r.cfg.Lost(name) {
				stop()
				return true
			}
		}
	}
}

// hold takes the channel's lock, waiting for it when WaitForHold says so.
func (r *Relay) hold(ctx context.Context, name string) (func(), bool) {
	for {
		release, err := r.cfg.Hold(name)
		if err == nil {
			return release, true
		}
		if !errors.Is(err, session.ErrChannelHeld) {
			r.logf(name, "askuser: %s: %v", name, err)
			return nil, false
		}
		if !r.cfg.WaitForHold {
			return nil, false
		}
		r.logf(name, "askuser: %s is served by another askuser process now; taking it over when that one ends", name)
		if channel.Sleep(ctx, time.Second) != nil {
			return nil, false
		}
	}
}
