package session

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/askuser/askuser/agentloop"
	"github.com/askuser/askuser/ask"
)

// The statuses of a listing (Summary.Status). Other values are how the
// last run ended (max_turns, error, timeout, cancelled by a signal).
const (
	StatusWaiting     = "waiting on a question"
	StatusFinished    = "finished"
	StatusCancelled   = "cancelled"
	StatusRunning     = "running"
	StatusInterrupted = "interrupted"
	StatusDamaged     = "damaged"
)

// TitleChars bounds a session's title.
const TitleChars = 60

// Title makes a prompt into a session's title: safe to show, on one line,
// at most TitleChars characters.
func Title(prompt string) string {
	t := strings.Join(strings.Fields(ask.Display(prompt)), " ")
	if utf8.RuneCountInString(t) > TitleChars {
		t = strings.TrimSpace(string([]rune(t)[:TitleChars-1])) + "…"
	}
	return t
}

// Cancellation records that the person declined to answer a session's
// questions (askuser cancel).
type Cancellation struct {
	At     time.Time
	Reason string
}

// Summary is one line of askuser sessions.
type Summary struct {
	// ID is the session's id; for a damaged journal, the name it is
	// listed under (its file's name without ".jsonl"), which need not be
	// an id.
	ID          string    `json:"id"`
	Created     time.Time `json:"created"`
	Updated     time.Time `json:"updated"`
	FirstPrompt string    `json:"first_prompt"`
	// Title is the first prompt, short and safe to show.
	Title string `json:"title"`
	// Cwd is the directory the session was started in ("" for sessions
	// of an askuser that did not record it).
	Cwd string `json:"cwd"`
	// Status is StatusWaiting, StatusFinished, StatusCancelled (the
	// person declined to answer, or a signal stopped the run), how the
	// last run ended (max_turns, error, timeout), StatusRunning while a
	// process holds the session, StatusInterrupted when its process died
	// without saying how it ended, or StatusDamaged.
	Status string `json:"status"`
	// Pending counts the tool calls waiting (for an answer, an approval or
	// a sub-agent).
	Pending int `json:"pending"`
	// Agents names the sub-agents whose questions wait.
	Agents []string `json:"agents,omitempty"`
	// Questions are the question sets waiting, with the questions still
	// unanswered.
	Questions []Waiting `json:"questions,omitempty"`
	// InUse says a process holds the session now (it runs, or asks).
	InUse bool `json:"in_use,omitempty"`
	// CancelReason is the reason given to askuser cancel.
	CancelReason string `json:"cancel_reason,omitempty"`
	Err          string `json:"error,omitempty"`
	// Machine is the machine it runs on ("" for sessions of an askuser
	// that did not record it). It comes last, after the keys scripts
	// already match.
	Machine string `json:"machine,omitempty"`
	// Host names the agent program of a host session (claude, codex,
	// gemini, opencode), HostID its own session id and HostState what
	// happened to it last (host.go); empty for askuser's own sessions.
	Host      string    `json:"host,omitempty"`
	HostID    string    `json:"host_session,omitempty"`
	HostState HostState `json:"host_state,omitempty"`
	// problem is the error Err words, for Problem.
	problem error
}

// Problem is why a damaged session could not be read (nil otherwise): a
// *CorruptError, a *statefile.NotRegularError, a *statefile.TooLargeError
// or another error.
func (sum Summary) Problem() error { return sum.problem }

// Waiting is one question set a session waits on.
type Waiting struct {
	// ID is the set's request id.
	ID string `json:"id"`
	// Agent names the sub-agent that asks ("" for the main agent).
	Agent string `json:"agent,omitempty"`
	// Headers are the headers of the questions still unanswered.
	Headers []string  `json:"headers"`
	AskedAt time.Time `json:"asked_at,omitzero"`
	// Kind is the set's kind when it is not a model's question
	// (ask.KindApproval, ask.KindElicitation).
	Kind string `json:"kind,omitempty"`
	// Tool names the tool whose call asked the set: for an approval, the
	// tool waiting to run, so a listing can say what is to be approved.
	Tool string `json:"tool,omitempty"`
	// Request is the set with the questions still unanswered.
	Request ask.Request `json:"-"`
	// LastText is what the asking agent last said, as written.
	LastText string `json:"-"`
	// AnsweredBy names who answered the set in its answer mailbox (a
	// chat channel, the inbox page), when the session has not taken the
	// answer yet; listings fill it in.
	AnsweredBy string `json:"answered_by,omitempty"`
}

