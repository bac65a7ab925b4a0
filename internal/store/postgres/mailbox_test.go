package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/pgtest"
)

func answer(by string) Answer {
	return Answer{Delivery: []byte(`{"by":"` + by + `"}`), By: by, At: t0}
}

// The first answer wins; a second is refused and told the first.
func TestPost(t *testing.T) {
	db, _ := open(t)
	ctx := ctxT(t)
	box := Box{Key: "set1"}
	if _, ok, err := db.Get(ctx, box); ok || err != nil {
		t.Fatalf("an unanswered set: %v, %v", ok, err)
	}
	if won, _, err := db.Post(ctx, box, answer("alice")); !won || err != nil {
		t.Fatalf("the first answer: %v, %v", won, err)
	}
	won, first, err := db.Post(ctx, box, answer("bob"))
	if won || err != nil || first.By != "alice" || string(first.Delivery) != `{"by":"alice"}` || !first.At.Equal(t0) {
		t.Fatalf("the second answer: won %v, first %+v, %v; want alice's", won, first, err)
	}
	got, ok, err := db.Get(ctx, box)
	if !ok || err != nil || got.By != "alice" {
		t.Fatalf("get %+v, %v, %v", got, ok, err)
	}
}

// Two serves answering one set at once: exactly one wins, and every loser
// is told the winner's answer.
func TestPostRace(t *testing.T) {
	db, url := open(t)
	serves := []*DB{db, openURL(t, url)}
	ctx := ctxT(t)
	for round := range 5 {
		box := Box{Key: fmt.Sprintf("race%d", round)}
		var wg sync.WaitGroup
		results := make(chan string, 16)
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				who := fmt.Sprintf("serve%d-%d", i%2, i)
				won, first, err := serves[i%2].Post(ctx, box, answer(who))
				switch {
				case err != nil:
					results <- "error: " + err.Error()
				case won:
					results <- "won " + who
				default:
					results <- "lost to " + first.By
				}
			}()
		}
		wg.Wait()
		close(results)
		winners, winner := 0, ""
		var lost []string
		for r := range results {
			if w, ok := cutPrefix(r, "won "); ok {
				winners++
				winner = w
			} else {
				lost = append(lost, r)
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d winners; want exactly one", round, winners)
		}
		for _, l := range lost {
			if l != "lost to "+winner {
				t.Errorf("round %d: a loser says %q; the winner was %s", round, l, winner)
			}
		}
	}
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}

// A waiter on one machine is woken by an answer posted on another, found
// by its watch's next look.
func TestWaitWoken(t *testing.T) {
	db, url := open(t)
	other := openURL(t, url)
	ctx := ctxT(t)
	box := Box{Key: "set1"}
	got := waitAsync(t, ctx, db, box)
	// An answer to another set wakes nobody's wait on this one.
	if _, _, err := other.Post(ctx, Box{Key: "set2"}, answer("carol")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.Post(ctx, box, answer("alice")); err != nil {
		t.Fatal(err)
	}
	if a := <-got; a.By != "alice" {
		t.Errorf("woken with %+v; want alice's answer", a)
	}
	// An answer already there is returned at once.
	if a, err := other.Wait(ctx, box); err != nil || a.By != "alice" {
		t.Errorf("wait on an answered set: %+v, %v", a, err)
	}
	// A wait ends with its context.
	short, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := db.Wait(short, Box{Key: "never"}); err != context.Canceled {
		t.Errorf("a cancelled wait: %v", err)
	}
}

// The server restarts while a run waits, and the answer is given before
// the waiter's watch looks again: the look finds it.
func TestWaitAcrossRestart(t *testing.T) {
	srv := pgtest.Own(t)
	name, err := srv.CreateDB()
	if err != nil {
		t.Fatal(err)
	}
	db := openURL(t, srv.URL(name))
	other := openURL(t, srv.URL(name))
	ctx := ctxT(t)
	box := Box{Key: "set1"}
	got := waitAsync(t, ctx, db, box)
	if !eventually(func() bool { return db.watch.lookCount() > 0 }) {
		t.Fatal("the waiter's watch never looked")
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.Post(ctx, box, answer("alice")); err != nil {
		t.Fatalf("post after the restart: %v", err)
	}
	select {
	case a := <-got:
		if a.By != "alice" {
			t.Errorf("got %+v", a)
		}
	case <-ctx.Done():
		t.Fatal("the waiter never got the answer given across the restart")
	}
}

// waitAsync waits on box in the background; the answer comes on the
// channel returned.
func waitAsync(t *testing.T, ctx context.Context, db *DB, box Box) <-chan Answer {
	got := make(chan Answer, 1)
	go func() {
		a, err := db.Wait(ctx, box)
		if err != nil {
			t.Error(err)
		}
		got <- a
	}()
	return got
}

// askuser serve's relay reads the answers of every waiting set, and
// whether their askers wait, in one query each.
func TestManyAtOnce(t *testing.T) {
	url := pgtest.DB(t)
	st := procsOf(t, url)()
	ctx := ctxT(t)
	alice := personal(t, "SQLite", "", channel.Who{Channel: "testchan", ID: "U-alice", Name: "@alice"})
	var boxes []session.Box
	for i := range 3 {
		boxes = append(boxes, session.Box{Key: channel.Key("", fmt.Sprint("ask_", i))})
	}
	for _, b := range boxes[1:] {
		if err := st.Mailbox().Post(ctx, b, alice); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Mailbox().(interface {
		GetMany(context.Context, []session.Box) (map[string]session.Delivery, error)
	}).GetMany(ctx, boxes)
	if err != nil || len(got) != 2 || got[boxes[1].Key].By != alice.By || got[boxes[0].Key].By != "" {
		t.Errorf("GetMany: %+v, %v; want the two answered", got, err)
	}
	release, err := st.Registry().Hold(boxes[0].Key)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	held := st.Registry().(interface {
		HeldMany([]string) map[string]bool
	}).HeldMany([]string{boxes[0].Key, boxes[1].Key})
	if !held[boxes[0].Key] || held[boxes[1].Key] {
		t.Errorf("HeldMany: %v; want the first only", held)
	}
}

// personal is who's answer to the database question: label, or else the
// text typed for Other.
func personal(t *testing.T, label, custom string, who channel.Who) session.Delivery {
	t.Helper()
	q := ask.Question{Question: "Which database should we use?", Header: "Database",
		Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}
	var labels []string
	if label != "" {
		labels = []string{label}
	}
	a, err := ask.Selection(q, labels, custom, ask.SourcePerson)
	if err != nil {
		t.Fatal(err)
	}
	a.Via = ask.ViaOn(who.Name, who.Channel)
	return session.Delivery{Answers: []ask.Answer{a}, By: a.Via, Who: &who, At: t0}
}
