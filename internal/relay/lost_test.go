package relay_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// A channel whose hold this process lost while it could not reach the
// store (another askuser serve took it when the lease expired) is no
// longer served here: two processes never both take its taps. askuser
// serve (WaitForHold) says so and takes the channel again once the other
// process ends.
func TestAChannelHeldByAnotherAfterAnAbsenceIsNoLongerServed(t *testing.T) {
	rg := newRig(t, rigOptions{})
	var lost, other atomic.Bool
	rg.cfg.WaitForHold = true
	rg.cfg.Lost = func(string) bool { return lost.Load() }
	rg.cfg.Hold = func(name string) (func(), error) {
		if other.Load() {
			return nil, fmt.Errorf("channel %s is %w", name, session.ErrChannelHeld)
		}
		return rg.st.HoldChannel(name)
	}
	rg.relay = relay.New(rg.cfg)
	rg.start()
	holds := func(want bool, what string) {
		t.Helper()
		for deadline := time.Now().Add(limit); rg.relay.Holds(channeltest.Name) != want; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: Holds = %v after %s\nrelay log:\n%s", what, !want, limit, rg.log.String())
			}
		}
	}
	holds(true, "at the start")
	// Away from the store past the lease: another process took it.
	other.Store(true)
	lost.Store(true)
	holds(false, "after the hold was lost")
	if log := rg.log.String(); !strings.Contains(log, "another askuser process took this channel") {
		t.Errorf("the relay did not say it stopped serving the channel it lost:\n%s", log)
	}
	// The store forgets the loss when the hold is given back; the other
	// process ends, and this one serves the channel again.
	lost.Store(false)
	other.Store(false)
	holds(true, "after the other process ended")
}
