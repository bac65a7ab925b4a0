package agentloop_test

// Sub-agents: a Task call runs a child loop whose questions reach the
// parent's frontend, labelled with the child, and whose conversation is
// journaled in the parent's session.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask/asktest"
	"github.com/askuser/askuser/internal/session"
)

// routeProvider answers each conversation by its first user message: the
// parent's prompt and each child's task prompt have their own replies, in
// order, whatever order the concurrent children call in.
type routeProvider struct {
	t      *testing.T
	routes map[string][]agentloop.Message

	mu    sync.Mutex
	calls map[string][]agentloop.Request
}

func (p *routeProvider) Name() string  { return "route" }
func (p *routeProvider) Model() string { return "route-1" }

func (p *routeProvider) Complete(ctx context.Context, req agentloop.Request, onText func(string)) (agentloop.Response, error) {
	key := req.Messages[0].Text()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.calls == nil {
		p.calls = map[string][]agentloop.Request{}
	}
	n := 0
	for _, m := range req.Messages {
		if m.Role == agentloop.RoleAssistant {
			n++
		}
	}
	p.calls[key] = append(p.calls[key], req)
	replies := p.routes[key]
	if n >= len(replies) {
		p.t.Errorf("conversation %q asks for reply %d; %d are scripted", key, n+1, len(replies))
		return agentloop.Response{}, &agentloop.ProviderError{Provider: "route", Message: "no more replies"}
	}
	return agentloop.Response{Message: replies[n], StopReason: "end_turn", Usage: agentloop.Usage{InputTokens: 10, OutputTokens: 1}}, nil
}

func (p *routeProvider) callsOf(key string) []agentloop.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[key]
}

func task(id, description, prompt string) agentloop.Block {
	in, _ := json.Marshal(map[string]string{"description": description, "prompt": prompt})
	return use(id, agentloop.TaskName, string(in))
}

func oneQuestion(header, a, b string) string {
	return fmt.Sprintf(`{"questions":[{"question":"Which %s?","header":%q,"options":[{"label":%q,"description":""},{"label":%q,"description":""}],"multiSelect":false}]}`, strings.ToLower(header), header, a, b)
}

func twoChildren(t *testing.T) *routeProvider {
	return &routeProvider{t: t, routes: map[string][]agentloop.Message{
		"go": {
			assistant("Delegating.", task("toolu_ta", "Pick the database", "pick db"), task("toolu_tb", "Pick the auth", "pick auth")),
			assistant("Both done."),
		},
		"pick db":   {assistant("", askUse("toolu_q1", oneQuestion("Database", "PostgreSQL", "SQLite"))), assistant("Chose the database.")},
		"pick auth": {assistant("", askUse("toolu_q2", oneQuestion("Auth", "JWT", "OAuth"))), assistant("Chose the auth.")},
	}}
}

func taskRegistry(t *testing.T) *agentloop.Registry {
	return registry(t, agentloop.TaskTool{Depth: 1})
}

func TestTwoChildrenAskThroughTheParent(t *testing.T) {
	for _, concurrent := range []bool{false, true} {
		t.Run(fmt.Sprintf("concurrent=%v", concurrent), func(t *testing.T) {
			prov := twoChildren(t)
			fe := asktest.New(t)
			if concurrent {
				fe.SetConcurrent()
			}
			fe.Expect("Database").Choose("SQLite")
			fe.Expect("Auth").Choose("JWT")
			log := &eventLog{}
			var parents sync.Map
			observe := func(e agentloop.Event) {
				log.observe(e)
				if e.Type == agentloop.EventQuestion {
					parents.Store(e.Request.ID, e.ParentToolUseID)
				}
			}
			out := run(t, &agentloop.Loop{Provider: prov, Tools: taskRegistry(t), Frontend: fe, Observe: observe}, agentloop.NewState(), userPrompt("go"))
			if out.Status != agentloop.StatusSuccess || out.Result != "Both done." {
				t.Fatalf("status %s (%v), result %q", out.Status, out.Err, out.Result)
			}
			if out.Usage.InputTokens != 60 {
				t.Errorf("usage %+v; want the parent's 2 calls and the children's 4, 10 tokens each", out.Usage)
			}
			agents := map[string]string{}
			for _, q := range fe.Asked() {
				agents[q.Questions[0].Header] = q.Agent
				if !strings.HasPrefix(q.ID, "toolu_ta/") && !strings.HasPrefix(q.ID, "toolu_tb/") {
					t.Errorf("question set id %q is not named under its Task call", q.ID)
				}
			}
			if agents["Database"] != "Pick the database" || agents["Auth"] != "Pick the auth" {
				t.Errorf("agents %v; each question carries the sub-agent that asks", agents)
			}
			if p, _ := parents.Load("toolu_ta/toolu_q1"); p != "toolu_ta" {
				t.Errorf("the first child's question event has parent %v, want toolu_ta", p)
			}
			got := results(prov.callsOf("go")[1])
			if len(got) != 2 || !strings.HasPrefix(got[0].Content, "Chose the database.") || !strings.HasPrefix(got[1].Content, "Chose the auth.") {
				t.Fatalf("task results %+v", got)
			}
			if !strings.Contains(got[0].Content, "Selected: SQLite") || strings.Contains(got[0].Content, "JWT") || !strings.Contains(got[1].Content, "Selected: JWT") {
				t.Errorf("each result tells the parent what its child's user answered:\n%s\n%s", got[0].Content, got[1].Content)
			}
			for _, key := range []string{"pick db", "pick auth"} {
				for _, s := range prov.callsOf(key)[0].Tools {
					if s.Name == agentloop.TaskName {
						t.Errorf("child %q was offered Task: no recursion unless the depth allows", key)
					}
				}
			}
		})
	}
}