// List summarises every session, most recently updated first. A journal
// that cannot be read is listed with its error, not skipped; one that is
// not a regular file, or not named by an id, is listed so without being
// read.
func (st *Store) List() ([]Summary, error) {
	b := st.backend()
	stored, err := b.List()
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(stored))
	for _, j := range stored {
		var s *Session
		err := j.Err
		if err == nil {
			s, _, err = load(b.Where(ID(j.Name)), ID(j.Name), j.Data)
		}
		if err != nil {
			out = append(out, Summary{ID: j.Name, Status: StatusDamaged, Err: err.Error(), problem: err, InUse: j.InUse, Updated: j.Updated})
			continue
		}
		sum := s.Summary()
		sum.InUse = j.InUse
		if sum.Status == StatusRunning && !sum.InUse {
			sum.Status = StatusInterrupted // no status, and no process holds it: killed
		}
		out = append(out, sum)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, nil
}

// Summary describes the session for a listing.
func (s *Session) Summary() Summary {
	sum := Summary{ID: string(s.Meta.ID), Created: s.Meta.Created, Updated: s.Updated, FirstPrompt: s.Meta.FirstPrompt,
		Title: s.Meta.Title, Cwd: s.Meta.Cwd, Machine: s.Meta.Machine, Pending: len(s.State.Pending()), Questions: s.Waiting(),
		Host: s.Meta.Host}
	if s.Host != nil {
		sum.HostID, sum.HostState = s.Host.ID, s.Host.State
	}
	for _, w := range sum.Questions {
		if w.Agent != "" && !slices.Contains(sum.Agents, w.Agent) {
			sum.Agents = append(sum.Agents, w.Agent)
		}
	}
	if sum.FirstPrompt == "" {
		for _, m := range s.State.Messages {
			if m.Role == agentloop.RoleUser && m.Text() != "" {
				sum.FirstPrompt = m.Text()
				break
			}
		}
	}
	if sum.Title == "" {
		sum.Title = Title(sum.FirstPrompt)
	}
	switch {
	case s.Cancelled != nil:
		sum.Status, sum.CancelReason = StatusCancelled, s.Cancelled.Reason
	case sum.Pending > 0:
		sum.Status = StatusWaiting
	case s.Status == string(agentloop.StatusSuccess):
		sum.Status = StatusFinished
	case s.Status == "":
		sum.Status = StatusRunning
	default:
		sum.Status = s.Status
	}
	return sum
}

// Waiting lists the question sets the session waits on, its sub-agents'
// included, in the order PendingQuestions gives them, each with the
// questions still unanswered, when it was asked, and what the agent that
// asks last said.
func (s *Session) Waiting() []Waiting {
	return waiting(s.State)
}

func waiting(st *agentloop.State) []Waiting {
	var out []Waiting
	last := st.FinalText()
	tools := map[string]string{}
	for _, b := range st.Pending() {
		tools[b.ID] = b.Name
	}
	for _, req := range st.PendingSets() {
		rest, _ := st.Remaining(req)
		w := Waiting{ID: req.ID, Agent: req.Agent, Kind: req.Kind, Tool: tools[st.AskedBy[req.ID]], AskedAt: st.AskedAt[req.ID],
			Request: rest, LastText: last}
		for _, q := range rest.Questions {
			w.Headers = append(w.Headers, q.Header)
		}
		out = append(out, w)
	}
	for _, b := range st.Pending() {
		if c, ok := st.Children[b.ID]; ok {
			out = append(out, waiting(c)...)
		}
	}
	return out
}

// Latest returns the id of the most recently updated session.
func (st *Store) Latest() (string, error) {
	list, err := st.List()
	if err != nil {
		return "", err
	}
	for _, s := range list {
		if s.Err == "" {
			return s.ID, nil // a journal read without error is named by its id
		}
	}
	return "", fmt.Errorf("%w: there are no sessions in %s yet", ErrNotFound, st.where())
}

// SameDir reports whether two directories are the same: equal as
// written, or once symbolic links are resolved (a shell's $PWD may name
// a directory through a link that os.Getwd does not).
func SameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}
