package session_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/channel"
	"github.com/askuser/askuser/internal/session"
)

func delivery(by string) session.Delivery {
	return session.Delivery{By: by, At: time.Date(2026, 11, 26, 14, 2, 0, 0, time.Local),
		Answers: []ask.Answer{{Question: "Which database?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson, Via: by}}}
}

// Many posts to one set, exactly one of which wins, are a case of the
// store contract (internal/store/storetest), run on files by
// TestStoreContract.

// Wait returns the answer posted by someone else, at once when it was
// posted in this process (whatever the poll), and a cancelled Wait says
// why.
func TestMailboxWait(t *testing.T) {
	st := newStore(t)
	mb := st.Mailbox().(*session.FileMailbox)
	mb.Poll = time.Hour
	box := session.Box{Key: channel.Key("", "ask_1")}
	go func() {
		time.Sleep(20 * time.Millisecond)
		_ = st.Mailbox().Post(context.Background(), box, delivery("@alice on Slack"))
	}()
	d, err := mb.Wait(context.Background(), box)
	if err != nil || d.By != "@alice on Slack" || d.Answers[0].Selected[0] != "SQLite" {
		t.Fatalf("Wait = %+v, %v", d, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := mb.Wait(ctx, session.Box{Key: channel.Key("", "ask_2")}); !errors.Is(err, ask.ErrCancelled) {
		t.Errorf("cancelled Wait = %v, want ask.ErrCancelled", err)
	}
}

// A mailbox refuses names that are not a key or a session id, a session
// that does not exist, an empty answer, and a symbolic link planted in its
// place.
func TestMailboxRefuses(t *testing.T) {
	st := newStore(t)
	mb := st.Mailbox()
	ctx := context.Background()
	good := channel.Key("", "x")
	for _, box := range []session.Box{{Key: "../../etc"}, {Key: good, Session: "../x"}, {Key: good, Session: "gone"}, {Key: good, Session: string(tid("90e"))}} {
		if err := mb.Post(ctx, box, delivery("@a on Slack")); err == nil {
			t.Errorf("Post(%+v) succeeded", box)
		}
	}
	if err := mb.Post(ctx, session.Box{Key: good}, session.Delivery{By: "x", At: time.Now()}); err == nil {
		t.Error("an empty answer was posted")
	}
	dir := filepath.Join(st.Dir, "mailbox")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(secret, []byte(`{"answers":[{"question":"q"}],"by":"forged","at":"2026-01-01T00:00:00Z"}`), 0o600)
	planted := channel.Key("", "planted")
	if err := os.Symlink(secret, filepath.Join(dir, planted+".json")); err != nil {
		t.Fatal(err)
	}
	if d, ok, err := mb.Get(ctx, session.Box{Key: planted}); err == nil || ok {
		t.Errorf("Get followed a planted link: %+v, %v, %v", d, ok, err)
	}
	if err := mb.Post(ctx, session.Box{Key: planted}, delivery("@a on Slack")); err == nil {
		t.Error("Post wrote through a planted link")
	}
}

// Two processes post to the same sets at once: each set gets exactly one
// answer, and every loser is told so.
func TestMailboxPostRacesAcrossProcesses(t *testing.T) {
	if os.Getenv("ASKUSER_MAILBOX_HELPER") != "" {
		return
	}
	st := newStore(t)
	const sets = 40
	procs := make([]*exec.Cmd, 2)
	outs := make([]strings.Builder, 2)
	for i := range procs {
		procs[i] = helper(t, "post", st.Dir, strconv.Itoa(sets), "@proc"+strconv.Itoa(i)+" on Slack")
		procs[i].Stdout = &outs[i]
	}
	for _, p := range procs {
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range procs {
		if err := p.Wait(); err != nil {
			t.Fatalf("helper %d: %v\n%s", i, err, outs[i].String())
		}
	}
	won := strings.Count(outs[0].String(), "won\n") + strings.Count(outs[1].String(), "won\n")
	lost := strings.Count(outs[0].String(), "lost\n") + strings.Count(outs[1].String(), "lost\n")
	if won != sets || lost != sets {
		t.Fatalf("%d posts won and %d lost, want %d each:\n%s\n%s", won, lost, sets, outs[0].String(), outs[1].String())
	}
}

// kill -9 at any instant leaves each set with no answer or a whole one.
func TestMailboxKilledPostLeavesNoHalfAnswer(t *testing.T) {
	if os.Getenv("ASKUSER_MAILBOX_HELPER") != "" {
		return
	}
	st := newStore(t)
	const sets = 150
	for round, after := range []time.Duration{time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		dir := filepath.Join(st.Dir, strconv.Itoa(round))
		p := helper(t, "post", dir, strconv.Itoa(sets), "@killed on Slack")
		if err := p.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(after)
		_ = p.Process.Signal(syscall.SIGKILL)
		_ = p.Wait()
		mb := (&session.Store{Dir: dir}).Mailbox()
		for i := range sets {
			box := session.Box{Key: channel.Key("", "set"+strconv.Itoa(i))}
			if _, _, err := mb.Get(context.Background(), box); err != nil {
				t.Fatalf("round %d, set %d after kill -9: %v", round, i, err)
			}
			// Whatever the kill left, the set still takes exactly one answer.
			if err := mb.Post(context.Background(), box, delivery("@after on Slack")); err != nil && !errors.Is(err, session.ErrAlreadyAnswered) {
				t.Fatalf("round %d, set %d: %v", round, i, err)
			}
		}
	}
}

// helper runs this test binary as a process that posts answers to sets
// set0…setN-1 of the mailbox in dir, printing "won" or "lost" for each.
func helper(t *testing.T, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMailboxHelper$")
	cmd.Env = append(os.Environ(), "ASKUSER_MAILBOX_HELPER="+strings.Join(args, "\x1f"))
	return cmd
}

func TestMailboxHelper(t *testing.T) {
	args := strings.Split(os.Getenv("ASKUSER_MAILBOX_HELPER"), "\x1f")
	if len(args) != 4 || args[0] != "post" {
		t.Skip("run by the mailbox tests as a helper process")
	}
	n, _ := strconv.Atoi(args[2])
	mb := (&session.Store{Dir: args[1]}).Mailbox()
	for i := range n {
		err := mb.Post(context.Background(), session.Box{Key: channel.Key("", "set"+strconv.Itoa(i))}, delivery(args[3]))
		switch {
		case err == nil:
			fmt.Println("won")
		case errors.Is(err, session.ErrAlreadyAnswered):
			fmt.Println("lost")
		default:
			fmt.Println("error:", err)
			os.Exit(1)
		}
	}
}

// Prune drops old answers to sets outside a session and stray temporary
// files, and keeps recent answers and every session's.
func TestMailboxPrune(t *testing.T) {
	st := newStore(t)
	s1 := string(tid("51"))
	create(t, st, session.Meta{ID: tid("51")}).Close()
	mb := st.Mailbox()
	ctx := context.Background()
	old, recent, ofSession := session.Box{Key: channel.Key("", "old")}, session.Box{Key: channel.Key("", "new")}, session.Box{Session: s1, Key: channel.Key(s1, "t")}
	for _, b := range []session.Box{old, recent, ofSession} {
		if err := mb.Post(ctx, b, delivery("@a on Slack")); err != nil {
			t.Fatal(err)
		}
	}
	week := time.Now().Add(-8 * 24 * time.Hour)
	os.Chtimes(filepath.Join(st.Dir, "mailbox", old.Key+".json"), week, week)
	os.Chtimes(filepath.Join(st.SideDir(tid("51")), "mailbox", ofSession.Key+".json"), week, week)
	stray := filepath.Join(st.SideDir(tid("51")), "mailbox", ".post-123")
	os.WriteFile(stray, []byte("{"), 0o600)
	os.Chtimes(stray, week, week)
	if err := mb.Prune(time.Now().Add(-7 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	for b, want := range map[session.Box]bool{old: false, recent: true, ofSession: true} {
		if _, ok, _ := mb.Get(ctx, b); ok != want {
			t.Errorf("%+v kept: %v, want %v", b, ok, want)
		}
	}
	if _, err := os.Stat(stray); err == nil {
		t.Error("a stray temporary file was kept")
	}
}
