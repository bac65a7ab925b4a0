package session

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
)

// A session removed while an answer is posted to it leaves nothing behind
// (no sessions/<id>.d/mailbox/ without its journal), whichever comes
// first at each step: removed between Post's check that it exists and
// its writing the answer (Post then says it was deleted), or an answer
// posted whole between Remove's deleting the side directory and the
// journal. raceHook runs the other side at that point.
func TestPostRacingRemove(t *testing.T) {
	post := func(st *Store, id ID) error {
		return st.Mailbox().Post(context.Background(), boxOf(id), raceDelivery())
	}
	remove := func(st *Store, id ID) error { _, err := st.Remove(string(id)); return err }
	for _, tc := range []struct {
		name, at     string
		first, other func(st *Store, id ID) error
	}{
		{"removed after post checked", "post: session found", post, remove},
		{"posted after remove emptied the side directory", "remove: side directory gone", remove, post},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := &Store{Dir: t.TempDir()}
			id := ID("5e000000-0000-4000-8000-000000000001")
			s, err := st.Create(Meta{ID: id})
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			fired := false
			var otherErr error
			raceHook = func(at string) {
				if at == tc.at && !fired {
					fired = true
					otherErr = tc.other(st, id)
				}
			}
			t.Cleanup(func() { raceHook = nil })
			firstErr := tc.first(st, id)
			if !fired {
				t.Fatalf("%s never happened", tc.at)
			}
			t.Logf("%v; the other side: %v", firstErr, otherErr)
			if _, err := os.Lstat(st.SideDir(id)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the removed session's side directory is left behind: %v", err)
			}
			if tc.at == "post: session found" && !errors.Is(firstErr, ErrNotFound) {
				t.Errorf("a post to a session removed under it: %v; want ErrNotFound", firstErr)
			}
		})
	}
}

func boxOf(id ID) Box { return Box{Session: string(id), Key: channel.Key(string(id), "toolu_1")} }

func raceDelivery() Delivery {
	return Delivery{By: "@alice on Slack", At: time.Now(),
		Answers: []ask.Answer{{Question: "Which?", Header: "H", Selected: []string{"A"}, Source: ask.SourcePerson}}}
}