// A child's invalid question goes back to the child, not the parent.
func TestChildInvalidInputStaysWithTheChild(t *testing.T) {
	prov := &routeProvider{t: t, routes: map[string][]agentloop.Message{
		"go":      {assistant("", task("toolu_t", "Explore", "explore")), assistant("Done.")},
		"explore": {assistant("", askUse("toolu_bad", `{"questions":[]}`)), assistant("I will not ask then.")},
	}}
	out := run(t, &agentloop.Loop{Provider: prov, Tools: taskRegistry(t), Frontend: asktest.New(t)}, agentloop.NewState(), userPrompt("go"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v)", out.Status, out.Err)
	}
	if r := results(prov.callsOf("explore")[1]); len(r) != 1 || !r[0].IsError || !strings.Contains(r[0].Content, "Invalid AskUserQuestion input") {
		t.Errorf("the child got %+v, want its error result", r)
	}
	if r := results(prov.callsOf("go")[1]); len(r) != 1 || r[0].IsError || r[0].Content != "I will not ask then." {
		t.Errorf("the parent got %+v, want the child's final text", r)
	}
}

func TestTaskInvalidInput(t *testing.T) {
	prov := &routeProvider{t: t, routes: map[string][]agentloop.Message{
		"go": {assistant("", use("toolu_t", agentloop.TaskName, `{"prompt":"x"}`)), assistant("Ok.")},
	}}
	out := run(t, &agentloop.Loop{Provider: prov, Tools: taskRegistry(t), Frontend: asktest.New(t)}, agentloop.NewState(), userPrompt("go"))
	if r := results(prov.callsOf("go")[1]); out.Status != agentloop.StatusSuccess || !r[0].IsError || !strings.Contains(r[0].Content, "description and prompt are required") {
		t.Errorf("status %s, result %+v", out.Status, r)
	}
}

// A run stops while both children wait; the session on disk holds their
// conversations; resume, from a reloaded journal, continues each child from
// where it stopped (no model call repeated), then the parent.
func TestChildWaitsSuspendsAndResumes(t *testing.T) {
	store := &session.Store{Dir: t.TempDir()}
	sess, err := store.Create(session.Meta{Provider: "route"})
	if err != nil {
		t.Fatal(err)
	}
	prov := twoChildren(t)
	out := run(t, &agentloop.Loop{Provider: prov, Tools: taskRegistry(t), Frontend: deferFrontend{}, Journal: sess}, sess.State, userPrompt("go"))
	if out.Status != agentloop.StatusWaiting || len(out.Pending) != 2 {
		t.Fatalf("status %s, pending %+v; want waiting on both children's questions", out.Status, out.Pending)
	}
	var agents []string
	for _, p := range out.Pending {
		agents = append(agents, p.Agent)
	}
	slices.Sort(agents)
	if !slices.Equal(agents, []string{"Pick the auth", "Pick the database"}) {
		t.Errorf("pending agents %v", agents)
	}
	sess.Close()

	reopened, err := store.Open(string(sess.Meta.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	if got := len(reopened.State.PendingQuestions()); got != 2 {
		t.Fatalf("the reloaded session waits on %d questions, want 2", got)
	}
	fe := asktest.New(t)
	fe.Expect("Database").Choose("PostgreSQL")
	fe.Expect("Auth").Choose("OAuth")
	out = run(t, &agentloop.Loop{Provider: prov, Tools: taskRegistry(t), Frontend: fe, Journal: reopened}, reopened.State, nil)
	if out.Status != agentloop.StatusSuccess || out.Result != "Both done." {
		t.Fatalf("status %s (%v), result %q", out.Status, out.Err, out.Result)
	}
	for key, want := range map[string]int{"go": 2, "pick db": 2, "pick auth": 2} {
		if got := len(prov.callsOf(key)); got != want {
			t.Errorf("conversation %q: %d model calls, want %d (none repeated)", key, got, want)
		}
	}
	for _, q := range fe.Asked() {
		if q.Agent == "" {
			t.Errorf("resumed question %s lost its agent", q.ID)
		}
	}
	if got := results(prov.callsOf("go")[1]); !strings.Contains(got[0].Content, "Answered later") {
		t.Errorf("the parent's result %q should carry the child's late answer", got[0].Content)
	}
}
