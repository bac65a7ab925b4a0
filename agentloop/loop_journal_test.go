package agentloop_test

// Journal discipline: every step reaches the journal before the loop acts
// on it, and a run resumed over the same State neither repeats a model call
// nor asks a question twice.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
	"github.com/askuser/askuser/internal/fakeprovider"
)

// eventLog is the order in which things happened, across the journal, the
// provider, the frontend and the observer.
type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *eventLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

// observe logs the loop's events (but not text deltas).
func (l *eventLog) observe(e agentloop.Event) {
	switch e.Type {
	case agentloop.EventAssistant:
		l.add("event:assistant")
	case agentloop.EventUser:
		l.add("event:user")
	case agentloop.EventQuestion:
		l.add("event:question %s late=%v", e.Request.ID, e.Late)
	case agentloop.EventAnswers:
		l.add("event:answers %s", e.Request.ID)
	case agentloop.EventDeferred:
		l.add("event:deferred %s", e.Request.ID)
	}
}

// logJournal records into an eventLog and keeps the messages it was given.
// failOn names a step ("message 2", "asked", "answered") to refuse.
type logJournal struct {
	log    *eventLog
	failOn string

	mu       sync.Mutex
	messages []agentloop.Message
}

var errJournalFull = errors.New("disk full")

func (j *logJournal) Message(m agentloop.Message) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.failOn == fmt.Sprintf("message %d", len(j.messages)+1) {
		return errJournalFull
	}
	j.log.add("journal:message %s", m.Role)
	j.messages = append(j.messages, m)
	return nil
}

func (j *logJournal) Asked(req ask.Request, toolUseID string, at time.Time) error {
	if j.failOn == "asked" {
		return errJournalFull
	}
	j.log.add("journal:asked %s", req.ID)
	return nil
}

func (j *logJournal) Replied(id string, answers []ask.Answer) error {
	if j.failOn == "replied" {
		return errJournalFull
	}
	j.log.add("journal:replied %s", id)
	return nil
}

func (j *logJournal) Step(toolUseID, key string, value json.RawMessage) error {
	j.log.add("journal:step %s %s", toolUseID, key)
	return nil
}

func (j *logJournal) Answered(id string, result agentloop.Block, answers []ask.Answer) error {
	if j.failOn == "answered" {
		return errJournalFull
	}
	j.log.add("journal:answered %s", id)
	return nil
}

func (j *logJournal) recorded() []agentloop.Message {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]agentloop.Message(nil), j.messages...)
}

// journaledProvider logs each call and checks that the provider is sent
// exactly the messages the journal already holds.
type journaledProvider struct {
	agentloop.Provider
	t       *testing.T
	log     *eventLog
	journal *logJournal
}

func (p *journaledProvider) Complete(ctx context.Context, req agentloop.Request, onText func(string)) (agentloop.Response, error) {
	p.log.add("provider:call %d", len(req.Messages))
	sent, _ := json.Marshal(req.Messages)
	journaled, _ := json.Marshal(p.journal.recorded())
	if string(sent) != string(journaled) {
		p.t.Errorf("the provider was sent messages the journal does not hold:\n sent %s\njournal %s", sent, journaled)
	}
	return p.Provider.Complete(ctx, req, onText)
}

