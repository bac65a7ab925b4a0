//go:build unix

package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// The directories askuser keeps in its state directory (sessions/,
// relay/, channels/, mailbox/) are its own: one found to be a symbolic
// link, planted or left by a restore, is refused by whatever would
// create, write or delete through it, saying so, and the directory it
// points to is left as it was. (The state directory itself may be a
// link: where it is, is its owner's choice.)
func TestStateDirLinksRefused(t *testing.T) {
	ctx := context.Background()
	// linked makes a store whose directory name is a link to a directory
	// elsewhere holding keep, an old file a deletion would take.
	linked := func(t *testing.T, name string) (*session.Store, string) {
		st := newStore(t)
		elsewhere := t.TempDir()
		keep := filepath.Join(elsewhere, "keep.jsonl")
		if err := os.WriteFile(keep, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-30 * 24 * time.Hour)
		os.Chtimes(keep, old, old)
		if err := os.MkdirAll(st.Dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, filepath.Join(st.Dir, name)); err != nil {
			t.Fatal(err)
		}
		return st, elsewhere
	}
	key := channel.Key("", "ask_1")
	a := delivery("@alice on Slack")
	for _, tc := range []struct {
		dir, what string
		do        func(st *session.Store) error
	}{
		{"sessions", "create a session", func(st *session.Store) error { _, err := st.Create(session.Meta{ID: tid("c1")}); return err }},
		{"sessions", "remove a session", func(st *session.Store) error { _, err := st.Remove("keep"); return err }},
		{"relay", "register a set", func(st *session.Store) error {
			_, err := st.Registry().Update(ctx, key, func(e *session.Entry, found bool) error { e.Channels = []string{"slack"}; return nil })
			return err
		}},
		{"relay", "wait on a set", func(st *session.Store) error { _, err := st.Registry().Hold(key); return err }},
		{"relay", "delete a set", func(st *session.Store) error { return st.Registry().Delete(ctx, key) }},
		{"channels", "serve a channel", func(st *session.Store) error { _, err := st.HoldChannel("slack"); return err }},
		{"mailbox", "post an answer", func(st *session.Store) error { return st.Mailbox().Post(ctx, session.Box{Key: key}, a) }},
	} {
		t.Run(tc.dir+"/"+tc.what, func(t *testing.T) {
			st, elsewhere := linked(t, tc.dir)
			err := tc.do(st)
			if !errors.Is(err, statefile.ErrNotRegular) || !strings.Contains(err.Error(), tc.dir+" is a symbolic link") {
				t.Errorf("%s through %s/ as a link: %v; want it refused, naming the link", tc.what, tc.dir, err)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 || entries[0].Name() != "keep.jsonl" {
				t.Errorf("the directory the link points to holds %v; want only keep.jsonl", entries)
			}
		})
	}
	// Pruning the mailbox deletes nothing through a link.
	t.Run("mailbox/prune", func(t *testing.T) {
		st, elsewhere := linked(t, "mailbox")
		st.Mailbox().Prune(time.Now())
		if _, err := os.Stat(filepath.Join(elsewhere, "keep.jsonl")); err != nil {
			t.Errorf("prune deleted through mailbox/ as a link: %v", err)
		}
	})
}
