package storetest

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

// Session ids of the cases: ids are UUIDs (session.ParseID), and some
// share a start, for the cases that find a session by one.
const (
	idHeld     = session.ID("0e1d0000-0000-4000-8000-000000000001")
	idABC1     = session.ID("abc10000-0000-4000-8000-000000000001")
	idABC10    = session.ID("abc10000-0000-4000-8000-000000000010")
	idABD      = session.ID("abd00000-0000-4000-8000-000000000001")
	idFinished = session.ID("f1000000-0000-4000-8000-000000000001")
	idKilled   = session.ID("f2000000-0000-4000-8000-000000000001")
	idRunning  = session.ID("f3000000-0000-4000-8000-000000000001")
	idGone     = session.ID("90000000-0000-4000-8000-000000000001")
)

//go:embed testdata/journal-main.jsonl
var golden []byte

// Golden is the golden journal's bytes (GoldenPath).
func Golden() []byte { return golden }

// rawJournal is a session's journal as the store keeps it.
func rawJournal(t *testing.T, st *session.Store, id session.ID) []byte {
	t.Helper()
	var data []byte
	var err error
	if st.Backend != nil {
		data, err = st.Backend.Read(id)
	} else {
		data, err = os.ReadFile(filepath.Join(st.Dir, "sessions", string(id)+".jsonl"))
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func newSession(t *testing.T, st *session.Store, id session.ID, prompt string, steps ...func(*session.Session) error) *session.Session {
	t.Helper()
	s, err := st.Create(session.Meta{ID: id, FirstPrompt: prompt, Machine: "build-7", Cwd: "/src/app"})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range steps {
		if err := step(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func say(role, s string) func(*session.Session) error {
	return func(x *session.Session) error { return x.Message(text(role, s)) }
}

func setStatus(st agentloop.Status) func(*session.Session) error {
	return func(x *session.Session) error { return x.SetStatus(string(st), "", 1, agentloop.Usage{}) }
}

var journalCases = []Case{
	{"journal/today's records, byte for byte, read back by another process", func(t *testing.T, procs Procs) {
		st := procs()
		s, err := st.Create(GoldenMeta())
		if err != nil {
			t.Fatal(err)
		}
		if err := GoldenSteps(s); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if got := rawJournal(t, st, GoldenID); !bytes.Equal(got, golden) {
			t.Fatalf("the journal differs from the one askuser's main branch wrote:\n%s\nwant\n%s", got, golden)
		}
		back, err := procs().Load(GoldenID[:8])
		if err != nil {
			t.Fatal(err)
		}
		if len(back.State.Messages) != 6 || back.Meta.Model != "claude-test" || back.Cancelled == nil || back.Cancelled.Reason != "not now" {
			t.Errorf("loaded %d messages, meta %+v, cancelled %+v", len(back.State.Messages), back.Meta, back.Cancelled)
		}
		if grant, ok := back.State.Session.Get("approval.grant:Bash"); !ok || !strings.Contains(string(grant), `"scope":"session"`) {
			t.Errorf("the grant did not move with the journal: %s, %v", grant, ok)
		}
		if w := back.Waiting(); len(w) != 1 || w[0].ID != "toolu_2" || len(w[0].Headers) != 2 {
			t.Errorf("waiting on %+v; want the second set", w)
		}
	}},
	{"journal/one process holds a session", func(t *testing.T, procs Procs) {
		a, b := procs(), procs()
		s := newSession(t, a, idHeld, "go", say(agentloop.RoleUser, "go"))
		if !b.InUse(string(idHeld)) {
			t.Error("another process does not see the session held")
		}
		if _, err := b.Open(string(idHeld)); !errors.Is(err, session.ErrInUse) {
			t.Errorf("open a held session: %v; want ErrInUse", err)
		}
		if _, err := a.Open(string(idHeld)); !errors.Is(err, session.ErrInUse) {
			t.Errorf("open a held session again in its process: %v; want ErrInUse", err)
		}
		if l, err := b.Load(string(idHeld)); err != nil || len(l.State.Messages) != 1 {
			t.Errorf("load a held session: %v", err)
		}
		if _, err := b.Create(session.Meta{ID: idHeld}); !errors.Is(err, session.ErrExists) {
			t.Errorf("create a session under a taken id: %v; want ErrExists", err)
		}
		s.Close()
		if b.InUse(string(idHeld)) {
			t.Error("held after Close")
		}
		s2, err := b.Open(string(idHeld))
		if err != nil {
			t.Fatal(err)
		}
		if err := s2.Message(text(agentloop.RoleAssistant, "went")); err != nil {
			t.Fatal(err)
		}
		s2.Close()
		if l, _ := a.Load(string(idHeld)); len(l.State.Messages) != 2 || l.Meta.Machine != "build-7" || l.Meta.Cwd != "/src/app" {
			t.Errorf("after the other process wrote: %d messages, meta %+v", len(l.State.Messages), l.Meta)
		}
		if err := s.Message(text(agentloop.RoleUser, "late")); err == nil {
			t.Error("a closed session was written")
		}
	}},
	{"journal/find by id or a prefix only one has", func(t *testing.T, procs Procs) {
		st := procs()
		for _, id := range []session.ID{idABC1, idABC10, idABD} {
			newSession(t, st, id, "p").Close()
		}
		for ref, want := range map[string]session.ID{"abd": idABD, "ab": "", string(idABC1): idABC1, string(idABC10): idABC10,
			"abc1": "", "abc10000-0000-4000-8000-00000000001": idABC10} {
			got, err := procs().Load(ref)
			switch {
			case want == "" && !errors.Is(err, session.ErrAmbiguous):
				t.Errorf("load %q: %v; want ErrAmbiguous", ref, err)
			case want != "" && (err != nil || got.Meta.ID != want):
				t.Errorf("load %q: %v; want %s", ref, err, want)
			}
		}
		if _, err := st.Load("abc2"); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("an id nobody has: %v", err)
		}
		if _, err := st.Load("../abd"); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("a path for an id: %v", err)
		}
	}},
	{"journal/list says what each session is doing", func(t *testing.T, procs Procs) {
		st := procs()
		newSession(t, st, idFinished, "a", say(agentloop.RoleUser, "a"), setStatus(agentloop.StatusSuccess)).Close()
		newSession(t, st, idKilled, "b", say(agentloop.RoleUser, "b")).Close()
		running := newSession(t, st, idRunning, "c", say(agentloop.RoleUser, "c"))
		defer running.Close()
		list, err := procs().List()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		var order []string
		for _, s := range list {
			got[s.ID] = s.Status
			order = append(order, s.ID)
		}
		want := map[string]string{string(idFinished): session.StatusFinished, string(idKilled): session.StatusInterrupted, string(idRunning): session.StatusRunning}
		for id, st := range want {
			if got[id] != st {
				t.Errorf("%s is listed %q; want %q", id, got[id], st)
			}
		}
		if !slices.Equal(order, []string{string(idRunning), string(idKilled), string(idFinished)}) {
			t.Errorf("listed %v; want the most recently updated first", order)
		}
		if latest, err := procs().Latest(); err != nil || latest != string(idRunning) {
			t.Errorf("latest %q, %v", latest, err)
		}
	}},
	{"journal/remove takes the answers and withdraws the sets", func(t *testing.T, procs Procs) {
		a, b := procs(), procs()
		ctx := context.Background()
		gone := string(idGone)
		s := newSession(t, a, idGone, "p")
		key := channel.Key(gone, "toolu_1")
		Register(t, a.Registry(), key, gone)
		if err := b.Mailbox().Post(ctx, session.Box{Session: gone, Key: key}, delivery("@alice on Slack")); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Remove(gone); !errors.Is(err, session.ErrInUse) {
			t.Fatalf("remove a held session: %v; want ErrInUse", err)
		}
		s.Close()
		if full, err := b.Remove(gone[:6]); err != nil || full != gone {
			t.Fatalf("remove: %q, %v", full, err)
		}
		if _, err := a.Load(gone); !errors.Is(err, session.ErrNotFound) {
			t.Errorf("load a removed session: %v", err)
		}
		if _, ok, _ := a.Mailbox().Get(ctx, session.Box{Session: gone, Key: key}); ok {
			t.Error("the removed session's answer is still there")
		}
		if e, err := a.Registry().Get(ctx, key); err != nil || e.Outcome.State != channel.Withdrawn {
			t.Errorf("the removed session's set: %+v, %v; want it kept, withdrawn, so its widgets say so", e.Outcome, err)
		}
	}},
}
