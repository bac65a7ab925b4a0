package relay

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// A delivery a channel took is taken in every relay of the store: one
// started after a restart knows it, under the channel's name only (two
// platforms' ids never meet), until it is older than any platform
// delivers one again.
func TestHostKeepsTheDeliveriesTakenInTheStore(t *testing.T) {
	ctx := context.Background()
	st := &session.Store{Dir: t.TempDir()}
	var skew atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	relayOf := func(name string) *host {
		s := Served{Channel: namedOnly{name: name}}
		r := New(Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Deliveries: st.Deliveries(), Sessions: st,
			Channels: []Served{s}, Now: now})
		return &host{r: r, s: s}
	}
	first := relayOf("chat")
	if err := first.Take(ctx, "m1"); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 300)
	if err := first.Take(ctx, long); err != nil {
		t.Fatal(err)
	}
	restarted, other := relayOf("chat"), relayOf("other")
	for _, c := range []struct {
		h     *host
		id    string
		taken bool
	}{{restarted, "m1", true}, {restarted, long, true}, {restarted, "m2", false}, {other, "m1", false}} {
		if got, err := c.h.Taken(ctx, c.id); got != c.taken || err != nil {
			t.Errorf("%s: Taken(%.20s) = %v, %v; want %v", c.h.name(), c.id, got, err, c.taken)
		}
	}
	restarted.r.setHeld("chat", true)
	skew.Store(int64(channel.KeepTaken - time.Hour))
	restarted.r.pass(ctx)
	if got, _ := restarted.Taken(ctx, "m1"); !got {
		t.Error("forgotten within KeepTaken")
	}
	skew.Store(int64(channel.KeepTaken + 2*time.Hour))
	restarted.r.prunedTaken = time.Time{}
	restarted.r.pass(ctx)
	if got, _ := restarted.Taken(ctx, "m1"); got {
		t.Error("still kept past KeepTaken")
	}
}
