package session_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/store/storetest"
)

var updateGolden = flag.Bool("update-golden", false, "write storetest's golden journal from this files store")

// The golden journal was written by this files store on askuser's main
// branch: -update-golden writes it again, which is only ever right when
// the journal's format changes on purpose (and FormatVersion with it).
func TestGoldenJournal(t *testing.T) {
	if !*updateGolden {
		t.Skip("run with -update-golden to write the golden journal")
	}
	var n int
	st := &session.Store{Dir: t.TempDir(), Now: func() time.Time { n++; return storetest.T0.Add(time.Duration(n) * time.Second) }}
	s, err := st.Create(storetest.GoldenMeta())
	if err != nil {
		t.Fatal(err)
	}
	if err := storetest.GoldenSteps(s); err != nil {
		t.Fatal(err)
	}
	s.Close()
	data, err := os.ReadFile(filepath.Join(st.Dir, "sessions", storetest.GoldenID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "store", "storetest", storetest.GoldenPath), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A state directory written by askuser's main branch keeps working: its
// journal opens, lists, and takes a record after its last, byte for byte.
func TestGoldenStateDir(t *testing.T) {
	st := &session.Store{Dir: t.TempDir()}
	path := filepath.Join(st.Dir, "sessions", storetest.GoldenID+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, storetest.Golden(), 0o600); err != nil {
		t.Fatal(err)
	}
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].Status != session.StatusCancelled || list[0].Title != "pick a database" {
		t.Fatalf("listed %+v, %v", list, err)
	}
	s, err := st.Open(storetest.GoldenID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetStatus("success", "", 1, agentloop.Usage{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, storetest.Golden()) || bytes.Count(data[len(storetest.Golden()):], []byte("\n")) != 1 {
		t.Errorf("after one more record the journal is:\n%s", data)
	}
}
