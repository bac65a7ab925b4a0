package agenthost

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/askuser/askuser/ask"
)

// HookCall is what the host room reads of a Claude Code PreToolUse event
// (the hook's standard input), on 2.1.197, 2.1.330 and 2.1.332.
type HookCall struct {
	Event          string          `json:"hook_event_name"`
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolUseID      string          `json:"tool_use_id"`
	// AgentID and AgentType are set on a subagent's call only.
	AgentID   string `json:"agent_id"`
	AgentType string `json:"agent_type"`
	// PromptID is set on the first call only: Claude Code leaves it out
	// when it asks the hook again at resume.
	PromptID string `json:"prompt_id"`
}

// ParseHookCall reads a PreToolUse event.
func ParseHookCall(input []byte) (HookCall, error) {
	var c HookCall
	if err := json.Unmarshal(input, &c); err != nil {
		return c, fmt.Errorf("the hook input is not a JSON object: %w", err)
	}
	var missing []string
	for name, v := range map[string]string{"hook_event_name": c.Event, "session_id": c.SessionID, "tool_name": c.ToolName, "tool_use_id": c.ToolUseID} {
		if v == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return c, fmt.Errorf("the hook input has no %s", strings.Join(missing, ", "))
	}
	if c.Event != "PreToolUse" {
		return c, fmt.Errorf("only a PreToolUse hook can defer a call, not %s", ask.Excerpt(c.Event))
	}
	return c, nil
}

// Subagent reports whether a subagent made the call. Claude Code cannot
// defer a subagent's call: the subagent just stops, the main agent reads
// "(Subagent completed but returned no output.)", and the session has
// nothing to resume.
func (c HookCall) Subagent() bool { return c.AgentID != "" }

// Deferred is the ledger's record of the one call a hook deferred in a
// Claude Code session.
type Deferred struct {
	SessionID      string          `json:"session_id"`
	ToolUseID      string          `json:"tool_use_id"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	Cwd            string          `json:"cwd,omitempty"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	At             time.Time       `json:"at"`
}

// Verdict is the ledger's answer to "may this call be deferred?".
type Verdict int

const (
	// Defer: no other call of the session waits; the call is recorded as
	// the session's deferred call. Answer permissionDecision "defer".
	Defer Verdict = iota
	// DeferAgain: this very call is the session's deferred call (Claude
	// Code asks again at resume) and still has no answer: defer again.
	DeferAgain
	// Busy: another call of the session already waits. Claude Code keeps
	// only the last of two deferred calls of a message and drops the other
	// from the conversation, so deny this one (BusyMessage).
	Busy
	// SubagentCall: a subagent cannot defer. Ask as usual; at the deadline
	// deny (SubagentMessage), so the main agent asks again.
	SubagentCall
	// Followed: Claude Code before 2.1.330 gives a deferred call that other
	// calls follow in its message "[Tool result missing due to internal
	// error]" at resume: deny instead (FollowedMessage).
	Followed
)

// Ledger keeps, in one file per Claude Code session under Dir, the call
// the hook deferred there, so a second call of the same turn is never
// deferred too (the hook may run for several calls at once: a lock folder
// orders them), and Stopped can be checked against it.
type Ledger struct {
	Dir string
}

var sessionIDRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`) })

func (l Ledger) path(sessionID, ext string) (string, error) {
	if !sessionIDRE().MatchString(sessionID) {
		return "", fmt.Errorf("session id %q is not one Claude Code gives", ask.Excerpt(sessionID))
	}
	return filepath.Join(l.Dir, sessionID+ext), nil
}

// Pending returns the session's deferred call, or nil.
func (l Ledger) Pending(sessionID string) (*Deferred, error) {
	p, err := l.path(sessionID, ".json")
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d Deferred
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("read the deferred call of session %s (%s): %w", sessionID, p, err)
	}
	return &d, nil
}

// Peek says, before anyone is asked, whether c could be deferred: Busy
// (with the waiting call) when another call of the session waits, so the
// hook denies at once instead of asking a question it could not keep.
func (l Ledger) Peek(c HookCall) (Verdict, *Deferred, error) {
	return l.decide(c, false)
}

// Claim decides at the deadline whether c is deferred, and records it when
// it is (Defer). Followed is read from the transcript, which Claude Code
// writes as the message streams: at the deadline the message is whole,
// while at the first instant of the hook its later calls may not be
// written yet (seen on 2.1.197), so Peek can miss what Claim sees.
func (l Ledger) Claim(c HookCall) (Verdict, *Deferred, error) {
	return l.decide(c, true)
}

func (l Ledger) decide(c HookCall, record bool) (Verdict, *Deferred, error) {
	if c.Subagent() {
		return SubagentCall, nil, nil
	}
	if followedUnsafe(c) {
		return Followed, nil, nil
	}
	unlock, err := l.lock(c.SessionID)
	if err != nil {
		return Busy, nil, err
	}
	defer unlock()
	d, err := l.Pending(c.SessionID)
	if err != nil {
		return Busy, nil, err
	}
	switch {
	case d != nil && d.ToolUseID == c.ToolUseID:
		return DeferAgain, d, nil
	case d != nil && !stale(*d):
		return Busy, d, nil
	case !record:
		return Defer, nil, nil
	}
	rec := Deferred{SessionID: c.SessionID, ToolUseID: c.ToolUseID, ToolName: c.ToolName, ToolInput: c.ToolInput,
		Cwd: c.Cwd, TranscriptPath: c.TranscriptPath, At: time.Now().UTC()}
	return Defer, &rec, l.write(rec)
}

// Release forgets the session's deferred call once the hook decided it
// (allowed or denied at resume). Another call's record is left alone.
func (l Ledger) Release(c HookCall) error {
	unlock, err := l.lock(c.SessionID)
	if err != nil {
		return err
	}
	defer unlock()
	d, err := l.Pending(c.SessionID)
	if err != nil || d == nil || d.ToolUseID != c.ToolUseID {
		return err
	}
	p, _ := l.path(c.SessionID, ".json")
	return os.Remove(p)
}

func (l Ledger) write(d Deferred) error {
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return err
	}
	p, err := l.path(d.SessionID, ".json")
	if err != nil {
		return err
	}
	b, _ := json.Marshal(d)
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// lock takes the session's lock folder; one left by a killed hook is taken
// over after a minute.
func (l Ledger) lock(sessionID string) (func(), error) {
	p, err := l.path(sessionID, ".lock")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(l.Dir, 0o700); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := os.Mkdir(p, 0o700)
		if err == nil {
			return func() { os.Remove(p) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if info, err := os.Stat(p); err == nil && time.Since(info.ModTime()) > time.Minute {
			os.Remove(p)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the deferred-call ledger of session %s stays locked (%s)", sessionID, p)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stale reports whether a recorded call no longer waits: its transcript
// shows its result, or the conversation went on without it.
func stale(d Deferred) bool {
	if d.TranscriptPath == "" {
		return false
	}
	sc, err := scanClaude(d.TranscriptPath)
	if err != nil {
		return false
	}
	st := sc.state(d.ToolUseID)
	return st == stateRan || st == stateLost
}

// followedUnsafe reports whether c is a call that Claude Code before
// 2.1.330 would lose if deferred: another call follows it in its message.
func followedUnsafe(c HookCall) bool {
	if c.TranscriptPath == "" {
		return false
	}
	sc, err := scanClaude(c.TranscriptPath)
	if err != nil || !olderThan(sc.version, 2, 1, 330) {
		return false
	}
	ids := sc.messages[sc.uses[c.ToolUseID]]
	return len(ids) > 1 && ids[len(ids)-1] != c.ToolUseID
}

// olderThan reports whether version v ("2.1.197") is below a.b.c; an
// unreadable version is taken as new.
func olderThan(v string, want ...int) bool {
	parts := strings.Split(v, ".")
	for i, w := range want {
		if i >= len(parts) {
			return false
		}
		n, err := strconv.Atoi(parts[i])
		if err != nil {
			return false
		}
		if n != w {
			return n < w
		}
	}
	return false
}

// BusyMessage is the denial for call c made while another call waits:
// the model is told this one did not run, and to end its turn.
func BusyMessage(c HookCall, waiting Deferred) string {
	return fmt.Sprintf("This %s call did not run: your %s call (%s) is already waiting for the person's answer, "+
		"and only one call can wait at a time. End your turn now; once the person answers, you continue from "+
		"that call, and can make this one again if it is still needed.", c.ToolName, waiting.ToolName, waiting.ToolUseID)
}

// SubagentMessage is the denial for a subagent's call nobody answered in
// time: a subagent cannot wait for a late answer, so the main agent must
// ask again. question is the question set's text as the person saw it.
func SubagentMessage(toolName, question string) string {
	return fmt.Sprintf("The person was asked (%s) and has not answered in time. A subagent cannot wait for a later "+
		"answer, so this call did not run. Stop now and report back to the main agent that this needs the person: "+
		"the main agent should ask it itself with AskUserQuestion, whose answer can wait. What was asked: %s",
		toolName, question)
}

// FollowedMessage is the denial for a call that Claude Code before 2.1.330
// could not keep waiting because other calls follow it in its message.
func FollowedMessage(toolName string) string {
	return "This " + toolName + " call did not run: nobody answered in time, and this Claude Code version can keep " +
		"a call waiting for a later answer only when it is the last call of its message. Make it again on its own, " +
		"with no other tool call after it in the same message."
}
