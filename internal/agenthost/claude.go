package agenthost

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// claudeHost is Claude Code: its PreToolUse hook defers the call
// (permissionDecision "defer"), claude -p exits 0, and claude -p --resume
// ID (no prompt) calls the hook again for the same tool_use_id.
type claudeHost struct{}

var _ Host = claudeHost{}

func (claudeHost) Kind() Kind { return Claude }

func (claudeHost) Check(args []string) error {
	return claudeCheck(scan(args, claudeOptions), "askuser run --agent claude")
}

var uuidRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Start runs claude -p with the person's arguments, askuser's hook added
// to their --settings, a permission-prompt tool when they gave none, and
// --session-id chosen by askuser unless the arguments resume or name one.
func (h claudeHost) Start(run *Run, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	tokens := scan(run.Args, claudeOptions)
	if err := claudeCheck(tokens, "askuser run --agent claude"); err != nil {
		return nil, err
	}
	if _, ok := find(tokens, "-p", "--print"); !ok {
		// Interactive Claude Code ignores a defer and shows its own dialog.
		tokens = append([]token{{name: "-p", raw: []string{"-p"}}}, tokens...)
	}
	run.SessionID = ""
	if t, ok := find(tokens, "--session-id"); ok {
		run.SessionID = t.value()
	} else if t, ok := find(tokens, "-r", "--resume"); ok {
		id := strings.TrimSuffix(filepath.Base(t.value()), ".jsonl")
		if uuidRE().MatchString(id) {
			run.SessionID = id
		}
	} else if _, ok := find(tokens, "-c", "--continue"); !ok {
		run.SessionID = newUUID()
		tokens = append(tokens, token{name: "--session-id", raw: []string{"--session-id", run.SessionID}})
	}
	args, err := claudeWire(tokens, run.Dir, w)
	if err != nil {
		return nil, err
	}
	run.Started = time.Now()
	cmd := exec.Command(bin(run.Bin, Claude), args...)
	place(cmd, run.Dir, run.Env)
	return cmd, nil
}

// Stopped finds the session (the id askuser chose, else what the output
// or the newest transcript of the folder says) and its deferred call in
// the transcript, whatever the output format.
func (h claudeHost) Stopped(_ context.Context, run *Run, stdout []byte) (Session, error) {
	env := envOr(run.Env)
	s := Session{Host: Claude, ID: run.SessionID, Dir: run.Dir, Bin: run.Bin, Args: run.Args}
	out := claudeOutput(stdout)
	if s.ID == "" {
		s.ID = out.SessionID
	}
	if s.ID == "" {
		s.ID = newestClaudeSession(env, run.Dir, run.Started)
	}
	if s.ID == "" {
		return s, fmt.Errorf("%w: claude ran in %s but left no session askuser can find", ErrNoSession, run.Dir)
	}
	path, err := claudeTranscript(env, run.Dir, s.ID)
	if err != nil {
		if out.Deferred != nil { // the output says so, though the file is gone
			s.Pending = out.Deferred
			return s, nil
		}
		return s, err
	}
	sc, err := scanClaude(path)
	if err != nil {
		return s, err
	}
	s.Transcript, s.Version, s.Pending = path, sc.version, sc.pending()
	return s, nil
}

// claudeResult is what claude -p printed, from its json result or the
// result line of stream-json; text output says nothing.
type claudeResult struct {
	Type           string `json:"type"`
	SessionID      string `json:"session_id"`
	IsError        bool   `json:"is_error"`
	StopReason     string `json:"stop_reason"`
	TerminalReason string `json:"terminal_reason"`
	Result         string `json:"result"`
	Deferred       *Call  `json:"deferred_tool_use"`
}

func claudeOutput(stdout []byte) claudeResult {
	var last claudeResult
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r claudeResult
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.SessionID != "" && (r.Type == "result" || last.SessionID == "") {
			last = r
		}
	}
	return last
}

