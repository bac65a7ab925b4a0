package agenthost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/askuser/askuser/ask"
)

// Kind names a host: an agent program askuser runs and continues.
type Kind string

// The hosts.
const (
	Claude   Kind = "claude"
	Codex    Kind = "codex"
	Gemini   Kind = "gemini"
	OpenCode Kind = "opencode"
)

// Kinds lists the hosts in the order help names them.
var Kinds = []Kind{Claude, Codex, Gemini, OpenCode}

// ParseKind reads a host's name (--agent's value).
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if string(k) == s {
			return k, nil
		}
	}
	return "", fmt.Errorf("%s is not an agent askuser can run; use claude, codex, gemini or opencode", ask.Excerpt(s))
}

// Host is what askuser knows of one agent program: how to start it with
// askuser wired in, how to tell where it stopped, how to continue it with
// a person's answer, what its continue came to, and how to carry its
// transcript to another machine. The methods never change the person's
// own configuration files.
type Host interface {
	Kind() Kind
	// Check reads the agent's own arguments (what the person would type
	// after the program's name) and refuses, with the fix, what would make
	// a later continue impossible or run a call twice.
	Check(args []string) error
	// Start returns the command that runs the agent with askuser wired in.
	// It fills run.SessionID when the host lets askuser choose the id or
	// the arguments name it. Its standard streams are the caller's to set:
	// the agent's standard output must reach the person unchanged (the
	// caller may copy it aside to pass to Stopped).
	Start(run *Run, w Wiring) (*exec.Cmd, error)
	// Stopped learns, after the run ended, the host's session and the call
	// that is waiting for a person. stdout is the run's standard output
	// (nil when not kept): read when it helps, never needed.
	Stopped(ctx context.Context, run *Run, stdout []byte) (Session, error)
	// Continue returns the command that continues s with the answers.
	// Claude Code continues the very call that waits (its hook answers it);
	// the others get a new prompt stating the question and the answer
	// (Prompt). It refuses, with ErrAlreadyRan or ErrCallLost, a session
	// whose call can no longer be continued, so nothing runs twice.
	Continue(ctx context.Context, s Session, c Continuation, w Wiring) (*exec.Cmd, error)
	// Outcome reads what a continue came to.
	Outcome(s Session, env []string, r Result) Outcome
	// Export returns the host's transcript of s, to keep with askuser's
	// session (the team store).
	Export(ctx context.Context, s Session, env []string) (Transcript, error)
	// Import puts t where the host looks for s under the HOME of env, so
	// Continue works on this machine. An existing transcript is kept.
	Import(ctx context.Context, s Session, t Transcript, env []string) error
}

// For returns the host of kind k.
func For(k Kind) (Host, error) {
	switch k {
	case Claude:
		return claudeHost{}, nil
	case Codex:
		return codexHost{}, nil
	case Gemini:
		return geminiHost{}, nil
	case OpenCode:
		return openCodeHost{}, nil
	}
	_, err := ParseKind(string(k))
	return nil, err
}

// Wiring is how askuser is put into one run of a host: Claude Code runs
// `Askuser hook Args…` as a PreToolUse hook (given with --settings), the
// others run `Askuser mcp Args…` as an MCP server named "askuser" (given
// with -c flags, a home overlay or an environment variable).
type Wiring struct {
	// Askuser is the askuser binary the host runs.
	Askuser string
	// Args follow "hook" or "mcp": the run's own askuser flags.
	Args []string
	// Env ("KEY=VALUE") is given to askuser by the host. Codex, Gemini CLI
	// and OpenCode pass an MCP server only some of their own variables, so
	// whatever askuser needs from its environment goes here.
	Env []string
	// Matcher is Claude Code's PreToolUse matcher: whose calls go through
	// askuser. Empty means AskUserQuestion only; "*" every tool.
	Matcher string
	// Timeout bounds one askuser call as the host counts it: Claude Code's
	// hook timeout, the others' MCP call timeout. Keep it above askuser's
	// own --ask-timeout, so askuser answers first. 0 means a day.
	Timeout time.Duration
	// Scratch is a folder of askuser's own, not shared with other users,
	// where the host room may keep what a run needs (Gemini CLI's home
	// overlay). Gemini needs it; the others ignore it.
	Scratch string
}

func (w Wiring) timeout() time.Duration {
	if w.Timeout <= 0 {
		return 24 * time.Hour
	}
	return w.Timeout
}

func (w Wiring) check() error {
	if w.Askuser == "" {
		return errors.New("agenthost: the wiring names no askuser binary")
	}
	return nil
}

