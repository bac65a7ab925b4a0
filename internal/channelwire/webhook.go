package channelwire

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/cmdutil"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// serveGrace is how long a process waits for an askuser serve that has
// just started (its address is in the state directory) to hold a channel.
const serveGrace = 5 * time.Second

// servedElsewhere refuses to ask through a channel whose platform calls
// askuser (channel.Webhook: WhatsApp's replies come to a webhook) unless
// another process, askuser serve, holds it for the state directory: only
// serve takes the platform's calls, so a question this process sent
// itself would never get its answer. A serve that has just started (a
// script that starts serve, then a run) is given a moment to take it.
func servedElsewhere(st *session.Store, s relay.Served) error {
	if _, ok := s.Channel.(channel.Webhook); !ok {
		return nil
	}
	name := s.Channel.Name()
	deadline := time.Now().Add(serveGrace)
	for {
		release, err := st.HoldChannel(name)
		switch {
		case errors.Is(err, session.ErrChannelHeld):
			return nil
		case err != nil:
			return err
		}
		release()
		if _, err := os.Stat(filepath.Join(st.Dir, AddressFile)); err != nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	title := channel.Title(name)
	return cmdutil.UsageErrorf("--frontend %s: %s sends replies to askuser serve's webhook (/channels/%s), and no askuser serve holds %s for %s; "+
		"start askuser serve with %s configured, then ask again (or ask with --frontend inbox)", name, title, name, title, st.Dir, title)
}
