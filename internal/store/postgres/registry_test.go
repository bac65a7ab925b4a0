package postgres

import (
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Updates of one entry from two processes at once lose nothing, the
// entry's first write included; an error from fn changes nothing.
func TestRegistryUpdate(t *testing.T) {
	db, url := open(t)
	procs := []*DB{db, openURL(t, url)}
	ctx := ctxT(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := procs[i%2].UpdateEntry(ctx, "k1", t0, func(old Entry, found bool) ([]byte, string, error) {
				n := 0
				if found {
					n, _ = strconv.Atoi(string(old.Data))
				}
				return []byte(strconv.Itoa(n + 1)), "", nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	e, err := db.GetEntry(ctx, "k1")
	if err != nil || string(e.Data) != "20" {
		t.Fatalf("after 20 increments: %q, %v", e.Data, err)
	}
	boom := errors.New("boom")
	if err := db.UpdateEntry(ctx, "k1", t0.Add(time.Hour), func(Entry, bool) ([]byte, string, error) { return []byte("x"), "", boom }); err != boom {
		t.Errorf("fn's error came back as %v", err)
	}
	if err := db.UpdateEntry(ctx, "k1", t0.Add(time.Hour), func(Entry, bool) ([]byte, string, error) { return nil, "", nil }); err != nil {
		t.Fatal(err)
	}
	e, _ = db.GetEntry(ctx, "k1")
	if string(e.Data) != "20" || !e.Updated.Equal(t0) {
		t.Errorf("an update that failed or changed nothing wrote %q at %v", e.Data, e.Updated)
	}
}

// Entries are listed oldest first; a deleted one is gone; a session's
// outlive it (its widgets say it was withdrawn).
func TestRegistryList(t *testing.T) {
	db, _ := open(t)
	ctx := ctxT(t)
	create(t, db, "s1").Close()
	put := func(key, session string, at time.Time) {
		if err := db.UpdateEntry(ctx, key, at, func(Entry, bool) ([]byte, string, error) { return []byte(key), session, nil }); err != nil {
			t.Fatal(err)
		}
	}
	put("b", "s1", t0.Add(2*time.Second))
	put("a", "", t0.Add(time.Second))
	put("c", "", t0.Add(3*time.Second))
	if err := db.DeleteEntry(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	list, err := db.Entries(ctx)
	if err != nil || len(list) != 2 || list[0].Key != "a" || list[1].Key != "b" || list[1].Session != "s1" {
		t.Fatalf("entries %+v, %v; want a, then b of s1", list, err)
	}
	if _, err := db.GetEntry(ctx, "c"); !errors.Is(err, ErrNoEntry) {
		t.Errorf("a deleted entry: %v", err)
	}
	if err := db.Remove(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if e, err := db.GetEntry(ctx, "b"); err != nil || e.Session != "s1" {
		t.Errorf("a removed session's entry: %+v, %v; want it kept", e, err)
	}
}
