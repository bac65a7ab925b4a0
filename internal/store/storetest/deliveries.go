package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/session"
)

// The deliveries chat channels took: recorded once for every process of
// the store (another askuser serve after a restart, another machine), and
// forgotten only by Prune.
var deliveriesCases = []Case{
	{"deliveries/taken in one process is taken in every other", func(t *testing.T, procs Procs) {
		a, b := procs(), procs()
		ctx := ctxT(t)
		const id = "whatsapp:wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQ000001"
		if taken, err := a.Deliveries().Taken(ctx, id); taken || err != nil {
			t.Fatalf("before it was taken: %v, %v", taken, err)
		}
		if err := a.Deliveries().Take(ctx, id, T0); err != nil {
			t.Fatal(err)
		}
		again := procs() // a restart: a new process over the same store
		for i, st := range []*session.Store{a, b, again} {
			if taken, err := st.Deliveries().Taken(ctx, id); !taken || err != nil {
				t.Errorf("process %d: taken %v, %v; want taken", i, taken, err)
			}
		}
		if err := b.Deliveries().Take(ctx, id, T0.Add(time.Hour)); err != nil {
			t.Errorf("taking it again: %v", err)
		}
		if taken, err := b.Deliveries().Taken(ctx, "whatsapp:another"); taken || err != nil {
			t.Errorf("another delivery: %v, %v", taken, err)
		}
	}},
	{"deliveries/taken at once by many processes", func(t *testing.T, procs Procs) {
		stores := []*session.Store{procs(), procs()}
		ctx := ctxT(t)
		var wg sync.WaitGroup
		errs := make([]error, 16)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = stores[i%2].Deliveries().Take(ctx, fmt.Sprintf("telegram:%d", i%4), T0)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("take %d: %v", i, err)
			}
		}
	}},
	{"deliveries/prune forgets what was taken before", func(t *testing.T, procs Procs) {
		st := procs()
		ctx := ctxT(t)
		d := st.Deliveries()
		if err := d.Prune(ctx, T0); err != nil {
			t.Fatalf("prune with nothing taken: %v", err)
		}
		for id, at := range map[string]time.Time{"slack:old": T0, "slack:new": T0.Add(8 * 24 * time.Hour)} {
			if err := d.Take(ctx, id, at); err != nil {
				t.Fatal(err)
			}
		}
		if err := procs().Deliveries().Prune(ctx, T0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if taken, err := d.Taken(ctx, "slack:old"); taken || err != nil {
			t.Errorf("pruned: %v, %v", taken, err)
		}
		if taken, err := d.Taken(ctx, "slack:new"); !taken || err != nil {
			t.Errorf("kept: %v, %v", taken, err)
		}
	}},
}