func TestJournalBeforeAction(t *testing.T) {
	_, prov := anthropicWire.start(t, -1, seedTurns()...)
	log := &eventLog{}
	j := &logJournal{log: log}
	fe := newStubFrontend(t).answer("toolu_auth", []string{"JWT"}, []string{"GitHub"})
	fe.before = func(req ask.Request) { log.add("frontend:ask %s", req.ID) }
	l := &agentloop.Loop{Provider: &journaledProvider{Provider: prov, t: t, log: log, journal: j}, Frontend: fe, Journal: j, Observe: log.observe}
	out := run(t, l, agentloop.NewState(), userPrompt("Add authentication"))
	if out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	want := []string{
		"journal:message user",
		"provider:call 1",
		"journal:message assistant",
		"event:assistant",
		"journal:asked toolu_auth",
		"event:question toolu_auth late=false",
		"frontend:ask toolu_auth",
		"journal:replied toolu_auth",
		"event:answers toolu_auth",
		"journal:answered toolu_auth",
		"journal:message user",
		"event:user",
		"provider:call 3",
		"journal:message assistant",
		"event:assistant",
	}
	if got := log.all(); !slices.Equal(got, want) {
		t.Errorf("order of steps:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// A step the journal refuses is not taken: the run stops with an error
// before acting on it.
func TestJournalFailureStopsBeforeActing(t *testing.T) {
	cases := []struct {
		failOn   string
		wantErr  string
		asked    int // times the frontend was asked
		messages int // messages in the state
		calls    int // model calls
	}{
		{"message 1", "record message: disk full", 0, 0, 0},
		// The reply arrived but could not be recorded: it is not kept.
		{"message 2", "record message: disk full", 0, 1, 1},
		{"asked", "record question: disk full", 0, 2, 1},
		{"answered", "record answer: disk full", 1, 2, 1},
		{"message 3", "record message: disk full", 1, 2, 1},
	}
	for _, c := range cases {
		t.Run(c.failOn, func(t *testing.T) {
			t.Parallel()
			srv, prov := anthropicWire.start(t, -1, seedTurns()...)
			ans := newStubFrontend(t)
			if c.asked > 0 {
				ans.answer("toolu_auth", []string{"JWT"}, []string{"GitHub"})
			}
			st := agentloop.NewState()
			l := &agentloop.Loop{Provider: prov, Frontend: ans, Journal: &logJournal{log: &eventLog{}, failOn: c.failOn}}
			out := run(t, l, st, userPrompt("go"))
			if out.Status != agentloop.StatusError || !errors.Is(out.Err, errJournalFull) || out.Err.Error() != c.wantErr {
				t.Fatalf("status %s, err %v; want error %q", out.Status, out.Err, c.wantErr)
			}
			if got := len(ans.Asked()); got != c.asked {
				t.Errorf("the frontend was asked %d times, want %d", got, c.asked)
			}
			if len(st.Messages) != c.messages {
				t.Errorf("%d messages in the state, want %d", len(st.Messages), c.messages)
			}
			if len(srv.Requests()) != c.calls {
				t.Errorf("%d model calls, want %d", len(srv.Requests()), c.calls)
			}
		})
	}
}

// t0 is when the question was first asked in the resume tests.
var t0 = time.Date(2025, 3, 14, 9, 26, 53, 0, time.UTC)

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

const authLateResult = "User answered the following questions:\n\n" +
	"1. Auth Method (Which authentication method should we use?)\n   Selected: JWT\n" +
	"   Answered later: by a person, 2h0m after it was asked; the run had stopped to wait for it and was resumed\n\n" +
	"2. Providers (Which OAuth providers should we support?)\n   Selected: GitHub\n" +
	"   Answered later: by a person, 2h0m after it was asked; the run had stopped to wait for it and was resumed\n\n" +
	"Proceeding with user selections."

func TestResumeOverTheSameState(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, seedTurns()...)
	st := agentloop.NewState()
	first := newStubFrontend(t).fail("toolu_auth", fmt.Errorf("%w: nobody at the terminal", ask.ErrDeferred))
	out := run(t, &agentloop.Loop{Provider: prov, Frontend: first, Now: fixedClock(t0)}, st, userPrompt("Add authentication"))
	if out.Status != agentloop.StatusWaiting || len(srv.Requests()) != 1 {
		t.Fatalf("first run: status %s (%v) after %d calls, want waiting after 1", out.Status, out.Err, len(srv.Requests()))
	}

	// Later, a new process: a new Loop and frontend over the same State.
	later := t0.Add(2 * time.Hour)
	second := newStubFrontend(t).answerAt("toolu_auth", ask.SourcePerson, later, []string{"JWT"}, []string{"GitHub"})
	log := &eventLog{}
	var answers []ask.Answer
	l := &agentloop.Loop{Provider: prov, Frontend: second, Now: fixedClock(later), Journal: &logJournal{log: log},
		Observe: func(e agentloop.Event) {
			log.observe(e)
			if e.Type == agentloop.EventAnswers {
				answers = e.Answers
			}
		}}
	out = run(t, l, st, nil)
	if out.Status != agentloop.StatusSuccess || out.Turns != 1 || out.Result != seedFinal {
		t.Fatalf("resumed run: status %s after %d turns, result %q (%v); want success after 1", out.Status, out.Turns, out.Result, out.Err)
	}
	if len(srv.Requests()) != 2 || srv.Remaining() != 0 {
		t.Errorf("%d model calls in all, want exactly 2 (one per run)", len(srv.Requests()))
	}
	wantResults(t, srv, fakeprovider.ToolResultSeen{Request: 1, ToolUseID: "toolu_auth", Content: authLateResult})
	if len(answers) != 2 {
		t.Fatalf("answers %+v, want 2", answers)
	}
	for _, a := range answers {
		if a.Late == nil || !a.Late.AskedAt.Equal(t0) || a.Source != ask.SourcePerson {
			t.Errorf("answer %+v, want a person's, late, asked at %s", a, t0)
		}
	}
	// The question was not asked anew: no asked record, a late question event.
	want := []string{
		"event:question toolu_auth late=true",
		"journal:replied toolu_auth",
		"event:answers toolu_auth",
		"journal:answered toolu_auth",
		"journal:message user",
		"event:user",
		"journal:message assistant",
		"event:assistant",
	}
	if got := log.all(); !slices.Equal(got, want) {
		t.Errorf("resumed steps:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}
}

// Resuming a finished conversation does nothing: no model call, no question.
func TestResumeFinishedIsANoOp(t *testing.T) {
	srv, prov := anthropicWire.start(t, -1, seedTurns()...)
	st := agentloop.NewState()
	fe := newStubFrontend(t).answer("toolu_auth", []string{"JWT"}, []string{"GitHub"})
	l := &agentloop.Loop{Provider: prov, Frontend: fe}
	if out := run(t, l, st, userPrompt("go")); out.Status != agentloop.StatusSuccess {
		t.Fatalf("status %s (%v), want success", out.Status, out.Err)
	}
	n := len(st.Messages)
	out := run(t, l, st, nil)
	if out.Status != agentloop.StatusSuccess || out.Turns != 0 || out.Result != seedFinal {
		t.Errorf("status %s after %d turns, result %q; want success after 0 with the last result", out.Status, out.Turns, out.Result)
	}
	if len(st.Messages) != n || len(srv.Requests()) != 2 || len(fe.Asked()) != 1 {
		t.Errorf("a finished conversation was continued: %d messages (want %d), %d calls", len(st.Messages), n, len(srv.Requests()))
	}
}

// A run killed between two steps resumes at the next one: a result already
// recorded is not asked again, a results message already recorded is sent
// without a question, and only the model call that was not made is made.
func TestResumeAfterAKill(t *testing.T) {
	prompt := *userPrompt("go")
	use := askUse("toolu_db", dbInput)
	result := agentloop.Block{Type: agentloop.BlockToolResult, ToolUseID: "toolu_db", Content: dbPersonResult}
	results := agentloop.Message{Role: agentloop.RoleUser, Content: []agentloop.Block{result}}
	cases := []struct {
		name     string
		messages []agentloop.Message
		answered bool // the answer was recorded, its results message not
	}{
		{"after the prompt", []agentloop.Message{prompt}, false},
		{"after the answer", []agentloop.Message{prompt, assistant("", use)}, true},
		{"after the results message", []agentloop.Message{prompt, assistant("", use), results}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := agentloop.NewState()
			for _, m := range c.messages {
				st.Append(m)
			}
			if c.answered {
				st.AskedAt["toolu_db"] = t0
				st.Results["toolu_db"] = result
			}
			prov := &turnProvider{t: t, replies: []agentloop.Message{assistant("Done.")}}
			out := run(t, &agentloop.Loop{Provider: prov, Frontend: newStubFrontend(t)}, st, nil)
			if out.Status != agentloop.StatusSuccess || out.Turns != 1 || prov.Calls() != 1 || out.Result != "Done." {
				t.Fatalf("status %s after %d turns, %d calls, result %q (%v); want success after 1 call", out.Status, out.Turns, prov.Calls(), out.Result, out.Err)
			}
			sent := prov.calls[0].Messages
			if len(c.messages) > 1 {
				last := sent[len(sent)-1]
				if len(sent) != 3 || len(last.Content) != 1 || !reflect.DeepEqual(last.Content[0], result) {
					t.Errorf("the model was sent %+v, want the recorded result as the last message", sent)
				}
			}
		})
	}
}
