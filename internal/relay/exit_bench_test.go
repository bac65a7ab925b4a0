package relay_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/channel/channeltest"
	"github.com/askuser/askuser/internal/relay"
	"github.com/askuser/askuser/internal/session"
)

// BenchmarkStop is how long a relay takes to stop, which every process
// that answered through a channel waits for as it exits: with nothing to
// show (the baseline), and with the outcome of one answered set to show on
// a loopback platform (a run answered by a tap that ends at once). It
// reports the median and the slowest stop besides the mean: ExitWait
// (relay.ExitWait) must stay well above the slowest on a busy machine.
func BenchmarkStop(b *testing.B) {
	for _, owed := range []bool{false, true} {
		b.Run(map[bool]string{false: "nothing-to-show", true: "one-outcome"}[owed], func(b *testing.B) {
			st := &session.Store{Dir: b.TempDir()}
			srv := channeltest.NewServer("tok-0123456789")
			defer srv.Close()
			env := map[string]string{"TESTCHAN_TOKEN": srv.Token, "ASKUSER_TESTCHAN_ROOM": "room-1",
				"ASKUSER_TESTCHAN_USERS": "U-alice", "ASKUSER_TESTCHAN_API_URL": srv.URL}
			cfg, err := channeltest.Spec.Read(channel.Sources{Env: func(n string) string { return env[n] }})
			if err != nil {
				b.Fatal(err)
			}
			ch := channeltest.New(cfg)
			ref, err := ch.Send(context.Background(), channel.Set{Key: "k", Rev: 1, Request: ask.Request{ID: "ask_b", Questions: []ask.Question{dbQuestion}}})
			if err != nil {
				b.Fatal(err)
			}
			rcfg := relay.Config{Mailbox: st.Mailbox(), Registry: st.Registry(), Sessions: st,
				Channels: []relay.Served{{Channel: ch, Allow: cfg.Allow}}, Hold: st.HoldChannel, Tick: time.Hour}
			stops := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				key := relay.Key("", fmt.Sprintf("ask_%d", i), time.Time{})
				r := relay.New(rcfg)
				stop := channeltest.Go(r.Run)
				for !r.Holds(channeltest.Name) {
					time.Sleep(time.Millisecond)
				}
				if owed {
					answeredEntry(b, st, key, ref)
				}
				b.StartTimer()
				began := time.Now()
				stop()
				stops = append(stops, time.Since(began))
				b.StopTimer()
				if owed {
					if e, _ := st.Registry().Get(context.Background(), key); e.Sent[channeltest.Name].Shown != channel.Answered {
						b.Fatalf("stop %d did not show the outcome: %+v", i, e.Sent[channeltest.Name])
					}
					_ = st.Registry().Delete(context.Background(), key)
				}
				b.StartTimer()
			}
			slices.Sort(stops)
			b.ReportMetric(float64(stops[len(stops)/2].Microseconds())/1000, "median-ms")
			b.ReportMetric(float64(stops[len(stops)-1].Microseconds())/1000, "max-ms")
		})
	}
}

// answeredEntry registers a set answered by alice whose message, ref, does
// not show it yet.
func answeredEntry(b *testing.B, st *session.Store, key string, ref channel.Ref) {
	_, err := st.Registry().Update(context.Background(), key, func(e *session.Entry, found bool) error {
		e.Request, e.Channels, e.Rev = ask.Request{ID: key, Questions: []ask.Question{dbQuestion}}, []string{channeltest.Name}, 1
		e.Sent = map[string]*session.Sent{channeltest.Name: {Ref: ref, Rev: 1}}
		e.Outcome = session.Outcome{State: channel.Answered, By: "@alice on testchan", At: time.Now(), Text: "Answered: SQLite — by @alice on testchan"}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
