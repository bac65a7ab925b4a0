package session

import (
	"errors"
	"fmt"
	"os"
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

// HoldChannel holds channels/<name>.lock.
func (f files) HoldChannel(name string) (release func(), err error) {
	dir := filepath.Join(f.st.Dir, "channels")
	if err := os.MkdirAll(dir, 0o700); err != nil {
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