// newestClaudeSession is the newest transcript of dir written since t.
func newestClaudeSession(env []string, dir string, t time.Time) string {
	config, err := claudeConfigDir(env)
	if err != nil {
		return ""
	}
	matches, _ := filepath.Glob(filepath.Join(config, "projects", claudeProjectName(dir), "*.jsonl"))
	best, bestTime := "", t.Add(-time.Second)
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && info.ModTime().After(bestTime) {
			best, bestTime = strings.TrimSuffix(filepath.Base(m), ".jsonl"), info.ModTime()
		}
	}
	return best
}

// Continue resumes the session in its folder with claude -p --resume ID
// and no prompt, so the hook is asked again about the same call. It
// refuses a session whose call already ran or was lost, and extra
// arguments holding a prompt or --fork-session. It reads the transcript,
// it takes no lock: the caller holds the askuser session's lock while a
// continue runs, so two continues never race.
func (h claudeHost) Continue(_ context.Context, s Session, c Continuation, w Wiring) (*exec.Cmd, error) {
	if err := w.check(); err != nil {
		return nil, err
	}
	env := envOr(c.Env)
	if err := claudeReady(env, s); err != nil {
		return nil, err
	}
	extra := scan(c.Extra, claudeOptions)
	if err := claudeExtra(extra); err != nil {
		return nil, err
	}
	tokens := drop(scan(s.Args, claudeOptions), true, claudeResumeDropped...)
	// Extra flags replace the first run's of the same name.
	for _, t := range extra {
		tokens = drop(tokens, false, t.name)
	}
	args, err := claudeWire(append(tokens, extra...), s.Dir, w)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin(s.Bin, Claude), append([]string{"-p", "--resume", s.ID}, args...)...)
	place(cmd, s.Dir, c.Env)
	return cmd, nil // stdin stays empty: never a prompt
}

// claudeReady checks that s's deferred call is still waiting.
func claudeReady(env []string, s Session) error {
	if s.Pending == nil {
		return fmt.Errorf("%w: Claude Code session %s has no deferred call to continue", ErrNoSession, s.ID)
	}
	path, err := claudeTranscript(env, s.Dir, s.ID)
	if err != nil {
		return err
	}
	sc, err := scanClaude(path)
	if err != nil {
		return err
	}
	switch sc.state(s.Pending.ID) {
	case stateRan:
		return fmt.Errorf("%w: %s call %s of Claude Code session %s already has its result; continuing again would run it twice", ErrAlreadyRan, s.Pending.Name, s.Pending.ID, s.ID)
	case stateLost:
		return fmt.Errorf("%w: Claude Code session %s went on past its %s call %s without running it (a prompt was sent while it waited); it cannot be continued", ErrCallLost, s.ID, s.Pending.Name, s.Pending.ID)
	case stateUnknown:
		return fmt.Errorf("%w: the transcript %s does not show %s call %s waiting", ErrNoSession, path, s.Pending.Name, s.Pending.ID)
	}
	return nil
}

// Outcome reads the transcript after a continue: the call's result there
// means it ran; its marker still last means it waits (deferred again with
// exit 0, or its tool missing with exit 1).
func (h claudeHost) Outcome(s Session, env []string, r Result) Outcome {
	env = envOr(env)
	o := Outcome{Session: s}
	path, err := claudeTranscript(env, s.Dir, s.ID)
	if err != nil {
		return Outcome{State: Failed, Err: err, Session: s}
	}
	sc, err := scanClaude(path)
	if err != nil {
		return Outcome{State: Failed, Err: err, Session: s}
	}
	o.Session.Transcript, o.Session.Version, o.Session.Pending = path, sc.version, sc.pending()
	id := ""
	if s.Pending != nil {
		id = s.Pending.ID
	}
	out := claudeOutput(r.Stdout)
	switch state := sc.state(id); {
	case state == stateLost:
		o.State, o.Err = Failed, fmt.Errorf("%w: Claude Code session %s went on without running call %s", ErrCallLost, s.ID, id)
	case state == statePending && r.ExitCode != 0:
		o.State, o.Err = Failed, claudeUnavailable(s, out, r)
	case state == stateRan && r.ExitCode != 0 && strings.Contains(string(r.Stderr)+string(r.Stdout), "No deferred tool marker found"):
		// Another continue ran the call first; this one ran nothing.
		o.State, o.Err = Failed, fmt.Errorf("%w: Claude Code found no call waiting in session %s; %s already has its result", ErrAlreadyRan, s.ID, id)
	case r.ExitCode != 0:
		o.State, o.Err = Failed, fmt.Errorf("claude exited %d: %s", r.ExitCode, tail(r.Stderr, r.Stdout))
	case o.Session.Pending != nil:
		o.State = Waiting
	default:
		o.State = Done
	}
	return o
}

