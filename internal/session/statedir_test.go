//go:build unix

package session_test

// What else may be found in the state directory cannot be turned against
// its owner: a journal is used only under its own id, what is not a
// regular file is never read or written through, and a journal is read
// only up to MaxJournalBytes.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
	"github.com/askuser/askuser/internal/statefile"
)

// plant writes a copy of a waiting session's journal under the name of
// another id, with the header's id replaced by inner.
func plant(t *testing.T, st *session.Store, from *session.Session, name session.ID, inner string) string {
	t.Helper()
	data, err := os.ReadFile(from.Path())
	if err != nil {
		t.Fatal(err)
	}
	quoted := `"id":"` + strings.ReplaceAll(inner, `"`, `\"`) + `"`
	data = bytes.Replace(data, []byte(`"id":"`+string(from.Meta.ID)+`"`), []byte(quoted), 1)
	path := filepath.Join(st.Dir, "sessions", string(name)+".jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestJournalUsedUnderItsOwnID plants journals whose header holds another
// session's id, a flag, or a path: each is damaged at line 1, listed so,
// and never opened, so its id never reaches a command line or a path.
func TestJournalUsedUnderItsOwnID(t *testing.T) {
	st := newStore(t)
	victim := create(t, st, session.Meta{ID: tid("a1")}, waitingSteps("add auth")...)
	for name, inner := range map[session.ID]string{
		tid("b1"): string(victim.Meta.ID),
		tid("b2"): `--mcp-config={"mcpServers":{"x":{"command":"sh","args":["-c","touch pwned"]}}}`,
		tid("b3"): "../../x",
	} {
		path := plant(t, st, victim, name, inner)
		before, _ := os.ReadFile(path)
		for op, load := range map[string]func(string) (*session.Session, error){"open": st.Open, "load": st.Load} {
			s, err := load(string(name))
			var ce *session.CorruptError
			if !errors.As(err, &ce) || ce.Line != 1 || ce.Intact != 0 || ce.Path != path || !strings.Contains(ce.Reason, "the header's id") {
				if s != nil {
					s.Close()
				}
				t.Errorf("%s %s (holding id %.40q): %v, want it damaged at line 1 for its id", op, name, inner, err)
			}
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("opening %s changed it", path)
		}
	}
	list, err := st.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, sum := range list {
		if sum.ID == string(victim.Meta.ID) {
			if sum.Status != session.StatusWaiting {
				t.Errorf("the real session is listed %q", sum.Status)
			}
			continue
		}
		var ce *session.CorruptError
		if sum.Status != session.StatusDamaged || !errors.As(sum.Problem(), &ce) || !strings.Contains(sum.Err, sum.ID+".jsonl") {
			t.Errorf("planted journal listed as %+v, want damaged, naming its file", sum)
		}
	}
	if _, err := st.Create(session.Meta{ID: "../../x"}); err == nil || !errors.Is(err, session.ErrBadID) {
		t.Errorf("Create with the id ../../x: %v, want it refused", err)
	}
	if _, err := os.Stat(filepath.Join(st.Dir, "..", "x.jsonl")); err == nil {
		t.Error("a journal was created outside the state directory")
	}
}

// TestSpecialFilesNeverRead puts a FIFO, a link to another directory's
// journal and a link to a device where journals go. Loading, opening,
// listing, asking whether it is in use and removing each return at once
// (a FIFO is never waited on), and nothing a link points to is read,
// truncated or removed.
func TestSpecialFilesNeverRead(t *testing.T) {
	st := newStore(t)
	real := create(t, st, session.Meta{ID: tid("a1")}, waitingSteps("add auth")...)
	dir := filepath.Join(st.Dir, "sessions")
	// A journal elsewhere, torn at its end: opening it through the link
	// would cut its last line off.
	elsewhere := &session.Store{Dir: t.TempDir()}
	other := create(t, elsewhere, session.Meta{ID: tid("c1")}, waitingSteps("elsewhere")...)
	f, err := os.OpenFile(other.Path(), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"message","at":`)
	f.Close()
	otherBytes, _ := os.ReadFile(other.Path())
	fifoID, linkID, devID := tid("f1f0"), tid("c1"), tid("de7")
	for _, err := range []error{
		unix.Mkfifo(filepath.Join(dir, string(fifoID)+".jsonl"), 0o600),
		unix.Mkfifo(filepath.Join(dir, "x.jsonl"), 0o600),
		os.Symlink(other.Path(), filepath.Join(dir, string(linkID)+".jsonl")),
		os.Symlink("/dev/zero", filepath.Join(dir, string(devID)+".jsonl")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	kinds := map[string]string{string(fifoID): "a named pipe (FIFO)", "x": "a named pipe (FIFO)", string(linkID): "a symbolic link", string(devID): "a symbolic link"}
	for _, id := range []session.ID{fifoID, linkID, devID} {
		for op, load := range map[string]func(string) (*session.Session, error){"open": st.Open, "load": st.Load} {
			s, err := load(string(id))
			var nr *statefile.NotRegularError
			if !errors.As(err, &nr) || nr.Kind != kinds[string(id)] || !strings.Contains(err.Error(), string(id)+".jsonl") {
				if s != nil {
					s.Close()
				}
				t.Errorf("%s %s: %v, want it refused as %s", op, id, err, kinds[string(id)])
			}
		}
		if st.InUse(string(id)) {
			t.Errorf("%s is said to be in use", id)
		}
	}
	list, err := st.List()
	if err != nil || len(list) != 5 {
		t.Fatalf("List() = %+v, %v; want the session and the four others", list, err)
	}
	for _, sum := range list {
		if sum.ID == string(real.Meta.ID) {
			continue
		}
		var nr *statefile.NotRegularError
		if sum.Status != session.StatusDamaged || !errors.As(sum.Problem(), &nr) || nr.Kind != kinds[sum.ID] || sum.InUse {
			t.Errorf("listed %+v, want damaged as %s", sum, kinds[sum.ID])
		}
	}
	for _, ref := range []string{string(linkID), string(devID), "x", string(fifoID)} {
		if _, err := st.Remove(ref); err != nil {
			t.Errorf("Remove(%s): %v", ref, err)
		}
	}
	if after, _ := os.ReadFile(other.Path()); !bytes.Equal(after, otherBytes) {
		t.Errorf("the journal a link pointed to changed:\n%s", after)
	}
	if list, _ := st.List(); len(list) != 1 {
		t.Errorf("after removing them, listed %+v", list)
	}
}

// TestJournalTooLarge: an 8 GiB journal (sparse: it costs nothing) is
// refused from its size, never read, and listed as damaged saying so.
func TestJournalTooLarge(t *testing.T) {
	st := newStore(t)
	big := create(t, st, session.Meta{ID: tid("b16")}, waitingSteps("add auth")...)
	if err := os.Truncate(big.Path(), 8<<30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	for op, load := range map[string]func(string) (*session.Session, error){"open": st.Open, "load": st.Load} {
		_, err := load("b16")
		if !errors.Is(err, statefile.ErrTooLarge) || !strings.Contains(err.Error(), "is 8.0 GiB, larger than the 64 MiB askuser reads of it") {
			t.Errorf("%s: %v, want it refused unread", op, err)
		}
	}
	list, err := st.List()
	if err != nil || len(list) != 1 || list[0].Status != session.StatusDamaged || !errors.Is(list[0].Problem(), statefile.ErrTooLarge) {
		t.Errorf("List() = %+v, %v; want it damaged, too large", list, err)
	}
}

// TestJournalStopsAtItsBound: a record that would take a journal past
// MaxJournalBytes is refused and not written, so the journal can still be
// loaded and resumed.
func TestJournalStopsAtItsBound(t *testing.T) {
	st := newStore(t)
	s := open(t, st, create(t, st, session.Meta{ID: tid("f011")}, waitingSteps("add auth")...).Meta.ID)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	err = s.Message(text(agentloop.RoleUser, strings.Repeat("x", session.MaxJournalBytes-int(fi.Size()))))
	if !errors.Is(err, session.ErrJournalFull) || !strings.Contains(err.Error(), "start a new session") {
		t.Errorf("a record past the bound: %v, want ErrJournalFull", err)
	}
	if again, err := os.Stat(s.Path()); err != nil || again.Size() != fi.Size() {
		t.Errorf("the journal went from %d to %d bytes (%v)", fi.Size(), again.Size(), err)
	}
	if err := s.Message(text(agentloop.RoleUser, "a small one still fits")); err != nil {
		t.Errorf("a record within the bound: %v", err)
	}
	s.Close()
	if _, err := st.Load("f011"); err != nil {
		t.Errorf("the journal no longer loads: %v", err)
	}
}

// TestPlantedRegistryAndMailbox: the registry and the answer mailbox are
// files of the state directory too. A registry entry whose session is not
// an id (a flag that askuser serve would pass to askuser resume), or whose
// key is not its file's name, is damaged and never used; a FIFO where an
// answer goes is never waited on; a side directory planted as a link is
// never posted into.
func TestPlantedRegistryAndMailbox(t *testing.T) {
	st := newStore(t)
	reg := st.Registry()
	ctx := t.Context()
	key := channel.Key(string(tid("a1")), "toolu_1")
	if _, err := reg.Update(ctx, key, func(e *session.Entry, found bool) error {
		e.Session, e.Channels = "--mcp-config=x", []string{"inbox"}
		return nil
	}); err == nil || !strings.Contains(err.Error(), "is not a session id") {
		t.Errorf("an entry for the session --mcp-config=x was written: %v", err)
	}
	dir := filepath.Join(st.Dir, "relay")
	other := channel.Key(string(tid("a2")), "toolu_1")
	for name, body := range map[string]string{
		key:   `{"key":"` + key + `","session":"--mcp-config=x","channels":["inbox"]}`,
		other: `{"key":"` + key + `","session":"` + string(tid("a2")) + `","channels":["inbox"]}`,
	} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Get(ctx, name); err == nil || !strings.Contains(err.Error(), "is damaged") {
			t.Errorf("a planted entry %s was read: %v", body, err)
		}
	}
	if list, err := reg.List(ctx); len(list) != 0 || err == nil {
		t.Errorf("List() = %+v, %v; want nothing, and the damage said", list, err)
	}

	mb := st.Mailbox()
	free := session.Box{Key: channel.Key("", "x")}
	if err := os.MkdirAll(filepath.Join(st.Dir, "mailbox"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := unix.Mkfifo(filepath.Join(st.Dir, "mailbox", free.Key+".json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mb.Get(ctx, free); !errors.Is(err, statefile.ErrNotRegular) {
		t.Errorf("a FIFO as an answer: %v", err)
	}
	victim := create(t, st, session.Meta{ID: tid("b1")}, waitingSteps("p")...)
	elsewhere := t.TempDir()
	if err := os.Symlink(elsewhere, st.SideDir(victim.Meta.ID)); err != nil {
		t.Fatal(err)
	}
	box := session.Box{Session: string(victim.Meta.ID), Key: channel.Key(string(victim.Meta.ID), "toolu_1")}
	a := ask.Answer{Question: "Q?", Header: "H", Selected: []string{"A"}, Source: ask.SourcePerson}
	if err := mb.Post(ctx, box, session.Delivery{Answers: []ask.Answer{a}, By: "a person", At: time.Now()}); !errors.Is(err, statefile.ErrNotRegular) {
		t.Errorf("a post through a side directory planted as a link: %v", err)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) > 0 {
		t.Errorf("the directory the link pointed to got %v", entries)
	}
}
