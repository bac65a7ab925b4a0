package hostrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/agenthost"
	"github.com/askuser/askuser/internal/session"
)

var dbReq = ask.Request{ID: "call_db", Questions: []ask.Question{{Question: "Which database should we use?", Header: "Database",
	Options: []ask.Option{{Label: "PostgreSQL"}, {Label: "SQLite"}}}}}

var sqlite = []ask.Answer{{Question: "Which database should we use?", Header: "Database", Selected: []string{"SQLite"}, Source: ask.SourcePerson}}

// hostSessionFor makes a held host session of kind in a files store.
func hostSessionFor(t *testing.T, kind string) (*session.Store, *session.Session) {
	t.Helper()
	st := &session.Store{Dir: t.TempDir()}
	sess, err := st.Create(session.Meta{Host: kind, Cwd: t.TempDir(), Machine: "here"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return st, sess
}

func deferred(context.Context, ask.Request) ([]ask.Answer, error) {
	return nil, fmt.Errorf("%w: nobody answered within 1s (--ask-timeout)", ask.ErrDeferred)
}

// A question answered in time is recorded with its answer and settled;
// one nobody answered waits, and the model is told so; a second question
// while one waits is not asked at all.
func TestHolderRecordsAndSuspends(t *testing.T) {
	_, sess := hostSessionFor(t, "codex")
	var asked atomic.Int32
	h := &Holder{Sess: sess, Continues: true, Ask: func(ctx context.Context, req ask.Request) ([]ask.Answer, error) {
		asked.Add(1)
		if _, ok := ask.AskedAt(ctx); !ok {
			t.Error("the set was asked without when it was first asked (its mailbox key)")
		}
		return sqlite, nil
	}}
	if a, err := h.AskMCP(t.Context(), dbReq); err != nil || a[0].Selected[0] != "SQLite" {
		t.Fatalf("%v %v", a, err)
	}
	if sum := sess.Summary(); sum.Pending != 0 || len(sum.Questions) != 0 {
		t.Errorf("an answered question still waits: %+v", sum)
	}
	h.Ask = deferred
	second := dbReq
	second.ID = "call_db2"
	_, err := h.AskMCP(t.Context(), second)
	var waits *agenthost.Suspension
	if !errors.As(err, &waits) || waits.Busy || !waits.Continues || waits.Session != string(sess.Meta.ID) || !strings.Contains(waits.Why, "--ask-timeout") {
		t.Fatalf("a question nobody answered: %v", err)
	}
	if sum := sess.Summary(); sum.Status != session.StatusWaiting || sum.HostState != session.HostSuspending || len(sum.Questions) != 1 {
		t.Errorf("summary %+v", sum)
	}
	h.Ask = func(context.Context, ask.Request) ([]ask.Answer, error) {
		t.Error("a question was asked while another waits")
		return nil, nil
	}
	third := dbReq
	third.ID = "call_db3"
	if _, err := h.AskMCP(t.Context(), third); !errors.As(err, &waits) || !waits.Busy || waits.Waiting != "Database" {
		t.Errorf("a question while one waits: %v", err)
	}
	if c, _, _ := sess.HostPending(); c == nil || c.ID != "call_db2" {
		t.Errorf("the call that waits: %+v", c)
	}
	if asked.Load() != 1 {
		t.Errorf("asked %d times", asked.Load())
	}
}

// Two hooks of one call (the person's own askuser hook beside askuser's)
// ask once and both get the answer.
func TestHolderAsksOneCallOnce(t *testing.T) {
	_, sess := hostSessionFor(t, "claude")
	var asked atomic.Int32
	release := make(chan struct{})
	h := &Holder{Sess: sess, Ask: func(context.Context, ask.Request) ([]ask.Answer, error) {
		asked.Add(1)
		<-release
		return sqlite, nil
	}}
	call := agenthost.HookCall{SessionID: "s", ToolUseID: "toolu_1", ToolName: "AskUserQuestion", ToolInput: []byte(`{}`)}
	var wg sync.WaitGroup
	got := make([][]ask.Answer, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = h.ForHook(call).Ask(t.Context(), dbReq)
		}()
	}
	for asked.Load() == 0 {
	}
	close(release)
	wg.Wait()
	if asked.Load() != 1 || len(got[0]) != 1 || len(got[1]) != 1 {
		t.Errorf("asked %d times; answers %v", asked.Load(), got)
	}
}

// At resume the call's answers recorded beforehand are given at once, and
// the call is settled.
func TestHolderGivesRecordedAnswers(t *testing.T) {
	_, sess := hostSessionFor(t, "claude")
	h := &Holder{Sess: sess, Ask: deferred}
	call := agenthost.HookCall{SessionID: "s", ToolUseID: "toolu_1", ToolName: "AskUserQuestion", ToolInput: []byte(`{}`)}
	if _, err := h.ForHook(call).Ask(t.Context(), dbReq); !errors.Is(err, ask.ErrDeferred) {
		t.Fatal(err)
	}
	if err := sess.HostReplied(dbReq.ID, sqlite); err != nil {
		t.Fatal(err)
	}
	h2 := &Holder{Sess: sess, Ask: func(context.Context, ask.Request) ([]ask.Answer, error) {
		t.Error("asked again")
		return nil, nil
	}}
	if a, err := h2.ForHook(call).Ask(t.Context(), dbReq); err != nil || len(a) != 1 {
		t.Fatalf("%v %v", a, err)
	}
	if c, _, _ := sess.HostPending(); c != nil {
		t.Errorf("the answered call still waits: %+v", c)
	}
}

// A hook event reaches the holder through the socket and its reply comes
// back; once the holder is gone, the hook learns it could not be reached.
func TestProxyHook(t *testing.T) {
	l, err := listen(t.Context(), Handlers{Hook: func(_ context.Context, input []byte) HookReply {
		return HookReply{Stdout: append([]byte("got "), input...), Exit: 0}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SocketFrom(l.path); err != nil {
		t.Fatal(err)
	}
	r, ok, err := ProxyHook(t.Context(), l.path, []byte(`{"x":1}`))
	if err != nil || !ok || string(r.Stdout) != `got {"x":1}` {
		t.Fatalf("%+v %v %v", r, ok, err)
	}
	l.close()
	if _, ok, err := ProxyHook(t.Context(), l.path, []byte(`{}`)); ok || err == nil {
		t.Errorf("after the holder closed: ok %v, %v", ok, err)
	}
	if _, err := SocketFrom(l.path); err == nil || !strings.Contains(err.Error(), EnvSocket) {
		t.Errorf("a socket that is gone: %v", err)
	}
}