// Run is one start of a host.
type Run struct {
	Kind Kind
	// Bin is the host's program: a name looked up on PATH or a path.
	// Empty means the host's own name ("claude", "codex"…).
	Bin string
	// Dir is the folder the agent runs in (absolute).
	Dir string
	// Args are the agent's own arguments, as typed after the program name.
	Args []string
	// Env is the agent's environment; nil means the current one.
	Env []string
	// SessionID is the host's session id when known before the run: Start
	// sets it when askuser may choose it or the arguments name it.
	SessionID string
	// Started is when the run started; Start sets it.
	Started time.Time
}

// Session is what askuser keeps of a stopped host run to continue it:
// JSON-ready, with no environment (which may hold secrets).
type Session struct {
	Host Kind `json:"host"`
	// ID is the host's own session id.
	ID  string `json:"id"`
	Dir string `json:"dir"`
	Bin string `json:"bin,omitempty"`
	// Args are the agent's own arguments of the first run.
	Args []string `json:"args"`
	// Pending is the call waiting for a person, when the host's transcript
	// shows it: Claude Code's deferred call; for the others the askuser
	// call that ended with "no answer yet".
	Pending *Call `json:"pending,omitempty"`
	// Transcript is the path of the host's transcript on the machine it ran
	// on, when it is a file.
	Transcript string `json:"transcript,omitempty"`
	// Version is the host version the transcript names, when it does.
	Version string `json:"version,omitempty"`
}

// Call is a tool call as the host's model made it.
type Call struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

// Continuation is what a continue is given.
type Continuation struct {
	// Answers answer the pending question set, each saying who answered.
	// Hosts without defer put them in the continuation prompt; Claude
	// Code's hook answers the deferred call itself (from askuser's
	// mailbox), so Continue there does not read them.
	Answers []ask.Answer
	// Question is the pending call's question set, for the prompt; when
	// nil, the questions are read from Session.Pending.
	Question *ask.Input
	// Env is the host's environment; nil means the current one.
	Env []string
	// Extra are host flags for this continue only (what follows -- on
	// askuser resume). A prompt is refused: the continue brings its own.
	Extra []string
}

// Result is how a continue ended.
type Result struct {
	ExitCode       int
	Stdout, Stderr []byte
}

// State is what a continue came to.
type State string

// The states of an Outcome.
const (
	// Done: the call got its answer (or the prompt was taken) and the agent
	// went on.
	Done State = "done"
	// Waiting: the call is still waiting (Claude Code's hook deferred it
	// again); continue later.
	Waiting State = "waiting"
	// Failed: the continue did not take; Err says why and what to do.
	Failed State = "failed"
)

// Outcome is what a continue came to, read from its exit code, its output
// and the host's transcript.
type Outcome struct {
	State State
	// Err says why, for Failed: ErrToolUnavailable, ErrAlreadyRan,
	// ErrCallLost or the host's own error.
	Err error
	// Session is the host session after the continue (Claude Code may
	// report a new deferred call).
	Session Session
}

// Sentinel errors of a continue; test with errors.Is.
var (
	// ErrAlreadyRan: the waiting call already has its result in the
	// transcript; continuing again would run it twice.
	ErrAlreadyRan = errors.New("the waiting call already ran")
	// ErrCallLost: the host dropped the waiting call (a prompt was sent
	// while it waited); it can no longer be continued.
	ErrCallLost = errors.New("the host dropped the waiting call")
	// ErrToolUnavailable: the waiting call's tool is not there at resume.
	ErrToolUnavailable = errors.New("the waiting call's tool is not available")
	// ErrNoSession: the host's session could not be found.
	ErrNoSession = errors.New("no host session found")
)

// Transcript is a host's transcript of one session, as files relative to
// the host's own folder for it (or one export file), to keep with
// askuser's session and put back on another machine.
type Transcript struct {
	Host  Kind   `json:"host"`
	ID    string `json:"id"`
	Files []File `json:"files"`
}

// File is one file of a transcript; Path is slash-separated and relative.
type File struct {
	Path string `json:"path"`
	Data []byte `json:"data"`
}

// bin is the program a run or session names, or the host's own name.
// NpmPackage is the npm package that installs k's program.
func NpmPackage(k Kind) string {
	switch k {
	case Claude:
		return "@anthropic-ai/claude-code"
	case Codex:
		return "@openai/codex"
	case Gemini:
		return "@google/gemini-cli"
	case OpenCode:
		return "opencode-ai"
	}
	return ""
}

func bin(b string, k Kind) string {
	if b != "" {
		return b
	}
	return string(k)
}

// envValue returns the last value of name in env ("KEY=VALUE" entries).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

// withEnv returns env with name set to value (replacing earlier values).
func withEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// place runs cmd in dir with env (nil: the current environment) and PWD
// set to dir, as a shell would: OpenCode takes its folder from $PWD when it
// is set (a stale PWD put a session in askuser's own folder), and the
// others ignore it.
func place(cmd *exec.Cmd, dir string, env []string) {
	cmd.Dir = dir
	cmd.Env = withEnv(envOr(env), "PWD", dir)
}
