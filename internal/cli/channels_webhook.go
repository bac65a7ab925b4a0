package cli

import (
	"errors"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// servedElsewhere refuses to ask through a channel whose platform calls
// askuser (channel.Webhook: WhatsApp's replies come to a webhook) unless
// another process, askuser serve, holds it for the state directory: only
// serve takes the platform's calls, so a question this process sent
// itself would never get its answer.
func servedElsewhere(st *session.Store, s relay.Served) error {
	if _, ok := s.Channel.(channel.Webhook); !ok {
		return nil
	}
	name := s.Channel.Name()
	release, err := st.HoldChannel(name)
	switch {
	case errors.Is(err, session.ErrChannelHeld):
		return nil
	case err != nil:
		return err
	}
	release()
	return usageErrorf("--frontend %s: %s sends replies to askuser serve's webhook (/channels/%s), and no askuser serve holds %s for %s; "+
		"start askuser serve with %s configured, then ask again (or ask with --frontend inbox)",
		name, channel.Title(name), name, channel.Title(name), st.Dir, channel.Title(name))
}
