package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/askuser/askuser/ask"
)

// A chat channel is served by one process of a state directory at a time
// (Slack hands each event to one random connection; Telegram allows one
// poller per token): the one that holds channels/<name>.lock.

// ErrChannelHeld: another process serves the channel.
var ErrChannelHeld = errors.New("served by another askuser process")

// HoldChannel takes channel name for this process, without waiting, until
// release is called or the process ends. It fails with ErrChannelHeld
// while another process holds it.
func (st *Store) HoldChannel(name string) (release func(), err error) {
	if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") != "" {
		return nil, fmt.Errorf("%s is not a channel name", ask.Excerpt(name))
	}
	return st.backend().HoldChannel(name)
}

// ChannelLost reports whether this process held channel name and lost it
// to another process while it could not reach the store: a team store's
// lease expires when its holder is away longer than the lease. A file
// lock is never lost.
func (st *Store) ChannelLost(name string) bool {
	l, ok := st.backend().(interface{ ChannelLost(name string) bool })
	return ok && l.ChannelLost(name)
}

// HoldChannel holds channels/<name>.lock.
func (f files) HoldChannel(name string) (release func(), err error) {
	dir, err := f.st.ownDir("channels")
	if err != nil {
		return nil, fmt.Errorf("hold channel %s: %w", name, err)
	}
	release, held, err := holdLock(filepath.Join(dir, name+".lock"))
	switch {
	case err != nil:
		return nil, fmt.Errorf("hold channel %s: %w", name, err)
	case held:
		return nil, fmt.Errorf("channel %s is %w", name, ErrChannelHeld)
	}
	return release, nil
}
