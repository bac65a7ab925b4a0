package session_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/storetest"
)

// The files store keeps the store contract: each process a Store of its
// own over one state directory.
func TestStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Procs {
		dir, clock := t.TempDir(), storetest.Clock()
		return func() *session.Store { return &session.Store{Dir: dir, Now: clock} }
	})
}

// The damage cases of the contract, on files damaged by hand.
func TestStoreDamage(t *testing.T) {
	var dir string
	rewrite := func(t *testing.T, path string, change func([]byte) []byte) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, change(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	storetest.RunDamage(t, func(t *testing.T) storetest.Procs {
		d, clock := t.TempDir(), storetest.Clock()
		dir = d
		return func() *session.Store { return &session.Store{Dir: d, Now: clock} }
	}, storetest.Hand{
		MisfileEntry: func(t *testing.T, key, otherKey string) {
			rewrite(t, filepath.Join(dir, "relay", key+".json"), func(b []byte) []byte {
				return bytes.ReplaceAll(b, []byte(key), []byte(otherKey))
			})
		},
		EmptyAnswer: func(t *testing.T, box session.Box) {
			rewrite(t, filepath.Join(dir, "mailbox", box.Key+".json"), func(b []byte) []byte {
				return regexp.MustCompile(`"answers":\[.*?\],"by"`).ReplaceAll(b, []byte(`"answers":[],"by"`))
			})
		},
	})
}