// claudeUnavailable says what to reconnect when the call's tool is missing
// at resume (exit 1, tool_deferred_unavailable), naming the tool, its MCP
// server and the flag.
func claudeUnavailable(s Session, out claudeResult, r Result) error {
	name := s.Pending.Name
	if !strings.Contains(string(r.Stdout)+string(r.Stderr), "tool_deferred_unavailable") && out.StopReason != "tool_deferred_unavailable" &&
		!strings.Contains(out.Result, "isn't available") {
		return fmt.Errorf("claude exited %d and call %s still waits: %s", r.ExitCode, s.Pending.ID, tail(r.Stderr, r.Stdout))
	}
	fix := "make the tool available to claude again (--tools or --allowedTools after -- on askuser resume) and resume again"
	if server, tool, ok := strings.Cut(strings.TrimPrefix(name, "mcp__"), "__"); ok && strings.HasPrefix(name, "mcp__") {
		fix = fmt.Sprintf("the MCP server %q (tool %s) is not connected: give its --mcp-config after -- on askuser resume (or add it with claude mcp add), check that it starts, and resume again", server, tool)
	} else if name == "AskUserQuestion" {
		fix = "claude -p offers AskUserQuestion only with a permission-prompt tool: leave --permission-prompt-tool out of the session's arguments (askuser adds stdio) or name one that exists, and resume again"
	}
	return fmt.Errorf("%w: Claude Code could not continue call %s: %s is not available at resume; %s", ErrToolUnavailable, s.Pending.ID, name, fix)
}

// tail is the end of what a program printed, for an error message.
func tail(outs ...[]byte) string {
	for _, b := range outs {
		if s := strings.TrimSpace(string(b)); s != "" {
			if len(s) > 400 {
				s = "…" + s[len(s)-400:]
			}
			return s
		}
	}
	return "(it printed nothing)"
}

func envOr(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// Export returns the session's transcript and its subagents' (the files
// <id>.jsonl and <id>/… of its project folder).
func (h claudeHost) Export(_ context.Context, s Session, env []string) (Transcript, error) {
	path, err := claudeTranscript(envOr(env), s.Dir, s.ID)
	if err != nil {
		return Transcript{}, err
	}
	root := filepath.Dir(path)
	files, err := readTree(root, s.ID+".jsonl")
	if err != nil {
		return Transcript{}, fmt.Errorf("export Claude Code session %s: %w", s.ID, err)
	}
	if _, err := os.Stat(filepath.Join(root, s.ID)); err == nil {
		more, err := readTree(root, s.ID)
		if err != nil {
			return Transcript{}, fmt.Errorf("export Claude Code session %s: %w", s.ID, err)
		}
		files = append(files, more...)
	}
	return Transcript{Host: Claude, ID: s.ID, Files: files}, nil
}

// Import puts the transcript in the project folder Claude Code gives the
// session's folder under env's HOME (or CLAUDE_CONFIG_DIR), where
// claude --resume ID run there finds it.
func (h claudeHost) Import(_ context.Context, s Session, t Transcript, env []string) error {
	if t.Host != Claude || t.ID != s.ID {
		return fmt.Errorf("import: the transcript is %s session %s, not Claude Code session %s", t.Host, t.ID, s.ID)
	}
	config, err := claudeConfigDir(envOr(env))
	if err != nil {
		return err
	}
	dir := s.Dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return writeFiles(filepath.Join(config, "projects", claudeProjectName(dir)), t.Files)
}
